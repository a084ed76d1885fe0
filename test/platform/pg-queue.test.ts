// No pg deprecation banner: Prisma's query interpreter reads the relations of an
// `include` with Promise.all, and inside a transaction they all went to the transaction's one pg
// client, which queued them and warned "Calling client.query() when the client is already executing
// a query is deprecated" (an error from pg 9 on). The patched adapter (patches/@prisma+adapter-pg+
// 7.10.0.patch; prisma/orm#29979) runs a transaction's queries one after the other.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { PrismaPg } from "@prisma/adapter-pg";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../support/app.ts";

const t = useTestApp();
const root = path.resolve(import.meta.dirname, "../..");
const sql = (text: string) => ({ sql: text, args: [], argTypes: [] });

describe("transactions of the Prisma pg adapter", () => {
  it("send no query while another is running on the transaction's client, and answer each in order", async () => {
    const adapter = await new PrismaPg({ connectionString: t.url }).connect();
    let release = async () => {};
    try {
      const tx = (await adapter.startTransaction()) as unknown as {
        client: { query: (...args: unknown[]) => Promise<unknown>; _getActiveQuery: () => unknown; _queryQueue: unknown[] };
        queryRaw: (q: ReturnType<typeof sql>) => Promise<{ rows: unknown[][] }>;
        executeRaw: (q: ReturnType<typeof sql>) => Promise<number>;
        rollback: () => Promise<void>;
      };
      release = async () => {
        await tx.executeRaw(sql("ROLLBACK")).catch(() => {});
        await tx.rollback();
      };
      let overlapping = 0;
      const query = tx.client.query;
      tx.client.query = function (this: typeof tx.client, ...args: unknown[]) {
        if (this._getActiveQuery() || this._queryQueue.length > 0) overlapping++;
        return query.apply(this, args);
      };
      const answers = await Promise.all([
        tx.queryRaw(sql("SELECT 1 AS n FROM pg_sleep(0.05)")),
        tx.queryRaw(sql("SELECT 2 AS n")),
        tx.queryRaw(sql("SELECT 3 AS n")),
      ]);
      expect(answers.map((a) => Number(a.rows[0][0]))).toEqual([1, 2, 3]);
      expect(overlapping).toBe(0);
      // a failed query does not stop the ones after it
      const [failed, after] = await Promise.allSettled([tx.queryRaw(sql("SELECT 1/0")), tx.queryRaw(sql("SELECT 4"))]);
      expect(failed.status).toBe("rejected");
      expect(after.status).toBe("rejected"); // the transaction is aborted: PostgreSQL refuses it, the adapter still sent it
    } finally {
      await release(); // the pool ends only once its client is back
      await adapter.dispose();
    }
  });

  it("emit no deprecation warning (a process of its own, with --throw-deprecation)", async () => {
    const script = `
      import { PrismaPg } from "@prisma/adapter-pg";
      const adapter = await new PrismaPg({ connectionString: process.env.URL }).connect();
      const tx = await adapter.startTransaction();
      const q = (text) => tx.queryRaw({ sql: text, args: [], argTypes: [] });
      await Promise.all([q("SELECT 1 FROM pg_sleep(0.05)"), q("SELECT 2"), q("SELECT 3")]);
      await tx.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] });
      await tx.rollback();
      await adapter.dispose();
      console.log("done");`;
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--throw-deprecation", "--input-type=module", "-e", script], {
      cwd: root,
      env: { ...process.env, URL: t.url },
    });
    expect(stderr).not.toMatch(/Deprecation/);
    expect(stdout.trim()).toBe("done");
  });
});
