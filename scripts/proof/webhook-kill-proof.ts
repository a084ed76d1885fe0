// The killed-process proof of webhook deliveries (docs/integrations.md; `make verify` step "webhooks (a process
// killed)", alone: `npx tsx scripts/proof/webhook-kill-proof.ts`). Lighter than the cluster proof: two
// server processes as production runs them (the compiled build, their job workers) on one
// database of its own (scripts/db/scratch-db.ts), a receiver on loopback that records every
// `webhook-id` it gets (answering after RECEIVER_DELAY_MS, so that deliveries are in flight), and
// a burst of employee updates through both processes by an API credential while process 1 is
// SIGKILLed in the middle of it (with deliveries claimed, in flight and waiting in its batch).
// Then, once nothing is pending:
//   - no event lost: every event the database committed for the company reached the receiver;
//   - every delivery succeeded (none left pending or failed);
//   - duplicates are counted and reported, not failed: delivery is at least once. A process killed
//     after the receiver got a delivery and before the process recorded it leaves the delivery's
//     lease to expire, and the other process sends it again with the same `webhook-id` - the
//     receiver deduplicates by it (docs/integrations.md). At most the deliveries the killed process
//     had in flight can come twice (WEBHOOK_CONCURRENCY, 8): more fails the check.
// Environment: KILL_PROOF_UPDATES (1000), KILL_PROOF_CLIENTS (4), RECEIVER_DELAY_MS (100),
// KILL_PROOF_WAIT_S (240: the longest to wait for every delivery after the burst).
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import supertest from "supertest";
import { configWith } from "../../src/config.ts";
import { closeDb, initDb } from "../../src/db/client.ts";
import { deployMigrations } from "../../src/db/migrations.ts";
import { createApp } from "../../src/http/app.ts";
import { createServer } from "../../src/http/server.ts";
import { signupToken } from "../../test/support/signup.ts";
import { type ClusterState, startServer, stopServer } from "../measure/cluster.ts";
import { scratchDatabase } from "../db/scratch-db.ts";
import { trackOwnedProcesses } from "../support/owned-processes.ts";

