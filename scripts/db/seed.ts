// `make seed`: the demo company (scripts/db/seed-demo.ts) in the database of `make run` (DATABASE_URL,
// or the embedded PostgreSQL), built through the app's own API; idempotent. Prints the sign-ins.
// `SEED_EMPLOYEES` sets the size (default 200).
process.env.LOG_LEVEL ??= "warn";
process.env.DEV_MAIL ??= "false"; // the demo's mails (invitations, the offer) are at /dev/mail, not printed here
const { processConfig } = await import("../../src/config.ts");
const { ensureDatabase } = await import("../../src/db/embedded.ts");
const { deployMigrations } = await import("../../src/db/migrations.ts");
const { closeDb, getPool, initDb } = await import("../../src/db/client.ts");
const { createApp } = await import("../../src/http/app.ts");
const { createServer } = await import("../../src/http/server.ts");
const { seedDemo } = await import("./seed-demo.ts");

const started = Date.now();
const database = await ensureDatabase().catch((err: Error) => {
  // a database that cannot be had (port, folder in use): what to do, without a stack trace
  console.error(`make seed: ${err.message}`);
  process.exit(1);
});
await deployMigrations(database.url);
initDb(database.url);
const server = createServer(createApp({ config: processConfig }));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as import("node:net").AddressInfo;
try {
  console.log("Seeding the demo company:");
  const employees = process.env.SEED_EMPLOYEES ? Number(process.env.SEED_EMPLOYEES) : undefined;
  const result = await seedDemo({
    baseUrl: `http://127.0.0.1:${port}`,
    query: async (sql, params) => (await getPool().query(sql, params as unknown[])).rows,
    employees,
    log: (line) => console.log(line),
  });
  const addedAll = Object.values(result.added).reduce((a, b) => a + b, 0);
  console.log(
    `\n${result.company}: ${result.employees} employees, every module on` +
      (addedAll ? "" : " (already seeded: nothing added)") +
      ` - ${((Date.now() - started) / 1000).toFixed(1)} s.\nSign in (POST /api/auth/sign-in, or /docs) as:`,
  );
  for (const s of result.signIns) console.log(`  ${s.role.padEnd(9)} ${s.email.padEnd(34)} ${s.password}   ${s.name}`);
  if (result.credentialSecret)
    console.log(
      `API credential "Demo HRIS sync" (hr; employees, leave, attendance: read), shown once:\n` +
        `  curl -H 'Authorization: Bearer ${result.credentialSecret}' localhost:${process.env.PORT ?? 3000}/api/employees`,
    );
} finally {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await closeDb();
  await database.stop();
}
