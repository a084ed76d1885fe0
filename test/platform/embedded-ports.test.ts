// Runs never collide: make run's embedded PostgreSQL keeps its documented port and says clearly when
// another program holds it (it used to connect to whatever answered there - another clone's server);
// throw-away servers take a free port of their own, so any number run side by side.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, startEmbeddedServer, startThrowawayServer } from "../../src/db/embedded.ts";

const dirs: string[] = [];
function scratch(): string {
  const d = mkdtempSync(path.join(tmpdir(), "hrms-ports-test-"));
  chmodSync(d, 0o755); // the server runs as the `postgres` user when we are root
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("embedded PostgreSQL ports", () => {
  it("refuses a port another program holds, naming it and EMBEDDED_PG_PORT, instead of using that program", async () => {
    const port = await freePort();
    const squatter = net.createServer((s) => s.end());
    await new Promise<void>((r) => squatter.listen(port, "127.0.0.1", () => r()));
    try {
      await expect(startEmbeddedServer(path.join(scratch(), "data"), port, false)).rejects.toThrow(
        new RegExp(`Port ${port} is taken by another program.*EMBEDDED_PG_PORT`),
      );
    } finally {
      await new Promise<void>((r) => squatter.close(() => r()));
    }
  });

  it("a second program on the same folder with another port (make seed beside make run) is told to use EMBEDDED_PG_PORT", async () => {
    const dir = path.join(scratch(), "data");
    const first = await freePort();
    const other = first === 65535 ? first - 1 : first + 1; // never bound: the refusal comes first
    const running = await startEmbeddedServer(dir, first, true);
    try {
      await expect(startEmbeddedServer(dir, other, true)).rejects.toThrow(
        `is already running on port ${first}, not on EMBEDDED_PG_PORT ${other}: run this with EMBEDDED_PG_PORT=${first} as well`,
      );
      // the same port reuses it
      await (await startEmbeddedServer(dir, first, true)).stop();
    } finally {
      await running.stop();
    }
  });

  it("starts throw-away servers side by side, each on a port and in a folder of its own", async () => {
    const [a, b] = await Promise.all([
      startThrowawayServer(path.join(scratch(), "data")),
      startThrowawayServer(path.join(scratch(), "data")),
    ]);
    try {
      expect(a.port).not.toBe(b.port);
      for (const s of [a, b]) {
        const c = new pg.Client({ connectionString: s.url });
        await c.connect();
        expect((await c.query("SELECT current_setting('port')::int AS port")).rows[0].port).toBe(s.port);
        await c.end();
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
