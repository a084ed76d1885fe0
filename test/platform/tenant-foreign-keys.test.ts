// Tenant isolation in the catalog: a tenant-owned row may only point at rows of its own company.
// Every reference from a company's table to another company-owned table is a composite foreign key
// (tenant_id, x_id) → (tenant_id, id), so the database itself refuses another company's id - on
// every path that writes (single create, import, script), not only where a use case checks it.
import { describe, expect, it } from "vitest";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

/**
 * uuid columns named like references that point at no company-owned row, with the reason. A new
 * column of this shape must get a composite foreign key, or a line here saying why it needs none.
 */
const NOT_COMPANY_REFERENCES: Record<string, string> = {
  "audit_logs.actor_credential_id": "the audit trail outlives what it names (a deleted credential stays named)",
  "audit_logs.actor_user_id": "users are not company-owned; the trail outlives a membership",
  "audit_logs.entity_id": "names a row of the table entity_type says (or a deleted one)",
  "employee_user_links.employee_id": "link history, kept after the record is deleted; written only by the memberships trigger",
  "employee_user_links.user_id": "users are not company-owned",
  "events.endpoint_id": "the endpoint a directed event (ping, replay) was for, kept after the endpoint is deleted",
  "helpdesk_messages.author_user_id": "users are not company-owned",
  "helpdesk_tickets.assignee_user_id": "users are not company-owned (a removed member's tickets go back to the queue)",
  "helpdesk_tickets.requester_user_id": "users are not company-owned",
  "imports.actor_employee_id": "who made the import, as it was then (the job re-reads the maker)",
  "import_records.record_id": "names a row of the table the import's kind says",
  "privacy_notice_acknowledgements.user_id": "users are not company-owned",
  "retained_records.record_id": "names a row of the table its record class says (purged when its period ends)",
  "imports.actor_credential_id": "the credential the import was made with (the job re-reads it and refuses a revoked one)",
  "leave_ledger_entries.reference_id": "names a row of the table its kind says",
  "notifications.user_id": "users are not company-owned",
  "webhook_attempts.delivery_id": "the delivery log outlives pruned deliveries",
  "webhook_attempts.endpoint_id": "the delivery log outlives deleted endpoints",
  "webhook_attempts.event_id": "the delivery log outlives pruned events",
  "webhook_deliveries.event_id": "finished deliveries outlive pruned events",
};

describe("composite tenant foreign keys", () => {
  it("every reference between company-owned tables includes tenant_id, and no reference column lacks a foreign key", async () => {
    const tenantTables = (
      await t.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'tenant_id'`,
      )
    ).map((r) => r.table_name);
    // foreign keys: their columns and their target's, in order
    const fks = await t.query<{ table: string; target: string; cols: string[]; target_cols: string[]; name: string }>(
      `SELECT c.conrelid::regclass::text AS table, c.confrelid::regclass::text AS target, c.conname AS name,
              ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
                      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i) AS cols,
              ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
                      JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i) AS target_cols
         FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace
        WHERE c.contype = 'f' AND s.nspname = 'public'`,
    );
    const tenantOwned = new Set(tenantTables);
    const withoutTenant = fks
      .filter((f) => tenantOwned.has(f.table) && tenantOwned.has(f.target))
      .filter((f) => f.cols[0] !== "tenant_id" || f.target_cols[0] !== "tenant_id")
      .map((f) => `${f.table}.${f.cols.join(",")} -> ${f.target}.${f.target_cols.join(",")} (${f.name})`);
    expect(withoutTenant).toEqual([]);

    const covered = new Set(fks.flatMap((f) => f.cols.map((c) => `${f.table}.${c}`)));
    const columns = await t.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type = 'uuid' AND column_name LIKE '%\\_id' AND column_name <> 'tenant_id'
        ORDER BY table_name, column_name`,
    );
    const missing = columns
      .filter((c) => tenantOwned.has(c.table_name))
      .map((c) => `${c.table_name}.${c.column_name}`)
      .filter((c) => !covered.has(c) && !(c in NOT_COMPANY_REFERENCES));
    expect(missing).toEqual([]);
  });
});

describe("createHoliday, importHolidays: a branch or work location of another company", () => {
  it("is refused as a reference to nothing, on the single create and the import alike", async () => {
    const a = await signupTenant(t);
    const b = await signupTenant(t);
    const branch = (
      await api(a.agent)
        .op("createBranch", { body: { name: "Pune" } })
        .expect(201)
    ).body.data.id;
    const single = await api(b.agent).op("createHoliday", { body: { date: "2026-08-15", name: "Independence Day", branch_id: branch } });
    const e = expectError(single, 400, "validation_failed");
    expect(e.details).toEqual([{ path: "body.branch_id", message: "names no branch of this company" }]);
    const imported = await api(b.agent).op("importHolidays", {
      body: { rows: [{ date: "2026-08-15", name: "Independence Day", branch_id: branch }] },
    });
    expect(imported.status).toBe(400);
    expect(JSON.stringify(imported.body)).toContain("names no branch of this company");
    expect(await t.query(`SELECT 1 FROM holidays WHERE tenant_id = $1`, [b.tenantId])).toEqual([]);
  });
});
