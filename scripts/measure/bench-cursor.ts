// Cursor bench (docs/integrations-sync.md): what a page of the employee list costs at the start of the list
// and 9 000 rows deep, walked by cursor (sort=changed, keyset on employees_change_idx) and paged by
// number (page=91 of 100: an OFFSET of 9 000 on the name index), with BENCH_EMPLOYEES (10 000) in
// the company. Each figure is the median and mean of BENCH_ROUNDS (200) sequential GETs (the four cases interleaved) of 100 rows
// through the app (HTTP on loopback, no response validation); the ratio deep / first is the point.
// Runs in one process against a database of its own (scripts/db/scratch-db.ts), or against
// BENCH_DATABASE_URL as it is (migrated here). Prints the load average before and after.
//   LOG_LEVEL=silent npx tsx scripts/measure/bench-cursor.ts
import os from "node:os";
import pg from "pg";
import supertest from "supertest";
import { configWith } from "../../src/config.ts";
import { closeDb, initDb } from "../../src/db/client.ts";
import { deployMigrations } from "../../src/db/migrations.ts";
import { createApp } from "../../src/http/app.ts";
import { createServer } from "../../src/http/server.ts";
import { signupToken } from "../../test/support/signup.ts";
import { scratchDatabase } from "../db/scratch-db.ts";

const EMPLOYEES = Number(process.env.BENCH_EMPLOYEES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const DEPTH = 9_000;
const LIMIT = 100;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

console.log(`bench-cursor: ${os.cpus().length} cores, load ${load()} (1/5/15 min)`);
const given = process.env.BENCH_DATABASE_URL;
const scratch = given ? { url: given, drop: async () => {} } : await scratchDatabase("bench_cursor");
await deployMigrations(scratch.url);
initDb(scratch.url, { max: 10 });
const server = createServer(createApp({ config: configWith({ logLevel: "silent", rateLimitPerCaller: 1e9 }), validateResponses: false }));
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const api = supertest.agent(server);
const db = new pg.Pool({ connectionString: scratch.url, max: 2 });
const query = async (sql: string, params?: unknown[]) => (await db.query(sql, params)).rows;

try {
  const email = `bench.cursor.${process.pid}@example.test`;
  await api.post("/api/auth/signup").send({ name: "Bench Owner", email, company_name: "Bench Co" }).expect(202);
  const token = await signupToken(query, email);
  const confirmed = await api.post("/api/auth/signup/confirm").send({ token, password: "correct-horse-battery-bench" }).expect(201);
  const tenantId = confirmed.body.data.active_tenant_id;
  // in batches of 1 000: each its own transaction, so the walk's order has many transactions in it
  for (let i = 0; i < EMPLOYEES; i += 1000)
    await query(
      `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, email, department, designation, joining_date)
       SELECT $1::uuid, 'B' || lpad(i::text, 7, '0'), 'First' || i, 'Last' || md5(i::text), 'b' || i || '@bench.test',
              'Dept' || (i % 9), 'Engineer', DATE '2024-01-01'
         FROM generate_series($2::int, $3::int) AS i`,
      [tenantId, i + 1, Math.min(i + 1000, EMPLOYEES)],
    );
  await query("ANALYZE employees");

  // a walk shows a row once every transaction older than it has ended - in the whole cluster (other
  // work on a shared server may hold it back a moment): wait for the rows to be walkable
  for (let waited = 0; ; waited += 100) {
    const res = await api.get(`/api/employees?sort=changed&limit=${LIMIT}`).expect(200);
    if (res.body.data.length === LIMIT) break;
    if (waited > 60_000) throw new Error("the rows did not become walkable within a minute: a transaction stays open");
    await new Promise((r) => setTimeout(r, 100));
  }
  // the cursor at depth 9 000: walk there
  let cursor: string | null = null;
  for (let n = 0; n < DEPTH; n += LIMIT) {
    const res: supertest.Response = await api
      .get(`/api/employees?sort=changed&limit=${LIMIT}${cursor ? `&cursor=${cursor}` : ""}`)
      .expect(200);
    cursor = res.body.next_cursor;
  }
  const cases: [string, string][] = [
    ["cursor, first page", `/api/employees?sort=changed&limit=${LIMIT}`],
    [`cursor, at ${DEPTH}`, `/api/employees?sort=changed&limit=${LIMIT}&cursor=${cursor}`],
    ["page=1 (by number)", `/api/employees?page=1&limit=${LIMIT}`],
    [`page=${DEPTH / LIMIT + 1} (by number)`, `/api/employees?page=${DEPTH / LIMIT + 1}&limit=${LIMIT}`],
  ];
  // the cases interleaved, request by request (a busy machine's drift falls on all of them alike);
  // a first pass warms up, the second is reported
  const times: number[][] = cases.map(() => []);
  for (const pass of [0, 1])
    for (let i = 0; i < ROUNDS; i++)
      for (const [k, [label, url]] of cases.entries()) {
        const t0 = process.hrtime.bigint();
        const res = await api.get(url).expect(200);
        if (pass) times[k].push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (res.body.data.length !== LIMIT) throw new Error(`${label}: ${res.body.data.length} rows`);
      }
  const results: Record<string, number> = {};
  for (const [k, [label]] of cases.entries()) {
    results[label] = median(times[k]);
    console.log(
      `  ${label.padEnd(22)} median ${median(times[k]).toFixed(2)} ms  mean ${mean(times[k]).toFixed(2)} ms  (${ROUNDS} GETs of ${LIMIT})`,
    );
  }
  const [c1, cDeep, p1, pDeep] = cases.map(([label]) => results[label]);
  console.log(
    `ratio at depth ${DEPTH} / first page (medians): by cursor ${(cDeep / c1).toFixed(2)}, by page number ${(pDeep / p1).toFixed(2)}`,
  );
  console.log(`load after: ${load()}`);
} finally {
  server.closeAllConnections();
  server.close();
  await db.end();
  await closeDb();
  await scratch.drop();
}
