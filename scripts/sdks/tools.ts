// The SDK tools install themselves on first use into .sdks/ (ignored), each pinned: the
// openapi-generator jar by its Maven coordinates and SHA-256, Python tools from requirements files
// with hashes into virtual environments, Go modules by go.mod/go.sum, Rust crates by Cargo.lock,
// TypeScript from the project's package-lock.json. A tool is reinstalled only when its pin changes.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");
export const cache = path.join(root, ".sdks");

/** openapi-generator's command-line jar on Maven Central, and the SHA-256 it must have. */
export const OPENAPI_GENERATOR = {
  coordinates: "org.openapitools:openapi-generator-cli:7.25.0",
  sha256: "41ce4f6b07f196676439d710759fa1ced7a08066d06ff1bf314681470289efae",
  jar: path.join(cache, "tools", "openapi-generator-cli-7.25.0.jar"),
};

/** Maven's local repository for the generator jar and the Java client's build (not ~/.m2). */
export const MAVEN_REPO = path.join(cache, "m2");

export interface Ran {
  output: string;
}

/** Runs a command; resolves with its stdout and stderr together, rejects with them on a non-zero exit. */
export function sh(cmd: string, args: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { cwd: opts.cwd ?? root, env: { ...process.env, ...opts.env }, maxBuffer: 256 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        if (err) reject(new Error(`${cmd} ${args.join(" ")} failed (${err.code ?? err.signal}):\n${output.slice(-6000)}`));
        else resolve({ output });
      },
    );
  });
}

export const sha256 = (...parts: (string | Buffer)[]): string => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex");
};

export const fileHash = (...files: string[]): string => sha256(...files.map((f) => readFileSync(path.resolve(root, f))));

/** True when `stampFile` holds `value` (and so the work it stands for is done). */
export const stamped = (stampFile: string, value: string): boolean => existsSync(stampFile) && readFileSync(stampFile, "utf8") === value;

export function stamp(stampFile: string, value: string): void {
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, value);
}

/** The openapi-generator jar: fetched by Maven from Central once, refused unless its SHA-256 is the pinned one. */
export async function ensureOpenApiGenerator(): Promise<string> {
  const { jar, coordinates } = OPENAPI_GENERATOR;
  if (!existsSync(jar)) {
    await sh("mvn", [
      "-q",
      "-B",
      `-Dmaven.repo.local=${MAVEN_REPO}`,
      "dependency:copy",
      `-Dartifact=${coordinates}`,
      `-DoutputDirectory=${path.dirname(jar)}`,
    ]);
  }
  const got = sha256(readFileSync(jar));
  if (got !== OPENAPI_GENERATOR.sha256) {
    rmSync(jar);
    throw new Error(`${coordinates}: SHA-256 ${got}, expected ${OPENAPI_GENERATOR.sha256} - refused and removed`);
  }
  return jar;
}

/**
 * A virtual environment with exactly the hashed requirements of `requirements` (pip --require-hashes),
 * made again only when they change: scripts/support/tool-install.sh, which `make test` runs before.
 */
export async function ensureVenv(name: string, requirements: string): Promise<string> {
  const dir = path.join(cache, name);
  await sh("bash", [path.join(root, "scripts/support/tool-install.sh"), "venv", dir, requirements]);
  return dir;
}
