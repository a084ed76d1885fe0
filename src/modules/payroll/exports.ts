// Rows of the bulk area's export of salary setups (src/modules/bulk/): every version, keyset batches by id.
import { db } from "../../db/tenancy.ts";
import { toDateString } from "../../lib/dates.ts";

export const SALARY_SETUP_EXPORT_COLUMNS = [
  "id",
  "employee_id",
  "effective_from",
  "monthly_ctc",
  "pf_enabled",
  "eps_enabled",
  "esi_enabled",
  "pt_enabled",
  "pt_state",
  "disabled",
  "existing_eps_member",
  "notes",
  "all_components",
  "components",
  "created_at",
  "updated_at",
];

export async function salarySetupsForExport(
  filter: { employee_id?: string; updated_since?: string },
  after: string | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const rows = await db.employeeSalarySetup.findMany({
    where: {
      ...(after ? { id: { gt: after } } : {}),
      ...(filter.employee_id ? { employee_id: filter.employee_id } : {}),
      ...(filter.updated_since ? { changed_at: { gte: new Date(filter.updated_since) } } : {}),
    },
    include: { components: { select: { component_id: true, amount: true }, orderBy: { component_id: "asc" } } },
    orderBy: { id: "asc" },
    take: limit,
  });
  return rows.map((s) => ({
    id: s.id,
    employee_id: s.employee_id,
    effective_from: toDateString(s.effective_from),
    monthly_ctc: s.monthly_ctc?.toFixed(2) ?? null,
    pf_enabled: s.pf_enabled,
    eps_enabled: s.eps_enabled,
    esi_enabled: s.esi_enabled,
    pt_enabled: s.pt_enabled,
    pt_state: s.pt_state,
    disabled: s.disabled,
    existing_eps_member: s.existing_eps_member,
    notes: s.notes,
    all_components: s.all_components,
    components: s.components.map((c) => ({ component_id: c.component_id, amount: c.amount?.toFixed(2) ?? null })),
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  }));
}
