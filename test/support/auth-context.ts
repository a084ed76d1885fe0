// The AuthContext a signed-in request would carry, for calling use cases directly (without HTTP)
// inside withTenant(session.tenantId, ...).
import type { AuthContext, Role } from "../../src/http/types.ts";
import type { TenantSession } from "./app.ts";

export function authOf(s: TenantSession, role: Role, opts: { employeeId?: string | null; name?: string } = {}): AuthContext {
  return {
    userId: s.userId,
    email: s.email,
    name: opts.name ?? `${role} person`,
    tenantId: s.tenantId,
    role,
    employeeId: opts.employeeId ?? null,
    modules: ["payroll", "recruitment", "helpdesk", "assets"],
  };
}
