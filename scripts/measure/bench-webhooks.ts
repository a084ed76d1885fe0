// Webhooks bench (docs/integrations.md): what events cost the write path, and how fast a burst is delivered.
//   1. PUT /api/employees/{id} (one field) with and without a webhook endpoint subscribed to every
//      type, in interleaved rounds (A B B A ..., BENCH_ROUNDS of each; the endpoint disabled for "A"),
//      with the job worker running in the same process (the deliveries compete with the writes, as
//      in a server process): per round the mean latency of BENCH_UPDATES updates one after the other
//      and the throughput of BENCH_UPDATES updates by 8 clients at once (each its own employee).
//      Reports the median and the spread (min-max) over the rounds, and the cost of the endpoint.
//      The event row is written in the update's transaction either way.
//   2. A burst of BENCH_BURST events (employee.updated, written at once) delivered by the job
//      (`integrations.deliver-webhooks`: batches, WEBHOOK_CONCURRENCY at a time,
//      WEBHOOK_CONCURRENCY_PER_ENDPOINT to the one endpoint) to a receiver on loopback:
//      deliveries per second and the lag from each event's creation to its arrival (p50/p99/max).
// Runs in one process against a database of its own (scripts/db/scratch-db.ts: TEST_DATABASE_URL /
// DATABASE_URL's server, else an embedded one). Prints the load average before and after: on a
// shared machine the figures move with the neighbours' load.
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

