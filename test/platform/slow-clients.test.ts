// Slow clients (src/http/admission.ts, src/http/server.ts): a client that sends its request or reads
// its response slowly, or not at all, holds no admission slot for long and cannot keep anyone
// else from being served.
//   - more connections than there are slots send a body and never finish it: they hold no slot
//     (normal clients are answered meanwhile), each client IP has a budget of bodies arriving at
//     once (429 beyond), and each body runs out of time (408 envelope, connection closed);
//   - headers that never end are a 408 envelope, and the connection is closed;
//   - downloads whose client stops reading hold their slots only until the write deadline, then
//     their connections are closed and the slots serve others;
//   - the public joining-document upload refuses a wrong link before reading the body;
//   - health reports the load and readiness is a 503 while the process is saturated.
// Each test has an app with small limits of its own (2 slots, deadlines of a few seconds), served
// as production serves it (createServer). What is asserted are outcomes - statuses, envelopes,
// connections closed, slots given back - never how long something took: the waits are hang
// guards, generous for a busy machine.
import { randomBytes } from "node:crypto";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import pg from "pg";
import supertest from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/config.ts";
import type { Admission, AdmissionOptions, AdmissionStats } from "../../src/http/admission.ts";
import { createApp } from "../../src/http/app.ts";
import { createMetricsServer } from "../../src/http/metrics-server.ts";
import { createServer } from "../../src/http/server.ts";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";
import { waitFor } from "../support/eventually.ts";

const t = useTestApp();

/** Resolves with `p`'s value, or rejects once the hang guard runs out. */
function guard<T>(what: string, p: Promise<T>, ms = 90_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const out = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  return Promise.race([p, out]).finally(() => clearTimeout(timer));
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    s.closeAllConnections();
    await closed;
  }
});

/**
 * An app with `overrides` on the file's configuration (2 slots unless said otherwise; client IPs
 * from X-Forwarded-For of loopback), served by createServer on a loopback port of its own.
 */
async function serve(overrides: Partial<Config>, admission: Partial<AdmissionOptions> = {}) {
  const config = t.configWith({ maxConcurrentRequests: 2, trustProxy: ["loopback"], ...overrides });
  const app = createApp({ config, validateResponses: true, admission });
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const stats = (): AdmissionStats => (app.locals.admission as Admission).stats();
  return { app, server, port, stats, request: () => supertest.agent(server) };
}

/** The session cookie of `o` signed in on the server `s` (a Cookie header's value). */
async function sessionCookieOn(s: { request: () => supertest.Agent }, o: { email: string; password: string }): Promise<string> {
  const res = await api(s.request())
    .op("signIn", { body: { email: o.email, password: o.password } })
    .expect(200);
  return (res.headers["set-cookie"] as unknown as string[]).map((c) => c.split(";")[0]).join("; ");
}

/** A download of file `fileId` on its own connection, as a plain HTTP client sends it. */
function download(port: number, fileId: string, cookie: string): http.ClientRequest {
  const req = http.get({ host: "127.0.0.1", port, path: `/api/files/${fileId}`, agent: false, headers: { cookie } });
  req.on("error", () => {});
  return req;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON, or the text when it is not JSON. */
  body: unknown;
}

/**
 * A request whose headers are sent with only `sent` of its body (of the `length` it announces),
 * the rest never: its answer (when one comes) and the closing of its connection.
 */
function unfinished(port: number, opts: { method?: string; path: string; headers: Record<string, string>; length: number; sent: Buffer }) {
  const req = http.request({
    host: "127.0.0.1",
    port,
    method: opts.method ?? "POST",
    path: opts.path,
    agent: false,
    headers: { ...opts.headers, "content-length": String(opts.length) },
  });
  req.on("error", () => {}); // the server closes the connection: expected
  const answer = new Promise<Answer>((resolve) => {
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", () => {});
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON: kept as text */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
  });
  const closed = new Promise<void>((resolve) => req.on("socket", (s) => s.once("close", () => resolve())));
  req.write(opts.sent);
  return { answer, closed, req };
}

/** A sign-in whose JSON body stops after its first bytes, from client `ip`. */
const slowSignIn = (port: number, ip: string) =>
  unfinished(port, {
    path: "/api/auth/sign-in",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    length: 200,
    sent: Buffer.from('{"email":"'),
  });

