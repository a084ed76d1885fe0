// A TCP port on 127.0.0.1 that is free right now (for servers a test or a script starts itself:
// an embedded PostgreSQL, the real server process, a baseline server).
import net from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}