const root = path.resolve(import.meta.dirname, "../..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

async function waitReady(base: string, timeoutMs = 120_000): Promise<void> {
  // machine time: the wait's deadline
  const until = Date.now() + timeoutMs;
  while (
    (await fetch(`${base}/api/health/ready`).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    // machine time: the wait's deadline
    if (Date.now() > until) throw new Error(`${base} not ready after ${timeoutMs} ms`);
    await sleep(200);
  }
}

export interface KillProofReport {
  events: number;
  received: number;
  distinct: number;
  lost: number;
  duplicates: number;
  /** deliveries the killed process had claimed and not recorded: taken over by the other after their lease */
  orphaned: number;
  inFlightAtKill: number;
  killedAt: string;
  deliveredAfterS: number;
  updates: { ok: number; failed: number };
  checks: { check: string; result: "pass" | "FAIL"; details: string }[];
  problems: string[];
  load: string;
}

export async function runWebhookKillProof(opts: { log?: (s: string) => void } = {}): Promise<KillProofReport> {
  const log = opts.log ?? ((s: string) => console.log(s));
  const updates = Number(process.env.KILL_PROOF_UPDATES ?? 1000);
  const clients = Number(process.env.KILL_PROOF_CLIENTS ?? 4);
  const delayMs = Number(process.env.RECEIVER_DELAY_MS ?? 100);
  const waitS = Number(process.env.KILL_PROOF_WAIT_S ?? 240);
  const problems: string[] = [];
  const checks: KillProofReport["checks"] = [];
  const check = (name: string, ok: boolean, details: string) => {
    checks.push({ check: name, result: ok ? "pass" : "FAIL", details });
    if (!ok) problems.push(`${name}: ${details}`);
  };

  // the receiver: every webhook-id, how often; how many requests are open right now
  const seen = new Map<string, number>();
  let open = 0;
  const receiver = http.createServer((req, res) => {
    open++;
    req.resume();
    req.on("end", () =>
      setTimeout(() => {
        const id = String(req.headers["webhook-id"]);
        seen.set(id, (seen.get(id) ?? 0) + 1);
        open--;
        res.writeHead(204).end();
      }, delayMs),
    );
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

  const scratch = await scratchDatabase("webhook_kill");
  const dir = path.join(root, ".data", "webhook-kill-proof");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const state = {
    dir,
    servers: [],
    serverEnv: {
      NODE_ENV: "production",
      DATABASE_URL: scratch.url,
      SESSION_SECRET: randomBytes(24).toString("hex"),
      PUBLIC_URL: "http://127.0.0.1",
      MIGRATE_ON_START: "false",
      LOG_LEVEL: "warn",
      WEBHOOK_ALLOW_LOOPBACK: "true",
      // a short exchange bound, so the killed process's leases expire within a minute (deliver.ts leaseSeconds)
      WEBHOOK_TIMEOUT_MS: "1000",
      // the survivor takes both processes' clients and every delivery: room beyond 2 × cores
      DATABASE_POOL_SIZE: "10",
    },
  } as unknown as ClusterState;
  // the server processes are detached: an interrupted proof stops them too
  const stopAll = () => {
    for (const s of state.servers as { pid: number }[])
      try {
        if (s.pid) process.kill(s.pid, "SIGKILL");
      } catch {
        /* gone already */
      }
    process.exit(130);
  };
  process.once("SIGINT", stopAll);
  process.once("SIGTERM", stopAll);
  const db = new pg.Pool({ connectionString: scratch.url, max: 2 });
  db.on("error", () => {}); // the scratch database is dropped at the end
  const query = async (sql: string, params?: unknown[]) => (await db.query(sql, params)).rows;
  let app: http.Server | undefined;
  try {
    await deployMigrations(scratch.url);
    // the company, its employees, the endpoint and a credential, through the app in this process
    initDb(scratch.url, { max: 4 });
    app = createServer(createApp({ config: configWith({ logLevel: "silent", webhookAllowLoopback: true }), validateResponses: false }));
    await new Promise<void>((r) => app?.listen(0, "127.0.0.1", r));
    const api = supertest.agent(app);
    const email = `kill.${process.pid}@example.test`;
    await api.post("/api/auth/signup").send({ name: "Kill Proof", email, company_name: "Kill Proof Co" }).expect(202);
    await api
      .post("/api/auth/signup/confirm")
      .send({ token: await signupToken(query, email), password: "correct-horse-battery-kill" })
      .expect(201);
    await api.post("/api/integrations/webhooks").send({ url: hook }).expect(201);
    const secret = (
      await api
        .post("/api/integrations/credentials")
        .send({ name: "Kill proof", scopes: ["employees:read", "employees:write"] })
        .expect(201)
    ).body.data.secret as string;
    const employees: string[] = [];
    for (let i = 0; i < clients; i++) {
      const e = await api
        .post("/api/employees")
        .send({
          first_name: "Kill",
          last_name: `Proof ${i}`,
          email: `kp.${i}.${process.pid}@example.test`,
          department: "Engineering",
          designation: "Engineer",
          joining_date: "2024-04-01",
        })
        .expect(201);
      employees.push(e.body.data.id);
    }
    app.close();
    await closeDb();

    log(`webhook-kill-proof: 2 server processes, ${updates} updates by ${clients} clients, receiver answering after ${delayMs} ms`);
    // one after the other: two job workers creating pg-boss's queues at once can leave one without its queues
    await startServer(state, 0);
    await startServer(state, 1);
    const bases = state.servers.map((s) => `http://127.0.0.1:${s.port}`);
    for (const b of bases) await waitReady(b);
    const alive = [true, true];
    let done = 0;
    let failed = 0;
    let inFlightAtKill = 0;
    let killedAt = "";
    let firstFailure = "";
    // machine time: the burst's start
    const started = Date.now();
    const worker = async (c: number) => {
      for (let i = c; i < updates; i += clients) {
        // alternate between the processes; only the live one once process 1 is killed
        let target = alive[i % 2] ? i % 2 : 1;
        for (let attempt = 0; attempt < 3; attempt++) {
          const ok = await fetch(`${bases[target]}/api/employees/${employees[c]}`, {
            method: "PUT",
            // a credential's write of an employee takes If-Match (`*`: whatever its version)
            headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json", "If-Match": "*" },
            body: JSON.stringify({ designation: `Engineer ${i}` }),
            signal: AbortSignal.timeout(20_000),
          }).then(
            async (r) => {
              if (!r.ok) firstFailure ||= `${r.status} ${(await r.text()).slice(0, 200)}`;
              return r.ok;
            },
            (err: Error) => {
              firstFailure ||= err.message;
              return false;
            },
          );
          if (ok) break;
          if (attempt === 2) failed++;
          target = 1;
        }
        // the kill: past 40 % of the burst, at a moment deliveries are open at the receiver
        if (++done >= Math.floor(updates * 0.4) && alive[0] && (open >= 2 || done >= updates * 0.8)) {
          // the kill, in the middle of the burst and of its deliveries
          inFlightAtKill = open;
          process.kill(state.servers[0].pid, "SIGKILL");
          alive[0] = false;
          // machine time: when the kill happened in the burst
          killedAt = `${((Date.now() - started) / 1000).toFixed(1)} s into the burst, after ${done} updates`;
          log(
            `webhook-kill-proof: SIGKILL to process 1 (pid ${state.servers[0].pid}) ${killedAt}; ${open} deliveries open at the receiver`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: clients }, (_, c) => worker(c)));
    // machine time: the burst's end
    log(
      `webhook-kill-proof: burst done in ${((Date.now() - started) / 1000).toFixed(1)} s (${failed} updates failed` +
        `${firstFailure ? `; a failure: ${firstFailure}` : ""})`,
    );

    // wait until every committed event of the company has a finished delivery (process 2 takes over
    // the killed one's leases once they expire; its sweep runs every minute)
    const expectedOf = async () =>
      (await query(`SELECT id FROM events WHERE endpoint_id IS NULL`)).map((r: { id: string }) => r.id) as string[];
    // machine time: the wait's deadline
    const until = Date.now() + waitS * 1000;
    let expected: string[] = [];
    let pending = -1;
    for (;;) {
      expected = await expectedOf();
      [{ pending }] = await query(`SELECT count(*)::int AS pending FROM webhook_deliveries WHERE status = 'pending'`);
      const missing = expected.filter((id) => !seen.has(id)).length;
      // machine time: the wait's deadline
      if ((pending === 0 && missing === 0) || Date.now() > until) break;
      await sleep(1000);
    }
    // machine time: the time until the last delivery
    const deliveredAfterS = Math.round((Date.now() - started) / 1000);
    const lost = expected.filter((id) => !seen.has(id));
    const received = [...seen.values()].reduce((a, b) => a + b, 0);
    const duplicates = [...seen.values()].filter((n) => n > 1).length;
    const [{ failedDeliveries }] = await query(
      `SELECT count(*) FILTER (WHERE status <> 'succeeded')::int AS "failedDeliveries" FROM webhook_deliveries`,
    );
    // claims that died with the killed process: counted attempts never recorded (sent again after the lease)
    const [{ orphaned }] = await query(
      `SELECT count(*)::int AS orphaned FROM webhook_deliveries d
        WHERE d.attempts > (SELECT count(*) FROM webhook_attempts a WHERE a.tenant_id = d.tenant_id AND a.delivery_id = d.id)`,
    );
    check(
      "no event lost",
      lost.length === 0 && expected.length > 0,
      `${expected.length} events committed, ${seen.size} distinct webhook-ids received${lost.length ? `, ${lost.length} missing` : ""}`,
    );
    check("every delivery succeeded", failedDeliveries === 0 && pending === 0, `${failedDeliveries} not succeeded, ${pending} pending`);
    check(
      "duplicates only by the kill",
      duplicates <= Number(process.env.WEBHOOK_CONCURRENCY ?? 8),
      `${duplicates} webhook-ids received twice or more (at least once; receivers deduplicate by webhook-id)`,
    );
    return {
      events: expected.length,
      received,
      distinct: seen.size,
      lost: lost.length,
      duplicates,
      orphaned,
      inFlightAtKill,
      killedAt,
      deliveredAfterS,
      updates: { ok: updates - failed, failed },
      checks,
      problems,
      load: load(),
    };
  } finally {
    process.off("SIGINT", stopAll);
    process.off("SIGTERM", stopAll);
    await Promise.all(state.servers.filter((s) => s.pid).map((s) => stopServer(s).catch(() => {})));
    app?.close();
    receiver.closeAllConnections();
    receiver.close();
    await db.end();
    await scratch.drop();
  }
}

export function formatKillProof(r: KillProofReport): string {
  return [
    `events committed ${r.events}; webhook-ids received ${r.distinct} distinct, ${r.received} requests; lost ${r.lost}; ` +
      `received twice ${r.duplicates}; claims of the killed process taken over after their lease ${r.orphaned}`,
    `kill: ${r.killedAt}, ${r.inFlightAtKill} deliveries open at the receiver; all delivered ${r.deliveredAfterS} s after the burst began`,
    `updates ${r.updates.ok} answered 2xx, ${r.updates.failed} failed; load ${r.load}`,
    ...r.checks.map((c) => `  ${c.result.padEnd(4)} ${c.check}: ${c.details}`),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  trackOwnedProcesses();
  const r = await runWebhookKillProof();
  console.log(formatKillProof(r));
  process.exit(r.problems.length ? 1 : 0);
}