/** The raw bytes a connection receives until the server closes it. */
function rawConnection(port: number, send: string) {
  const socket = net.connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (c: Buffer) => chunks.push(c));
  socket.on("error", () => {});
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(Buffer.concat(chunks).toString("utf8"))));
  socket.write(send);
  return { socket, closed };
}

/** Status line and JSON body of a raw HTTP response. */
function parseRaw(text: string): { status: number; head: string; body: unknown } {
  const [head, body] = [text.slice(0, text.indexOf("\r\n\r\n")), text.slice(text.indexOf("\r\n\r\n") + 4)];
  return { status: Number(head.split(" ")[1]), head, body: JSON.parse(body) };
}

describe("slow request bodies", () => {
  it("signIn: more never-finished bodies than slots hold no slot; normal clients are answered; each slow body gets a 408", async () => {
    const o = await signupTenant(t);
    // 2 slots; 2 bodies arriving at once per client IP; 5 s for a body (a few bytes earn nothing)
    const s = await serve({ bodyReadsPerClient: 2, bodyReadTimeoutMs: 5000, requestQueueTimeoutMs: 30_000 });
    // 6 slow sign-ins from 3 addresses: three times the slots
    const slow = ["198.51.100.1", "198.51.100.2", "198.51.100.3"].flatMap((ip) => [slowSignIn(s.port, ip), slowSignIn(s.port, ip)]);
    await waitFor("the 6 slow requests to arrive", () => s.stats().admitted + s.stats().queued >= 6);

    // meanwhile normal clients - more at once than there are slots - are served
    const agent = s.request();
    const signIn = await agent
      .post("/api/auth/sign-in")
      .set("X-Forwarded-For", "203.0.113.9")
      .send({ email: o.email, password: o.password });
    expect(signIn.status).toBe(200);
    const reads = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 ? api(agent).op("getCompanySettings") : api(agent).op("updateCompanySettings", { body: { name: `Acme ${i}` } }),
      ),
    );
    expect(reads.map((r) => r.status)).toEqual(Array(6).fill(200));
    // the slow ones hold no slot while their bodies arrive
    expect(s.stats()).toMatchObject({ active: 0, readingBodies: 6 });

    // a 7th slow body from an address that has 2 arriving is refused before it is read
    const refused = await guard("the 7th slow body's answer", slowSignIn(s.port, "198.51.100.1").answer);
    expectError(refused, 429, "rate_limited");
    expect(refused.headers["retry-after"]).toBe("2");
    expect(refused.headers["ratelimit-policy"]).toBe('"body-reads";q=2');
    expect(s.stats()).toMatchObject({ readingBodies: 6, rejectedBodyReads: 1 });

    // every slow body runs out of time: 408 envelope, connection closed
    const answers = await guard("the slow bodies' answers", Promise.all(slow.map((x) => x.answer)));
    for (const a of answers) {
      expectError(a, 408, "request_timeout");
      expect(a.headers.connection).toBe("close");
    }
    await guard("the slow connections to close", Promise.all(slow.map((x) => x.closed)));
    await waitFor("the slots and budgets to be free", () => s.stats().active === 0 && s.stats().readingBodies === 0);
    expect(s.stats()).toMatchObject({ bodyReadTimeouts: 6, queued: 0 });
    // and the addresses may send bodies again
    const again = await s
      .request()
      .post("/api/auth/sign-in")
      .set("X-Forwarded-For", "198.51.100.1")
      .send({ email: o.email, password: o.password });
    expect(again.status).toBe(200);
  });

  it("headers that never end are a 408 envelope, and the connection is closed", async () => {
    const s = await serve({ headersTimeoutMs: 3000 });
    const c = rawConnection(s.port, "POST /api/auth/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n");
    const { status, head, body } = parseRaw(await guard("the connection to close", c.closed));
    expect(status).toBe(408);
    expect(head).toMatch(/\r\nconnection: close/i);
    expect(head).toMatch(/\r\ncontent-type: application\/json/i);
    expect(body).toEqual({ error: expect.any(String), status: 408, code: "request_timeout" });
    // a request Node cannot parse is a 400 envelope
    const bad = rawConnection(s.port, "GARBAGE\r\n\r\n");
    const parsed = parseRaw(await guard("the malformed request's connection to close", bad.closed));
    expect(parsed.status).toBe(400);
    expect(parsed.body).toMatchObject({ status: 400, code: "validation_failed" });
  });
});

