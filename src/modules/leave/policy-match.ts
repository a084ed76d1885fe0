// Which policy applies to an employee: an individual assignment, else one by designation, else by
// department, else the default policy; the oldest wins among several of the same kind.
import type { db } from "../../db/tenancy.ts";

export interface PolicyForMatch {
  id: string;
  assignment: string;
  departments: string[];
  designations: string[];
  created_at: Date;
  employeeIds: Set<string>;
}

const norm = (s: string) => s.trim().toLowerCase();
const RANK: Record<string, number> = { individual: 0, designation: 1, department: 2, default: 3 };

function matches(p: PolicyForMatch, e: { id: string; department: string; designation: string }): boolean {
  switch (p.assignment) {
    case "individual":
      return p.employeeIds.has(e.id);
    case "designation":
      return p.designations.some((d) => norm(d) === norm(e.designation));
    case "department":
      return p.departments.some((d) => norm(d) === norm(e.department));
    default:
      return true;
  }
}

export function applicablePolicy<P extends PolicyForMatch>(
  policies: P[],
  e: { id: string; department: string; designation: string },
): P | null {
  let best: P | null = null;
  for (const p of policies) {
    if (!matches(p, e)) continue;
    if (
      !best ||
      RANK[p.assignment] < RANK[best.assignment] ||
      (RANK[p.assignment] === RANK[best.assignment] && p.created_at < best.created_at)
    )
      best = p;
  }
  return best;
}

export async function loadActivePolicies(c: Pick<typeof db, "leavePolicy">) {
  const rows = await c.leavePolicy.findMany({
    where: { active: true },
    include: { items: true, employees: { select: { employee_id: true } } },
    orderBy: { created_at: "asc" },
  });
  return rows.map((p) => ({ ...p, employeeIds: new Set(p.employees.map((e) => e.employee_id)) }));
}

/** Whether a leave type applies to an employee (gender and employment type restrictions). */
export function typeApplies(
  t: { applicable_genders: string[]; applicable_employment_types: string[] },
  e: { gender: string | null; employment_type: string },
): boolean {
  if (t.applicable_genders.length && !t.applicable_genders.some((g) => e.gender && norm(g) === norm(e.gender))) return false;
  if (t.applicable_employment_types.length && !t.applicable_employment_types.some((x) => norm(x) === norm(e.employment_type))) return false;
  return true;
}
