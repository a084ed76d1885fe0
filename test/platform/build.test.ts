// The production build: `npm run build` (scripts/build/build.mjs, an esbuild bundle with a source map)
// into a temporary folder of the project, started the way `npm start` starts dist/main.js - plain
// node, no TypeScript loader - as a process of its own against this file's database, in
// production mode. It serves the API (health, the document, signup and its session), its
// command line and environment carry no tsx, and stack traces name the TypeScript sources.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCTION_ENV, productionNodeFlags } from "../../scripts/measure/production-server.ts";
import { uniqueEmail, useTestApp } from "../support/app.ts";
import type { ResponseBody } from "../support/api.ts";
import { signupToken } from "../support/signup.ts";

const t = useTestApp();
const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
let outDir = "";
let server: { proc: ChildProcess; base: string; output: () => string } | undefined;

/**
 * `npm start`'s command line as sh expands it (`${VAR:-default}` with VAR unset): its leading
 * `NAME=value` assignments, and node's arguments with the build's folder in place of dist/.
 */
function startCommand(): { env: Record<string, string>; args: string[] } {
  const words = pkg.scripts.start.replace(/\$\{\w+:-([^}]*)\}/g, "$1").split(/\s+/);
  const env: Record<string, string> = {};
  while (/^\w+=/.test(words[0])) {
    const [name, value] = words.shift()!.split("=");
    env[name] = value;
  }
  const [command, ...args] = words;
  expect(command).toBe("node");
  return { env, args: args.map((a) => (a === "dist/main.js" ? path.join(outDir, "main.js") : a)) };
}

/** Only what the server needs: nothing of this test process (NODE_OPTIONS, VITEST...) leaks in. */
function serverEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    SESSION_SECRET: "build-test-session-secret-0123456789abcdef",
    PUBLIC_URL: "http://127.0.0.1",
    DATABASE_URL: t.url,
    // a free port the server takes itself and reports (one chosen here could be taken meanwhile)
    PORT: "0",
    MIGRATE_ON_START: "false",
    RUN_WORKER: "false",
    VALIDATE_RESPONSES: "true",
    // behind a TLS proxy, as production is: the Secure session cookie is sent for X-Forwarded-Proto https
    TRUST_PROXY: "true",
    LOG_LEVEL: "info",
    ...extra,
  };
}