describe("slow readers", () => {
  it("downloadFile: downloads nobody reads hold their slots only until the write deadline; then others are served", async () => {
    const o = await signupTenant(t);
    // larger than what the sockets' buffers take in: the response cannot be written while unread
    const size = 9 * 1024 * 1024;
    const up = await o.agent
      .post("/api/upload")
      .attach("file", Buffer.alloc(size, "a"), { filename: "big.txt", contentType: "text/plain" })
      .field("purpose", "document")
      .expect(201);
    const fileId = up.body.data.id as string;
    const s = await serve({ responseWriteTimeoutMs: 3000, requestQueueTimeoutMs: 60_000 });
    const cookie = await sessionCookieOn(s, o);

    // three downloads - more than the 2 slots - whose client reads the headers and then nothing
    const stalled = Array.from({ length: 3 }, () => {
      let response: http.IncomingMessage | undefined;
      let received = 0;
      const req = download(s.port, fileId, cookie);
      req.on("response", (res) => {
        response = res;
        res.on("error", () => {});
        res.once("data", (c: Buffer) => {
          received += c.length;
          res.pause(); // and nothing more, until the test looks at what is left
        });
      });
      /** Reads what the connection still holds: whether the whole file came, and how much. */
      const drain = () =>
        new Promise<{ status: number; complete: boolean; received: number }>((resolve) => {
          const res = response as http.IncomingMessage;
          res.on("data", (c: Buffer) => {
            received += c.length;
          });
          res.once("close", () => resolve({ status: res.statusCode ?? 0, complete: res.complete, received }));
          res.resume();
        });
      return { drain, started: () => response !== undefined };
    });
    // the server cuts each one off at its write deadline: the third gets a slot once one is free
    await waitFor("the three downloads to be answered, the third once a slot is free", () => stalled.every((d) => d.started()));
    await waitFor("the three downloads to be cut off", () => s.stats().writeTimeouts === 3);
    const ends = await guard("the downloads' connections to end", Promise.all(stalled.map((d) => d.drain())));
    for (const end of ends) expect(end).toMatchObject({ status: 200, complete: false, received: expect.any(Number) });
    for (const end of ends) expect(end.received).toBeLessThan(size);
    await waitFor("the slots to be free", () => s.stats().active === 0);
    // the slots serve others again
    const agent = s.request();
    await api(agent)
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);
    const again = await Promise.all(Array.from({ length: 4 }, () => api(agent).op("getCompanySettings")));
    expect(again.map((r) => r.status)).toEqual(Array(4).fill(200));
  });
});

describe("slow readers hold no slot", () => {
  it("downloadFile: more downloads nobody reads than slots; others are served meanwhile, well within the write deadline", async () => {
    const o = await signupTenant(t);
    const size = 9 * 1024 * 1024;
    const up = await o.agent
      .post("/api/upload")
      .attach("file", Buffer.alloc(size, "b"), { filename: "big.txt", contentType: "text/plain" })
      .field("purpose", "document")
      .expect(201);
    // the production deadline: nothing here waits for it
    const s = await serve({ responseWriteTimeoutMs: 60_000, requestQueueTimeoutMs: 60_000 });
    const agent = s.request();
    await api(agent)
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);
    const cookie = await sessionCookieOn(s, o);
    const stalled = Array.from({ length: 5 }, () => {
      let started = false;
      const req = download(s.port, up.body.data.id, cookie);
      req.on("response", (res) => {
        started = true;
        res.on("error", () => {});
        res.pause(); // reads nothing
      });
      return { req, started: () => started };
    });
    // five stalled downloads on two slots: each gives its slot back once only its client is left to read
    await waitFor("the five downloads to be answered", () => stalled.every((d) => d.started()));
    await waitFor("their slots to be given back", () => s.stats().writingResponses === 5 && s.stats().active === 0);
    const others = await Promise.all(Array.from({ length: 4 }, () => api(agent).op("getCompanySettings")));
    expect(others.map((r) => r.status)).toEqual(Array(4).fill(200));
    await api(s.request()).op("getServerTime").expect(200);
    expect(s.stats()).toMatchObject({ writeTimeouts: 0, rejectedFull: 0, rejectedTimeout: 0, writingResponses: 5 });
    for (const d of stalled) d.req.destroy();
    await waitFor("the stalled downloads to be gone", () => s.stats().writingResponses === 0);
  });
});

