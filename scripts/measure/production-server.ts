// How the measuring scripts (bench, load, overload, event loop) start the server: exactly as
// production runs it - the compiled build under plain node with the production flags of
// `npm start` - so that their figures (req/s, latency, RSS, event-loop delay) are production's.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** The V8 old-space limit of `npm start` (NODE_HEAP_MB, default 512; see docs/configuration.md). */
export const heapMb = (): number => Number(process.env.NODE_HEAP_MB || 512);
/** The V8 semi-space of `npm start` (NODE_SEMI_SPACE_MB, default 8; see docs/configuration.md). */
export const semiSpaceMb = (): number => Number(process.env.NODE_SEMI_SPACE_MB || 8);

/**
 * node's flags in production (source maps, for the bundle alone, are turned on by dist/main.js): a bounded old space, and no
 * allocation-site pretenuring. Without the bound, V8 sizes the heap for the machine's memory (a
 * 24 GiB machine: a limit of ~4 GB) and lets garbage pile up to hundreds of MB under load before a
 * full collection; with 512 MB the server stays near 200-230 MB RSS under the same load at the same
 * throughput (docs/operations.md, "Memory"). Pretenuring: once a large piece of work (a bulk allocation, a
 * payroll run) has kept many objects of one allocation site alive, V8 allocates that site's objects
 * straight into the old space for the rest of the process's life; when the site is shared with the
 * request path (row parsing, JSON), every request's garbage then fills the old space, and full
 * collections ran every ~0.4 s under the leave-balances page's load (docs/operations.md, "Memory").
 * A semi-space of 8 MB: Node 24's V8 sizes it larger by default, which left the server ~130 MB larger
 * at idle for no throughput; 8 against 16 cost no throughput on a quiet machine (docs/operations.md, "Memory").
 */
export function productionNodeFlags(): string[] {
  return [`--max-old-space-size=${heapMb()}`, `--max-semi-space-size=${semiSpaceMb()}`, "--no-allocation-site-pretenuring"];
}

/**
 * The environment `npm start` adds: glibc's malloc keeps at most two arenas. With its default (eight
 * per core), each libuv thread that ran a sign-in's scrypt (16 MB of working memory) keeps that
 * memory in an arena of its own: 80 sign-ins left the server at 279 MB RSS, against 181 MB with two.
 * And a fixed mmap threshold (128 KiB, glibc's default before it adapts): freeing a large block
 * (scrypt's 16 MB) otherwise raises the threshold, and every later block of that size is carved from
 * an arena that keeps it - five sign-ins left ~25-30 MB more RSS
 * (docs/measurements/2026-11-29-read-path.md).
 */
export const PRODUCTION_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" } as const;

/**
 * Not production's: the measuring scripts drive a few users' traffic far past the request rate
 * limits (RATE_LIMIT_PER_CALLER, 3 000 a minute by default; src/http/rate-limit.ts), so they lift
 * them (where not set) to measure the server's work rather than its 429s. The limits are still
 * counted and stated on every answer.
 */
export const MEASURING_ENV = {
  RATE_LIMIT_PER_TENANT: "999999999",
  RATE_LIMIT_PER_CALLER: "999999999",
  RATE_LIMIT_PER_IP: "999999999",
} as const;

let built = false;
/**
 * Builds dist/ (once per script run) and returns node's arguments that start the compiled server.
 * Also puts PRODUCTION_ENV into this process's environment (where not set), which the server
 * processes these scripts spawn inherit.
 */
export function productionServerArgs(): string[] {
  for (const [k, v] of Object.entries({ ...PRODUCTION_ENV, ...MEASURING_ENV })) process.env[k] ??= v;
  if (!built) {
    execFileSync(process.execPath, [path.join(root, "scripts", "build", "build.mjs")], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
    });
    built = true;
  }
  return [...productionNodeFlags(), path.join(root, "dist", "main.js")];
}

/** The environment of a measured server with its job worker on `databaseUrl` (the payroll, bulk and scale benches). */
export function workerServerEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: "http://127.0.0.1",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    RUN_WORKER: "true",
    LOG_LEVEL: "warn",
    TRUST_PROXY: "true",
  };
}
