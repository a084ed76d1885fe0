// The live servers the SDK journeys and Schemathesis run against: a throw-away embedded PostgreSQL
// (temporary folder, free port), migrated, the demo company seeded through the API
// (scripts/db/seed-demo.ts: a processed payroll run, exports, employees to walk), then the real
// server (the production build, a process of its own on a port it takes itself) over a copy of that database
// per purpose, so one cannot disturb the other:
//   - `qa`: the usual limits lifted (Schemathesis sends thousands of requests as one caller);
//   - `journeys`: a tight per-address limit in a short window (RATE_LIMIT_PER_IP requests without a
//     session or credential per RATE_LIMIT_WINDOW_SECONDS), so a journey can make a 429 happen on
//     purpose (a few public requests) and honour its Retry-After within seconds; signed-in and
//     credential requests count per caller, where the limits are lifted. The journeys run one after
//     another (they share the address 127.0.0.1 and so this budget).
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { ServerProcess } from "../../test/support/server-process.ts";

process.env.LOG_LEVEL ??= "warn";
process.env.DEV_MAIL ??= "false";
// the seeding and the servers wait for a connection or a slot as the suite does on a busy machine
const { busyMachine } = await import("../../test/support/test-env.ts");
for (const [name, value] of Object.entries(busyMachine)) process.env[name] ??= value;
const { buildServer, startServerProcess } = await import("../../test/support/server-process.ts");
const { createDatabaseIfMissing, removeStaleThrowawayFolders, startThrowawayServer, throwawayParent } = await import(
  "../../src/db/embedded.ts"
);
const { deployMigrations } = await import("../../src/db/migrations.ts");
const { closeDb, getPool, initDb } = await import("../../src/db/client.ts");
const { createApp } = await import("../../src/http/app.ts");
const { createServer } = await import("../../src/http/server.ts");
const { configWith, processConfig } = await import("../../src/config.ts");
const { seedDemo } = await import("../db/seed-demo.ts");

const root = path.resolve(import.meta.dirname, "../..");

/** Requests without a session or credential one address may make per window on the journeys' server. */
export const TIGHT_PER_IP = 4;
/** The window of the journeys' server's limits, in seconds (so a Retry-After is at most this). */
export const TIGHT_WINDOW_SECONDS = 2;

const LIFTED = { RATE_LIMIT_PER_IP: "999999999", RATE_LIMIT_PER_CALLER: "999999999", RATE_LIMIT_PER_TENANT: "999999999" };

export interface Person {
  email: string;
  password: string;
}

export interface LiveServers {
  /** the server for Schemathesis (limits lifted) */
  qa: () => Promise<string>;
  /** the server for the journeys (tight per-address limit) */
  journeys: () => Promise<string>;
  owner: Person;
  /** the demo's HR head (role hr) */
  hr: Person;
  stop: () => Promise<void>;
}

export async function startLiveServers(opts: { employees?: number; log?: (line: string) => void } = {}): Promise<LiveServers> {
  removeStaleThrowawayFolders("hrms-live-");
  const dir = mkdtempSync(path.join(throwawayParent(), "hrms-live-"));
  const built = buildServer("sdks-server-");
  built.catch(() => {}); // awaited where the servers start
  const db = await startThrowawayServer(dir);
  const procs: ServerProcess[] = [];
  const stop = async () => {
    for (const p of procs) {
      p.proc.kill("SIGTERM");
      await new Promise((r) => (p.proc.exitCode !== null ? r(null) : p.proc.once("exit", r)));
    }
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
    await built.then(
      (b) => b.remove(),
      () => {},
    );
  };
  try {
    const url = await createDatabaseIfMissing(db.url, "hrms");
    await deployMigrations(url);
    initDb(url);
    const app = createServer(createApp({ config: configWith({ rateLimitPerIp: 999_999_999, sessionPruneSeconds: 0 }, processConfig) }));
    await new Promise<void>((r) => app.listen(0, "127.0.0.1", r));
    const seeded = await seedDemo({
      baseUrl: `http://127.0.0.1:${(app.address() as import("node:net").AddressInfo).port}`,
      query: async (sql, params) => (await getPool().query(sql, params as unknown[])).rows,
      employees: opts.employees ?? 30,
      log: opts.log,
    }).finally(async () => {
      app.closeAllConnections();
      await new Promise<void>((r) => app.close(() => r()));
      await closeDb();
    });
    const journeysUrl = await createDatabaseIfMissing(db.url, "hrms_journeys", "hrms");
    // the seeding's requests were counted against 127.0.0.1 in a window of 60 s: not the journeys' business
    const c = new pg.Client({ connectionString: journeysUrl });
    await c.connect();
    await c.query("DELETE FROM usage_counters");
    await c.end();
    const start = async (databaseUrl: string, env: Record<string, string>) => {
      const p = await startServerProcess([(await built).entry], {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          PUBLIC_URL: "http://127.0.0.1",
          MIGRATE_ON_START: "false",
          LOG_LEVEL: "warn",
          ...env,
        },
      });
      procs.push(p);
      return p.base;
    };
    const once = (f: () => Promise<string>) => {
      let p: Promise<string> | undefined;
      return () => (p ??= f());
    };
    const person = (role: string): Person => {
      const s = seeded.signIns.find((x) => x.role === role)!;
      return { email: s.email, password: s.password };
    };
    return {
      // configured as production would be (a billing secret), so the billing webhook answers its 400s rather than 503
      qa: once(() => start(url, { ...LIFTED, BILLING_WEBHOOK_SECRET: "whsec_schemathesis", MODULES_FROM_BILLING: "false" })),
      journeys: once(() =>
        start(journeysUrl, {
          ...LIFTED,
          RATE_LIMIT_PER_IP: String(TIGHT_PER_IP),
          RATE_LIMIT_WINDOW_SECONDS: String(TIGHT_WINDOW_SECONDS),
        }),
      ),
      owner: person("owner"),
      hr: person("hr"),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
