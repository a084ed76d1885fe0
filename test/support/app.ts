// Per test file: a database of its own (cloned from the migrated template), the app with
// response validation on and the file's configuration (the process's, with the file's overrides:
// `useTestApp({ config: { ... } })`), and helpers to sign up tenants and act as their members.
import { randomBytes } from "node:crypto";
import type http from "node:http";
import pg from "pg";
import supertest from "supertest";
import { afterAll, beforeAll, inject } from "vitest";
import type { components } from "../../generated/api-types.ts";
import { type Config, configWith } from "../../src/config.ts";
import { closeDb, type DbOptions, initDb } from "../../src/db/client.ts";
import { createApp } from "../../src/http/app.ts";
import { createServer } from "../../src/http/server.ts";
import { MEMBER_PASSWORD, MEMBER_PASSWORD_HASH } from "./passwords.ts";
import { signupToken } from "./signup.ts";
import { api } from "./api.ts";

export interface TestContext {
  app: ReturnType<typeof createApp>;
  /** The configuration the file's app is created with (frozen). */
  config: Config;
  /** The file's configuration with `overrides` (e.g. for the job worker: `jobs.start(t.url, t.configWith({ smtpUrl }))`). */
  configWith: (overrides: Partial<Config>) => Config;
  url: string;
  dbName: string;
  request: () => supertest.Agent;
  /**
   * Rows of a statement on the file's database (`T`: the columns the test reads). Untyped by default:
   * the area folders read columns of their own tables without naming a row type (a typed default is
   * the next step there).
   */
  query: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;
}