const UPDATES = Number(process.env.BENCH_UPDATES ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CLIENTS = 8;
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
// the request rate limits (RATE_LIMIT_PER_CALLER 3 000 a minute) are not what this measures: a quiet
// machine runs the rounds faster than that
const cfg = configWith({ webhookAllowLoopback: true, logLevel: "silent", rateLimitPerCaller: 1_000_000, rateLimitPerTenant: 1_000_000 });
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
  const employee = async (i: number) =>
    (
      await api
        .post("/api/employees")
        .send({
          first_name: "Asha",
          last_name: `Rao ${i}`,
          email: `asha.${i}.${process.pid}@example.test`,
          department: "Engineering",
          designation: "Engineer",
          joining_date: "2024-04-01",
        })
        .expect(201)
    ).body.data as { id: string };
  const staff: { id: string }[] = [];
  for (let i = 0; i < CLIENTS; i++) staff.push(await employee(i));
  const emp = staff[0];
  const port = (receiver.address() as { port: number }).port;
  const ep = (
    await api
      .post("/api/integrations/webhooks")
      .send({ url: `http://127.0.0.1:${port}/hook` })
      .expect(201)
  ).body.data.endpoint as { id: string };
  // the job worker of this process delivers while the updates run (kicked after each)
  await jobs.start(scratch.url, cfg);

  let n = 0;
  const update = (id: string) =>
    api
      .put(`/api/employees/${id}`)
      .send({ designation: `Engineer ${n++}` })
      .expect(200);
  /** Until no delivery is pending (a round's deliveries do not spill into the next round). */
  const drained = async () => {
    for (;;) {
      const [{ n }] = await query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`);
      if (n === 0) return;
      await jobs.runNow(DELIVER_JOB, cfg);
    }
  };
  /**
   * One round: mean latency of UPDATES sequential updates, updates/s of UPDATES by CLIENTS at once,
   * and this process's CPU time per update (the server and the job worker: less moved by the
   * neighbours' load than the wall clock).
   */
  const round = async () => {
    const cpu0 = process.cpuUsage();
    const times: number[] = [];
    for (let i = 0; i < UPDATES; i++) {
      const t0 = process.hrtime.bigint();
      await update(emp.id);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const t0 = process.hrtime.bigint();
    await Promise.all(
      staff.map(async (e) => {
        for (let i = 0; i < UPDATES / CLIENTS; i++) await update(e.id);
      }),
    );
    const rate = UPDATES / (Number(process.hrtime.bigint() - t0) / 1e9);
    const used = process.cpuUsage(cpu0);
    const cpu = (used.user + used.system) / 1000 / (2 * UPDATES);
    await drained();
    return { mean: times.reduce((x, y) => x + y, 0) / times.length, p99: pct(times, 99), rate, cpu };
  };
  const setEndpoint = (enabled: boolean) => api.put(`/api/integrations/webhooks/${ep.id}`).send({ enabled }).expect(200);
  const median = (xs: number[]) => pct(xs, 50);
  const spread = (xs: number[], f: (x: number) => string) => `${f(Math.min(...xs))}-${f(Math.max(...xs))}`;

  const cost = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)} %`;
  console.log(`1. employee update (PUT /api/employees/{id}), ${ROUNDS} rounds each, interleaved, job worker running:`);
  await setEndpoint(false);
  await round(); // warm-up
  const rounds: Record<"without" | "with", { mean: number; p99: number; rate: number; cpu: number }[]> = { without: [], with: [] };
  for (let r = 0; r < ROUNDS; r++) {
    // A B B A: neither side always runs first
    for (const side of r % 2 ? (["with", "without"] as const) : (["without", "with"] as const)) {
      await setEndpoint(side === "with");
      rounds[side].push(await round());
    }
  }
  await setEndpoint(true);
  for (const side of ["without", "with"] as const) {
    const xs = rounds[side];
    const means = xs.map((x) => x.mean);
    const rates = xs.map((x) => x.rate);
    const cpus = xs.map((x) => x.cpu);
    const label = (side === "with" ? "with endpoint" : "no endpoint").padEnd(14);
    console.log(
      `  ${label} latency mean ${ms(median(means))} (rounds ${spread(means, (x) => x.toFixed(2))} ms)` +
        `  p99 ${ms(median(xs.map((x) => x.p99)))}`,
    );
    console.log(
      `  ${"".padEnd(14)} throughput ${median(rates).toFixed(0)} updates/s (rounds ${spread(rates, (x) => x.toFixed(0))})` +
        `  CPU ${ms(median(cpus))} per update (rounds ${spread(cpus, (x) => x.toFixed(2))} ms)`,
    );
  }
  const cpuCost = cost(median(rounds.with.map((x) => x.cpu)), median(rounds.without.map((x) => x.cpu)));
  const lat = [median(rounds.with.map((x) => x.mean)), median(rounds.without.map((x) => x.mean))];
  const thr = [median(rounds.with.map((x) => x.rate)), median(rounds.without.map((x) => x.rate))];
  console.log(
    `  cost of the endpoint (medians): latency ${cost(lat[0], lat[1])}, throughput ${cost(thr[0], thr[1])}, CPU per update ${cpuCost}` +
      " (CPU includes sending the deliveries)",
  );
  const paired = rounds.with.map((w, i) => ((w.mean - rounds.without[i].mean) / rounds.without[i].mean) * 100);
  console.log(`  latency cost per pair of rounds: ${paired.map((p) => `${p.toFixed(1)} %`).join(", ")}`);
  console.log(`  load: ${load()}`);
  await jobs.stop();

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
  console.log(
    `2. burst of ${BURST} events to one endpoint (WEBHOOK_CONCURRENCY ${cfg.webhookConcurrency}, ` +
      `WEBHOOK_CONCURRENCY_PER_ENDPOINT ${cfg.webhookConcurrencyPerEndpoint}):`,
  );
  console.log(`  delivered in ${seconds.toFixed(1)} s: ${(BURST / seconds).toFixed(0)} deliveries/s`);
  console.log(`  lag p50 ${ms(pct(lags, 50))}  p99 ${ms(pct(lags, 99))}  max ${ms(Math.max(...lags))}`);
  console.log(`load after: ${load()}`);
} finally {
  server.closeAllConnections();
  server.close();
  receiver.close();
  // the worker first: dropping the database under it would end the process with its error, not the bench's
  await jobs.stop();
  await db.end();
  await closeDb();
  await scratch.drop();
}
