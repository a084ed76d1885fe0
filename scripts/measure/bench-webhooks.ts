// Webhooks bench (issue 31): what events cost the write path, and how fast a burst is delivered.
//   1. PUT /api/employees/{id} (one field), BENCH_UPDATES times one after the other, without a
//      webhook endpoint and then with one subscribed to every type (the event row is written in the
//      update's transaction either way; the endpoint only adds deliveries after commit): p50/p99/mean.
//   2. A burst of BENCH_BURST events (employee.updated, written at once) delivered by the job
//      (`integrations.deliver-webhooks`, WEBHOOK_CONCURRENCY at a time) to a receiver on loopback:
//      deliveries per second and the lag from each event's creation to its arrival (p50/p99/max).
// Runs in one process against a database of its own (scripts/db/scratch-db.ts: TEST_DATABASE_URL /
// DATABASE_URL's server, else an embedded one). Prints the load average before and after.
//   npx tsx scripts/measure/bench-webhooks.ts
import http from "node:http";
import os from "node:os";
import pg from "pg";
import supertest from "supertest";
import { configWith } from "../../src/config.ts";
import { closeDb, initDb } from "../../src/db/client.ts";
import { deployMigrations } from "../../src/db/migrations.ts";
import { createApp } from "../../src/http/app.ts";
import { createServer } from "../../src/http/server.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { DELIVER_JOB } from "../../src/platform/events/events.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { signupToken } from "../../test/support/signup.ts";
import { scratchDatabase } from "../db/scratch-db.ts";

const UPDATES = Number(process.env.BENCH_UPDATES ?? 500);
const BURST = Number(process.env.BENCH_BURST ?? 10_000);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const ms = (x: number) => `${x.toFixed(2)} ms`;

console.log(`bench-webhooks: ${os.cpus().length} cores, load ${load()} (1/5/15 min)`);
const scratch = await scratchDatabase("bench_webhooks");
await deployMigrations(scratch.url);
initDb(scratch.url, { max: 20 });
const cfg = configWith({ webhookAllowLoopback: true, logLevel: "silent" });
registerAllJobs();
const server = createServer(createApp({ config: cfg, validateResponses: false }));
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const api = supertest.agent(server);
const db = new pg.Pool({ connectionString: scratch.url, max: 2 });
const query = async (sql: string, params?: unknown[]) => (await db.query(sql, params)).rows;

let received = 0;
const lags: number[] = [];
let allIn: () => void = () => {};
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    // machine time: arrival of the delivery
    const lag = Date.now() - Date.parse(JSON.parse(Buffer.concat(chunks).toString()).timestamp);
    lags.push(lag);
    if (++received === BURST) allIn();
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));

try {
  const email = `bench.${process.pid}@example.test`;
  await api.post("/api/auth/signup").send({ name: "Bench Owner", email, company_name: "Bench Co" }).expect(202);
  const token = await signupToken(query, email);
  await api.post("/api/auth/signup/confirm").send({ token, password: "correct-horse-battery-bench" }).expect(201);
  const emp = (
    await api
      .post("/api/employees")
      .send({
        first_name: "Asha",
        last_name: "Rao",
        email: `asha.${process.pid}@example.test`,
        department: "Engineering",
        designation: "Engineer",
        joining_date: "2024-04-01",
      })
      .expect(201)
  ).body.data;

  const measure = async (label: string) => {
    const times: number[] = [];
    for (let i = 0; i < UPDATES; i++) {
      const t0 = process.hrtime.bigint();
      await api
        .put(`/api/employees/${emp.id}`)
        .send({ designation: `Engineer ${label} ${i}` })
        .expect(200);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    console.log(`  ${label.padEnd(14)} p50 ${ms(pct(times, 50))}  p99 ${ms(pct(times, 99))}  mean ${ms(mean)}  (${UPDATES} updates)`);
    return mean;
  };
  console.log(`1. employee update (PUT /api/employees/{id}), sequential:`);
  await measure("warm-up");
  const without = await measure("no endpoint");
  const port = (receiver.address() as { port: number }).port;
  await api
    .post("/api/integrations/webhooks")
    .send({ url: `http://127.0.0.1:${port}/hook` })
    .expect(201);
  const withEndpoint = await measure("with endpoint");
  console.log(`  cost of the endpoint: ${(((withEndpoint - without) / without) * 100).toFixed(1)} % of the mean`);

  // the updates' own deliveries first, then the burst alone
  await jobs.runNow(DELIVER_JOB, cfg);
  received = 0;
  lags.length = 0;
  const [{ tenant_id }] = await query(`SELECT tenant_id FROM employees WHERE id = $1`, [emp.id]);
  const done = new Promise<void>((r) => (allIn = r));
  // machine time: the burst's start
  const t0 = Date.now();
  await query(
    `INSERT INTO events (tenant_id, type, data, created_at)
     SELECT $1, 'employee.updated',
            jsonb_build_object('id', $2::text, 'entity_type', 'employee', 'changes', jsonb_build_object('n', g)), now()
       FROM generate_series(1, $3) g`,
    [tenant_id, emp.id, BURST],
  );
  while (received < BURST) await jobs.runNow(DELIVER_JOB, cfg);
  await done;
  // machine time: the burst's end
  const seconds = (Date.now() - t0) / 1000;
  console.log(`2. burst of ${BURST} events (WEBHOOK_CONCURRENCY ${cfg.webhookConcurrency}):`);
  console.log(`  delivered in ${seconds.toFixed(1)} s: ${(BURST / seconds).toFixed(0)} deliveries/s`);
  console.log(`  lag p50 ${ms(pct(lags, 50))}  p99 ${ms(pct(lags, 99))}  max ${ms(Math.max(...lags))}`);
  console.log(`load after: ${load()}`);
} finally {
  server.closeAllConnections();
  server.close();
  receiver.close();
  await db.end();
  await closeDb();
  await scratch.drop();
}
