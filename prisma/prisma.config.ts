import path from "node:path";
import { defineConfig } from "prisma/config";

const here = import.meta.dirname;
// The Prisma CLI downloads a native schema engine unless this points at an existing file.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(here, "..", "scripts", "build", "schema-engine-stub.mjs");

export default defineConfig({
  schema: path.join(here, "schema"),
  migrations: { path: path.join(here, "migrations") },
});
