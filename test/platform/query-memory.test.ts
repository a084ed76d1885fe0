// A query's parameters are not kept once it has finished. Prisma's debug module keeps the arguments
// of its last 100 debug calls (for its own bug reports), and the Prisma client and its driver
// adapter pass every query's parameters to it: after a bulk write of 30 000 leave allocations
// (statements with ~1 MB of JSON parameters each) the server kept ~90 MB it could not free, and
// every full collection after it walked them (the balances page then cost twice the CPU).
// patches/@prisma+debug+7.10.0.patch and patches/@prisma+client+7.10.0.patch keep no history.
// Measured in a process of its own (--expose-gc): the heap after a collection, before and after
// 40 queries each with a parameter of 1 MB.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../support/app.ts";

const t = useTestApp();
const root = path.resolve(import.meta.dirname, "../..");

const CHILD = `
import { initDb, closeDb, systemDb } from "./src/db/client.ts";
initDb(process.env.QUERY_MEMORY_URL, { max: 2 });
const used = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
await systemDb.$queryRawUnsafe("SELECT 1");
const before = used();
for (let i = 0; i < 40; i++) {
  const big = JSON.stringify(Array.from({ length: 9000 }, (_, k) => ({ employee_id: "e" + i + "-" + k, days: "12.0" })));
  await systemDb.$queryRawUnsafe("SELECT length($1::text) AS n", big);
  await systemDb.$transaction(async (tx) => tx.$queryRawUnsafe("SELECT length($1::text) AS n", big));
}
const after = used();
await closeDb();
console.log(JSON.stringify({ before, after }));
`;

describe("database queries: memory", () => {
  it("a query's parameters are not retained after it finished (Prisma's debug history is off)", () => {
    const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", CHILD], {
      cwd: root,
      env: { ...process.env, QUERY_MEMORY_URL: t.url },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const { before, after } = JSON.parse(r.stdout.trim().split("\n").pop()!) as { before: number; after: number };
    // 80 statements with ~0.4 MB of parameters each went by (~32 MB); a few MB of caches may stay
    expect((after - before) / 1e6).toBeLessThan(8);
  });
});
