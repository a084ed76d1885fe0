// The project folder: the nearest above the running file with a package.json, so the sources (src/) and
// the bundle (dist/) find the same run-time files (generated/openapi.json, prisma/migrations, .data/).
import { existsSync } from "node:fs";
import path from "node:path";

export function findProjectRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (dir === path.dirname(dir)) return path.resolve(from, "..");
  }
}

export const projectRoot = findProjectRoot(import.meta.dirname);
