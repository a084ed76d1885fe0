// Configuration from the environment (README "Configuration" lists every variable).
import path from "node:path";
import { projectRoot } from "./root.ts";

const root = projectRoot;
const env = process.env;

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === "") return dflt;
  return !["0", "false", "no", "off"].includes(v.toLowerCase());
}

function positiveInt(name: string, dflt: number): number {
  const v = env[name];
  if (v === undefined || v === "") return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(v)}`);
  return n;
}

export const nodeEnv = env.NODE_ENV ?? "development";
export const isProduction = nodeEnv === "production";
export const isTest = nodeEnv === "test" || env.VITEST === "true";

export const config = {
  root,
  port: Number(env.PORT ?? 3000),
  databaseUrl: env.DATABASE_URL || undefined,
  /** Connections the server's pool may open (`DATABASE_POOL_SIZE`). */
  databasePoolSize: positiveInt("DATABASE_POOL_SIZE", 20),
  /**
   * How long a query may wait for a connection (a free one of the pool, or a new one being opened)
   * before the request is answered 503 `unavailable` (`DATABASE_POOL_TIMEOUT_MS`).
   */
  databasePoolTimeoutMs: positiveInt("DATABASE_POOL_TIMEOUT_MS", 3000),
  sessionSecret: env.SESSION_SECRET ?? "dev-only-insecure-session-secret-change-me",
  publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/$/, ""),
  /** Extra origins allowed to make state-changing requests (comma separated). */
  allowedOrigins: (env.ALLOWED_ORIGINS ?? "").split(",").map((s) => s.trim()).filter(Boolean),
  smtpUrl: env.SMTP_URL || undefined,
  mailFrom: env.MAIL_FROM ?? "HRMS <no-reply@hrms.local>",
  uploadDir: path.resolve(root, env.UPLOAD_DIR ?? ".data/uploads"),
  embeddedDataDir: path.resolve(root, env.EMBEDDED_PG_DIR ?? ".data/postgres"),
  embeddedPort: Number(env.EMBEDDED_PG_PORT ?? 54329),
  billingWebhookSecret: env.BILLING_WEBHOOK_SECRET || undefined,
  aiBaseUrl: env.AI_BASE_URL || undefined,
  aiApiKey: env.AI_API_KEY || undefined,
  /** Model asked for by the OpenAI-compatible provider. */
  aiModel: env.AI_MODEL || "gpt-4o-mini",
  /** How long the AI provider may take to answer (ms). */
  aiTimeoutMs: Number(env.AI_TIMEOUT_MS ?? 20000),
  migrateOnStart: bool(env.MIGRATE_ON_START, true),
  validateResponses: bool(env.VALIDATE_RESPONSES, !isProduction),
  logLevel: env.LOG_LEVEL ?? (isTest ? "silent" : "info"),
  /** Run the background job worker (mail delivery, scheduled jobs) in this process. */
  runWorker: bool(env.RUN_WORKER, true),
  trustProxy: bool(env.TRUST_PROXY, false),
};

export function assertProductionConfig(): void {
  if (!isProduction) return;
  if (!env.SESSION_SECRET || env.SESSION_SECRET.length < 32 || env.SESSION_SECRET === config.sessionSecret && env.SESSION_SECRET.startsWith("dev-only"))
    throw new Error("SESSION_SECRET must be set to a random string of at least 32 characters in production");
  if (!env.PUBLIC_URL) throw new Error("PUBLIC_URL must be set in production (links in emails)");
}
