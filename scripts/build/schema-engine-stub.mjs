#!/usr/bin/env node
// Stand-in for Prisma's native schema engine, which the Prisma CLI would otherwise download.
// `prisma generate` only checks that PRISMA_SCHEMA_ENGINE_BINARY exists; migrations run through
// scripts/db/migrate.ts (wasm schema engine), never through the CLI.
console.error(
  "The native Prisma schema engine is not used in this project: use `make migrate` / `make migration name=...` (scripts/db/migrate.ts).",
);
process.exit(1);
