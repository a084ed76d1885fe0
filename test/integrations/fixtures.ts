// The integrations tests' shared pieces: the loopback receiver their webhook deliveries go to.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { registerAllJobs } from "../../src/modules/jobs.ts";

/**
 * A loopback HTTP server that receives the file's webhook deliveries: started before the file's tests (with the
 * job handlers registered, so a test can run the delivery job) on a free port, closed after them.
 * `base` is its address (read it inside a test, once the server is up).
 */
export function useWebhookReceiver(handle: http.RequestListener): { readonly base: string } {
  let server: http.Server;
  let base = "";
  beforeAll(async () => {
    registerAllJobs();
    server = http.createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    get base() {
      return base;
    },
  };
}

/** The body of a delivery, read whole as text. */
export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
