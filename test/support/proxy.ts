// A TCP proxy in front of PostgreSQL that a test can cut and restore, to see how the service
// behaves while its database is unreachable (without stopping a server other tests share).
import net from "node:net";

export interface DbProxy {
  url: string;
  /** Drops every connection: "close" ends them (FIN), "reset" aborts them (RST, the peer reads ECONNRESET). */
  cut: (how?: "close" | "reset") => void;
  restore: () => void;
  close: () => Promise<void>;
}

export async function startDbProxy(targetUrl: string): Promise<DbProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const u = new URL(targetUrl);
  u.hostname = "127.0.0.1";
  u.port = String((server.address() as net.AddressInfo).port);
  return {
    url: u.toString(),
    cut: (how = "close") => {
      down = true;
      for (const s of sockets)
        if (how === "reset") s.resetAndDestroy();
        else s.destroy();
      sockets.clear();
    },
    restore: () => {
      down = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