export async function createTestDatabase(): Promise<{ url: string; dbName: string; drop: () => Promise<void> }> {
  const adminUrl = inject("adminUrl");
  const templateDb = inject("templateDb");
  const dbName = `${inject("runDbPrefix")}${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // FILE_COPY: the template's files copied as they are (about half the CPU of the default WAL_LOG,
  // which writes all of its 13 MB through the WAL; docs/measurements/2026-11-29-suite.md). PostgreSQL
  // 15 brought the choice (a TEST_DATABASE_URL may point at an older server).
  const { rows } = await admin.query<{ v: number }>("SELECT current_setting('server_version_num')::int AS v");
  const strategy = rows[0].v >= 150000 ? " STRATEGY FILE_COPY" : "";
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE "${dbName}" TEMPLATE "${templateDb}"${strategy}`);
      break;
    } catch (err) {
      // Two files cloning the template at the same instant: PostgreSQL refuses one; try again.
      if (attempt > 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  return {
    url: u.toString(),
    dbName,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      c.on("error", () => {}); // dropped in the background: a broken admin connection only leaves it to the run's end
      await c.connect();
      // The file's pools have been ended, but a connection may still be closing: wait for its
      // backend to go (a bounded wait) - FORCE would otherwise terminate it, and its client would
      // report "terminating connection due to administrator command" as an unhandled error.
      for (let i = 0; i < 200; i++) {
        const { rows } = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [dbName]);
        if (!rows[0].n) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;
const ahead = globalThis as { __nextTestDatabase?: Promise<TestDatabase | Error> };

/**
 * The file's database: the one prepared while the worker's previous file ran, or a new one; then
 * the next file's is prepared in the background (cloning the template takes 0.3-1 s, time the
 * previous file mostly spends waiting anyway). The files of a worker share the process (`isolate:
 * false`), hence the global. The last one prepared is dropped with the run's others
 * (test/support/global-setup.ts).
 */
async function takeTestDatabase(): Promise<TestDatabase> {
  const prepared = await ahead.__nextTestDatabase?.catch((err: Error) => err);
  const db = prepared && !(prepared instanceof Error) ? prepared : await createTestDatabase();
  ahead.__nextTestDatabase = createTestDatabase().catch((err: Error) => err);
  return db;
}

/**
 * Sets up the database and app for the calling test file (call at the top level of the file);
 * `config` overrides settings of the process's configuration for the file's app, `db` the file's
 * pool (e.g. a pool smaller than the requests a test sends at once).
 */
export function useTestApp(opts: { config?: Partial<Config>; db?: Pick<DbOptions, "max" | "connectionTimeoutMillis"> } = {}): TestContext {
  const ctx = {} as TestContext;
  ctx.config = configWith(opts.config ?? {});
  ctx.configWith = (overrides) => configWith(overrides, ctx.config);
  let drop: () => Promise<void>;
  let pool: pg.Pool;
  let server: http.Server | undefined;
  beforeAll(async () => {
    const d = await takeTestDatabase();
    drop = d.drop;
    ctx.url = d.url;
    ctx.dbName = d.dbName;
    initDb(d.url, { max: 10, ...opts.db });
    ctx.app = createApp({ config: ctx.config, validateResponses: true });
    server = await listen(ctx.app);
    const target = server;
    ctx.request = () => supertest.agent(target);
    pool = new pg.Pool({ connectionString: d.url, max: 3 });
    ctx.query = async <T>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as T[];
  });
  afterAll(async () => {
    await close(server);
    await pool?.end();
    await closeDb();
    // dropped in the background (the next file need not wait for it); what a worker leaves when it
    // exits is dropped at the end of the run
    void drop?.().catch(() => {});
  });
  return ctx;
}

/**
 * The file's app on a loopback port of its own for all of its requests: supertest given an app (not
 * a listening server) starts and stops a server for every request (about 0.6 ms of CPU each).
 */
async function listen(app: ReturnType<typeof createApp>): Promise<http.Server> {
  // as production serves it: requests and responses built with the app's prototypes (src/http/server.ts)
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return server;
}

async function close(server: http.Server | undefined): Promise<void> {
  if (!server?.listening) return;
  const done = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await done;
}

export interface OtherApp {
  app: ReturnType<typeof createApp>;
  config: Config;
  /** `agent`'s session (its cookie jar, shared) sending its requests to this app. */
  as: (agent: supertest.Agent) => supertest.Agent;
}

/**
 * A second app on the file's database, with `overrides` on top of the file's configuration (a
 * setting that differs between the requests of one file). Call it in a hook or test (the database
 * must be set up).
 */
export function appWith(ctx: TestContext, overrides: Partial<Config>): OtherApp {
  const config = ctx.configWith(overrides);
  const app = createApp({ config, validateResponses: true });
  return {
    app,
    config,
    as: (agent) => Object.assign(supertest.agent(app), { jar: (agent as unknown as { jar: unknown }).jar }),
  };
}

let counter = 0;
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}.${process.pid}.${Date.now()}.${counter++}@example.test`;
}

export interface TenantSession {
  agent: supertest.Agent;
  userId: string;
  tenantId: string;
  email: string;
  password: string;
}

/**
 * Signs up a new owner with a new company - signup, then the confirmation with a token the test
 * sets (signupToken) - and returns an agent carrying the session cookie.
 */
export async function signupTenant(
  ctx: TestContext,
  opts: { company?: string; name?: string; email?: string; password?: string } = {},
): Promise<TenantSession> {
  const agent = ctx.request();
  const email = opts.email ?? uniqueEmail("owner");
  const password = opts.password ?? "correct-horse-battery";
  const res = await api(agent).op("signup", {
    body: { name: opts.name ?? "Olivia Owner", email, password, company_name: opts.company ?? `Company ${counter++}` },
  });
  if (res.status !== 202) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  const token = await signupToken(ctx.query, email);
  const confirmed = await api(agent).op("confirmSignup", { body: { token, password } });
  if (confirmed.status !== 201) throw new Error(`signup confirmation failed: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  return { agent, userId: confirmed.body.data.user.id, tenantId: confirmed.body.data.active_tenant_id, email, password };
}

/**
 * Adds a member with `role` to the owner's tenant directly (invitation flow is tested on its own)
 * and returns a signed-in agent for them.
 */
export async function addMember(
  ctx: TestContext,
  owner: TenantSession,
  role: "admin" | "hr" | "manager" | "employee",
  opts: { employeeId?: string; name?: string } = {},
): Promise<TenantSession> {
  const email = uniqueEmail(role);
  const password = MEMBER_PASSWORD;
  const [user] = await ctx.query<{ id: string }>(`INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING id`, [
    email,
    opts.name ?? `${role} person`,
    MEMBER_PASSWORD_HASH,
  ]);
  await ctx.query(`INSERT INTO memberships (tenant_id, user_id, role, employee_id) VALUES ($1, $2, $3, $4)`, [
    owner.tenantId,
    user.id,
    role,
    opts.employeeId ?? null,
  ]);
  const agent = ctx.request();
  const res = await api(agent).op("signIn", { body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  if (res.body.data.active_tenant_id !== owner.tenantId)
    await api(agent)
      .op("switchTenant", { body: { tenantId: owner.tenantId } })
      .expect(200);
  return { agent, userId: user.id, tenantId: owner.tenantId, email, password };
}

/** The error envelope every 4xx/5xx answers with (components/schemas/Error). */
export type ErrorEnvelope = components["schemas"]["Error"];

/** The `changes` of an audit entry as stored: per field, the value before and after. */
export type AuditChanges = Record<string, { from: unknown; to: unknown }>;

/** One entry of an error envelope's `details`: the field (`body.email`, `query.limit`) and what it expects. */
export type ErrorDetail = NonNullable<ErrorEnvelope["details"]>[number];

/** Asserts the error envelope shape (with `status` and, when given, `code`) and returns the body. */
export function expectError(res: { status: number; body: unknown }, status: number, code?: ErrorEnvelope["code"]): ErrorEnvelope {
  const body = res.body as Partial<ErrorEnvelope> | undefined;
  if (res.status !== status || body?.status !== status || typeof body?.error !== "string" || (code && body?.code !== code))
    throw new Error(`expected ${status}${code ? ` ${code}` : ""} error envelope, got ${res.status} ${JSON.stringify(res.body)}`);
  return body as ErrorEnvelope;
}

/** expectError for an answer that names the fields at fault: the envelope with its `details` (a list, asserted). */
export function expectDetails(
  res: { status: number; body: unknown },
  status: number,
  code?: ErrorEnvelope["code"],
): ErrorEnvelope & { details: ErrorDetail[] } {
  const body = expectError(res, status, code);
  if (!Array.isArray(body.details)) throw new Error(`expected the error's details, got ${JSON.stringify(res.body)}`);
  return body as ErrorEnvelope & { details: ErrorDetail[] };
}
