// What the benches share (bench-leave, bench-payroll, bench-bulk): one statement as the database's
// administrator, and a JSON client of the server under measurement that keeps its session cookie.
// Production sessions use Secure cookies: requests present themselves as coming through a TLS proxy.
import pg from "pg";

export const HTTPS = { "x-forwarded-proto": "https" };

/** Runs one statement on `url` (CREATE / DROP DATABASE) with a connection of its own. */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export interface BenchClient {
  /** the server's origin, set once it listens */
  base: string;
  /** the session cookie of the last sign-in */
  cookie: string;
  /** A JSON request; a status of 300 or more throws with the answer's start. */
  api(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export function benchClient(base = ""): BenchClient {
  const client: BenchClient = {
    base,
    cookie: "",
    async api(method, url, body) {
      const res = await fetch(`${client.base}${url}`, {
        method,
        headers: { "content-type": "application/json", cookie: client.cookie, ...HTTPS },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
      const setCookie = res.headers.get("set-cookie");
      if (setCookie) client.cookie = setCookie.split(";")[0];
      return { status: res.status, body: JSON.parse(text) };
    },
  };
  return client;
}