describe("a reader that stops", () => {
  it("downloadFile: a client that reads for two seconds, then nothing, is cut off once idle for the write deadline", async () => {
    const o = await signupTenant(t);
    const size = 10 * 1024 * 1024 - 4096; // the largest upload: more than the sockets' buffers take in
    const up = await o.agent
      .post("/api/upload")
      .attach("file", Buffer.alloc(size, "c"), { filename: "big.txt", contentType: "text/plain" })
      .field("purpose", "document")
      .expect(201);
    // the production minimum rate (4 096 bytes a second): what it read early buys minutes of average
    const s = await serve({ responseWriteTimeoutMs: 3000, requestQueueTimeoutMs: 60_000 });
    const cookie = await sessionCookieOn(s, o);
    let received = 0;
    let stopped = false;
    let response: http.IncomingMessage | undefined;
    const req = download(s.port, up.body.data.id, cookie);
    req.on("response", (res) => {
      response = res;
      const readingUntil = Date.now() + 2000;
      res.on("error", () => {});
      res.on("data", (c: Buffer) => {
        received += c.length;
        if (stopped) return; // what is left after the cut, read to the end below
        res.pause();
        // a chunk every 100 ms for two seconds, then nothing more
        if (Date.now() < readingUntil) setTimeout(() => res.resume(), 100);
        else stopped = true;
      });
    });
    await waitFor("the client to stop reading", () => stopped);
    await waitFor("the download to be cut off", () => s.stats().writeTimeouts === 1, { timeoutMs: 90_000 });
    // what the connection still held, then its end: the file did not come whole
    const res = response as http.IncomingMessage;
    const complete = await guard(
      "the download's connection to end",
      new Promise<boolean>((resolve) => {
        res.once("close", () => resolve(res.complete));
        res.resume();
      }),
    );
    expect(complete).toBe(false);
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(size);
  });
});

describe("request bodies in memory", () => {
  it("a JSON body reserves what it may cost once parsed; one that does not fit is a 503 before it is read", async () => {
    const o = await signupTenant(t);
    // room for one body of 200 000 bytes (6 × its size) and not two
    const s = await serve({}, { bodyMemoryBytes: 6 * 300_000, bodyReadTimeoutMs: 60_000 });
    const cookie = await sessionCookieOn(s, o);
    const headers = { "content-type": "application/json", cookie };
    const first = unfinished(s.port, { path: "/api/imports/employees", headers, length: 200_000, sent: Buffer.from('{"csv":"') });
    await waitFor("the first body to be arriving", () => s.stats().readingBodies === 1);
    expect(s.stats().bodyMemory).toBe(6 * 200_000);
    const second = unfinished(s.port, { path: "/api/imports/employees", headers, length: 200_000, sent: Buffer.from('{"csv":"') });
    const refused = await guard("the second body's answer", second.answer);
    expect(expectError(refused, 503, "unavailable").error).toContain("request bodies in memory");
    expect(refused.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
    first.req.destroy();
    await waitFor("the first body's memory to be given back", () => s.stats().bodyMemory === 0);
    // a small body fits again
    const agent = s.request();
    await api(agent)
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);
    expectError(await api(agent).op("importEmployees", { body: { csv: "first_name\n" } }), 400);
  });

  it("the process does not start when one body of the largest limit would not fit (BODY_MEMORY_MB)", () => {
    expect(() => createApp({ config: t.configWith({ bodyMemoryMb: 150 }) })).toThrow(
      /BODY_MEMORY_MB \(150\) cannot hold one JSON body of the largest limit \(32 MiB may take 192 MiB once parsed\)/,
    );
  });
});

describe("importEmployees: a body that would cost more memory than its limit allows", () => {
  it("is refused from its bytes, before parsing: 413 for too many objects and arrays, or too many values", async () => {
    const o = await signupTenant(t);
    // the reviewer's body, at a size the suite can send: 600 000 empty objects (1.8 MB, ~40 MB once parsed)
    const objects = `{"rows":[${"{},".repeat(600_000)}{}]}`;
    const many = expectError(
      await o.agent.post("/api/imports/employees").set("Content-Type", "application/json").send(objects),
      413,
      "payload_too_large",
    );
    expect(many.error).toContain("too many objects and arrays");
    expect(many.error).toContain("send large imports as CSV");
    const values = `{"rows":[{"a":[${"1,".repeat(2_200_000)}1]}]}`;
    const numbers = expectError(
      await o.agent.post("/api/imports/employees").set("Content-Type", "application/json").send(values),
      413,
      "payload_too_large",
    );
    expect(numbers.error).toContain("too many values");
  });
});