async function startServer(): Promise<{ proc: ChildProcess; base: string; output: () => string }> {
  const { env, args } = startCommand();
  const proc = spawn(process.execPath, args, { cwd: root, env: { ...serverEnv(), ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  proc.stdout!.on("data", (d) => (output += d));
  proc.stderr!.on("data", (d) => (output += d));
  const until = Date.now() + 180_000; // a hang guard: start-up takes well under a second when idle
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the compiled server exited with ${proc.exitCode}: ${output}`);
    // the port it took, from its own "listening" line
    const port = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output)?.[1];
    const base = port ? `http://127.0.0.1:${port}` : "";
    const ok =
      port &&
      (await fetch(`${base}/api/health`).then(
        (r) => r.status === 200,
        () => false,
      ));
    if (ok) return { proc, base, output: () => output };
    if (Date.now() > until) throw new Error(`the compiled server did not become healthy: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  mkdirSync(path.join(root, ".data"), { recursive: true });
  // inside the project (git-ignored .data/), as dist/ is: packages resolve from its node_modules
  // and the project folder is found above it
  outDir = mkdtempSync(path.join(root, ".data", "build-test-"));
  const build = spawnSync(process.execPath, ["scripts/build/build.mjs", "--outdir", outDir], { cwd: root, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`npm run build failed (${build.status}): ${build.stderr}${build.stdout}`);
  server = await startServer();
});

afterAll(async () => {
  const proc = server?.proc;
  if (proc && proc.exitCode === null && !proc.signalCode)
    await new Promise<void>((resolve) => {
      proc.once("exit", () => resolve());
      proc.kill("SIGKILL");
    });
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe("the compiled build (npm run build, npm start)", () => {
  it("is one JavaScript module with a source map, importing packages only", () => {
    // the entry turns source maps on for the bundle alone, then loads it
    expect(readFileSync(path.join(outDir, "main.js"), "utf8")).toContain('await import("./server.js")');
    const main = readFileSync(path.join(outDir, "server.js"), "utf8");
    expect(main.trimEnd().endsWith("//# sourceMappingURL=server.js.map")).toBe(true);
    // no TypeScript file or relative module left to load at run time: src/ and generated/ are inside
    expect(main).not.toMatch(/(?:from\s*|import\s*\(\s*)["'][^"']*\.ts["']/);
    expect(main).not.toMatch(/(?:from\s*|import\s*\(\s*)["']\.\.?\//);
    const map = JSON.parse(readFileSync(path.join(outDir, "server.js.map"), "utf8")) as { sources: string[] };
    const sources = map.sources.map((s) => path.relative(root, path.resolve(outDir, s)).split(path.sep).join("/"));
    expect(sources).toContain("src/main.ts");
    expect(sources).toContain("src/config.ts");
    expect(sources.some((s) => s.startsWith("generated/prisma/"))).toBe(true);
  });

  it("runs on plain node: no tsx or other TypeScript loader in its arguments or environment", () => {
    expect(pkg.scripts.start).not.toMatch(/tsx|ts-node|--import|--loader|--require/);
    const pid = server!.proc.pid!;
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    // the old-space bound that keeps RSS near 200 MB under load, a small young generation
    // (Node 24's default is larger), and no pretenuring decisions carried from one kind of
    // work to the request path (docs/operations.md, "Memory")
    expect(argv).toEqual([
      process.execPath,
      "--max-old-space-size=512",
      "--max-semi-space-size=8",
      "--no-allocation-site-pretenuring",
      path.join(outDir, "main.js"),
    ]);
    // the measuring scripts (bench, load, overload, event loop) start the server with the same flags
    expect(productionNodeFlags()).toEqual(argv.slice(1, -1));
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    expect(environ.filter((v) => /tsx|NODE_OPTIONS/.test(v))).toEqual([]);
    // glibc's malloc with two arenas (sign-in's scrypt memory is not kept per thread); the scripts too
    expect(environ).toContain("MALLOC_ARENA_MAX=2");
    // and a fixed mmap threshold: scrypt's freed 16 MB blocks go back to the system
    expect(environ).toContain("MALLOC_MMAP_THRESHOLD_=131072");
    expect(startCommand().env).toEqual(PRODUCTION_ENV);
  });

  it("opens its database connections before it says it is listening", () => {
    const out = server!.output();
    const ready = out.indexOf('"msg":"database connections ready"');
    expect(ready).toBeGreaterThan(-1);
    expect(ready).toBeLessThan(out.indexOf('"msg":"listening"'));
  });

  it("answers health and serves the OpenAPI document from the project folder", async () => {
    const health = await fetch(`${server!.base}/api/health`);
    expect(health.status).toBe(200);
    const doc = await fetch(`${server!.base}/openapi.json`);
    expect(doc.status).toBe(200);
    const served = (await doc.json()) as { openapi: string; paths: Record<string, unknown> };
    const committed = JSON.parse(readFileSync(path.join(root, "generated", "openapi.json"), "utf8"));
    expect(served.openapi).toBe(committed.openapi);
    expect(Object.keys(served.paths)).toEqual(Object.keys(committed.paths));
  });

  it("signs up a company, confirms it and its session works", async () => {
    const email = uniqueEmail("build.owner");
    const post = (url: string, body: object) =>
      fetch(`${server!.base}${url}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-proto": "https" },
        body: JSON.stringify(body),
      });
    const signup = await post("/api/auth/signup", {
      name: "Build Owner",
      email,
      password: "build-password-2026",
      company_name: "Compiled Co",
    });
    expect(signup.status).toBe(202);
    const confirmed = await post("/api/auth/signup/confirm", { token: await signupToken(t.query, email), password: "build-password-2026" });
    expect(confirmed.status).toBe(201);
    const [setCookie] = confirmed.headers.getSetCookie();
    expect(setCookie).toMatch(/; Secure/i);
    const cookie = setCookie.split(";")[0];
    const session = await fetch(`${server!.base}/api/auth/session`, { headers: { cookie, "x-forwarded-proto": "https" } });
    expect(session.status).toBe(200);
    const body = (await session.json()) as ResponseBody<"getSession", 200>;
    expect(body.data.user.email).toBe(email);
    const [row] = await t.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [email]);
    expect(row.n).toBe(1);
  });

  it("names the TypeScript source in a stack trace (source maps)", async () => {
    // a misconfigured production start: config.ts throws every problem at once (loadConfig) while the bundle loads
    const { env, args } = startCommand();
    const r = spawnSync(process.execPath, args, {
      cwd: root,
      encoding: "utf8",
      // LOG_LEVEL=debug: a configuration error then shows its stack (else its message alone)
      env: { ...serverEnv({ DATABASE_POOL_SIZE: "lots", LOG_LEVEL: "debug" }), ...env },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("DATABASE_POOL_SIZE must be a positive integer");
    const frames = r.stderr.split("\n").filter((l) => /^\s+at /.test(l));
    expect(frames.some((l) => /at loadConfig \(.*\/src\/config\.ts:\d+:\d+\)/.test(l))).toBe(true);
    // every frame of our code is mapped back: only esbuild's own helpers (__init) are in the bundle
    expect(frames.filter((l) => l.includes("server.js") && !/^\s+at __\w+ /.test(l))).toEqual([]);
  });
});
