// Makes sure a program of one of Debian's packages is installed (nginx, pgbouncer, prometheus,
// PostgreSQL's server binaries), the way the other verify steps install theirs
// (scripts/support/ensure-chromium.sh): found on the machine, else `apt-get install` as root, else an error
// that says what to install. The packages' own services are not started (no init system here;
// and the project's scripts start each program with a configuration of their own).
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

/** The first of `paths` that exists after installing `pkg` where none did. */
export function ensureDebianPackage(pkg: string, paths: string[]): string {
  const found = () => paths.find((p) => existsSync(p));
  const have = found();
  if (have) return have;
  if (process.getuid?.() !== 0)
    throw new Error(`${paths[0]} is missing. Install Debian's package as root: apt-get update && apt-get install -y ${pkg}`);
  console.log(`installing Debian's ${pkg} package (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  let r = spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", pkg], { env, encoding: "utf8" });
  if (r.status !== 0) {
    spawnSync("apt-get", ["update", "-qq"], { env, encoding: "utf8" });
    r = spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", pkg], { env, encoding: "utf8" });
  }
  const now = found();
  if (!now) throw new Error(`apt-get install ${pkg} failed: ${(r.stderr || r.stdout).trim().split("\n").at(-1)}`);
  return now;
}