describe("uploadAppointmentDocument: the public upload checks its link first", () => {
  it("answers a wrong or malformed link before reading the body: 404 / 400 while an 8 MB upload is still being sent", async () => {
    const s = await serve({});
    const boundary = "----slowclients";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="document_type"\r\n\r\nid_proof\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="id.pdf"\r\n` +
        "Content-Type: application/pdf\r\n\r\n%PDF-1.4\n",
    );
    const upload = unfinished(s.port, {
      path: `/api/public/appointment/${randomBytes(32).toString("base64url")}/upload`,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      length: 8 * 1024 * 1024,
      sent: head,
    });
    const answer = await guard("the wrong link's answer", upload.answer);
    expectError(answer, 404, "not_found");
    upload.req.destroy();
    // a malformed link is the validator's 400, also before the body
    const malformed = unfinished(s.port, {
      path: "/api/public/appointment/short/upload",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      length: 8 * 1024 * 1024,
      sent: head,
    });
    expect(expectError(await guard("the malformed link's answer", malformed.answer), 400, "validation_failed").details).toEqual([
      { path: "params.token", message: "must not have fewer than 20 characters" },
    ]);
    malformed.req.destroy();
  });
});

describe("getHealth, getReadiness: the load of the process", () => {
  it("the metrics listener reports the requests in progress and saturation; readiness is a 503 while saturated, 200 after", async () => {
    const o = await signupTenant(t);
    const s = await serve({ requestQueueTimeoutMs: 60_000 });
    const agent = s.request();
    await api(agent)
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);
    const metrics = createMetricsServer(s.app);
    servers.push(metrics);
    await new Promise<void>((resolve) => metrics.listen(0, "127.0.0.1", () => resolve()));
    const details = async () => {
      const r = await fetch(`http://127.0.0.1:${(metrics.address() as AddressInfo).port}/ready`);
      // the metrics listener's readiness (not an operation of the API document)
      return { status: r.status, body: (await r.json()) as { status: string; requests: Record<string, unknown> } };
    };

    const idle = await details();
    expect(idle).toMatchObject({
      status: 200,
      body: {
        status: "ready",
        database: "up",
        requests: { in_progress: 0, limit: 2, queued: 0, queue_limit: t.config.maxQueuedRequests, reading_bodies: 0, saturated: false },
      },
    });
    const ready = await api(s.request()).op("getReadiness").expect(200);
    expect(ready.body.data).toEqual({ status: "ready" });

    // two requests blocked on a lock take both slots; a third waits for one
    const locker = new pg.Client({ connectionString: t.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE tenants IN ACCESS EXCLUSIVE MODE");
      const blocked = Array.from({ length: 3 }, () =>
        api(agent)
          .op("getCompanySettings")
          .then((r) => r),
      );
      await waitFor("2 in progress and 1 waiting", () => s.stats().active === 2 && s.stats().queued === 1);
      // health stays 200 and says nothing of the load; the metrics listener does
      const busy = await api(s.request()).op("getHealth").expect(200);
      expect(busy.body.data).toEqual({ status: "ok", database: "up", uptime_seconds: expect.any(Number) });
      expect(await details()).toMatchObject({
        status: 503,
        body: {
          status: "not_ready",
          requests: { in_progress: 2, limit: 2, queued: 1, queue_limit: t.config.maxQueuedRequests, reading_bodies: 0, saturated: true },
        },
      });
      const notReady = await api(s.request()).op("getReadiness");
      expectError(notReady, 503, "unavailable");
      expect(notReady.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
      await locker.query("COMMIT");
      expect((await Promise.all(blocked)).map((r) => r.status)).toEqual([200, 200, 200]);
    } finally {
      await locker.query("ROLLBACK").catch(() => {});
      await locker.end();
    }
    await waitFor("the slots to be free", () => s.stats().active === 0);
    await api(s.request()).op("getReadiness").expect(200);
    expect((await details()).body.requests).toMatchObject({ in_progress: 0, queued: 0, saturated: false });
  });
});
