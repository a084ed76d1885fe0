// Members' rules through the use cases, without HTTP: only an owner touches the owner role, the
// company keeps at least one owner (also when two owners step down at once), one member per
// employee record.
import { describe, expect, it } from "vitest";
import { withTenant } from "../../src/db/tenancy.ts";
import { changeMember, membersAndInvitations, revokeMembership } from "../../src/modules/members/members.ts";
import { addMember, signupTenant, useTestApp } from "../support/app.ts";
import { authOf } from "../support/auth-context.ts";
import { createEmployee } from "../support/employees.ts";

const t = useTestApp();

describe("updateMember / removeMember: the owner role", () => {
  it("only an owner grants or takes it; the last owner can be neither demoted nor removed", async () => {
    const o = await signupTenant(t);
    const owner = authOf(o, "owner");
    const admin = authOf(await addMember(t, o, "admin"), "admin");
    const as = <T>(fn: () => Promise<T>) => withTenant(o.tenantId, fn);
    await expect(as(() => changeMember(admin, admin.userId, { role: "owner" }))).rejects.toMatchObject({ status: 403 });
    await expect(as(() => changeMember(admin, owner.userId, { role: "admin" }))).rejects.toMatchObject({ status: 403 });
    await expect(as(() => revokeMembership(admin, owner.userId))).rejects.toMatchObject({ status: 403 });
    await expect(as(() => changeMember(owner, owner.userId, { role: "admin" }))).rejects.toMatchObject({
      status: 409,
      message:
        "The last owner cannot be demoted; make someone else owner first with " +
        "PUT /api/configuration/members/{userId} and role owner (updateMember)",
    });
    await expect(as(() => revokeMembership(owner, owner.userId))).rejects.toMatchObject({
      status: 409,
      message: "The last owner cannot be removed",
    });
    // with a second owner, the first may step down
    expect(await as(() => changeMember(owner, admin.userId, { role: "owner" }))).toMatchObject({ user_id: admin.userId, role: "owner" });
    expect(await as(() => changeMember(owner, owner.userId, { role: "hr" }))).toMatchObject({ role: "hr" });
    const audits = await t.query(
      `SELECT action, changes FROM audit_logs WHERE tenant_id = $1 AND action = 'member.role_changed' ORDER BY created_at`,
      [o.tenantId],
    );
    expect(audits.map((a) => a.changes)).toEqual([{ role: { from: "admin", to: "owner" } }, { role: { from: "owner", to: "hr" } }]);
  });

  it("two owners stepping down at once: one succeeds, the company keeps the other", async () => {
    const o = await signupTenant(t);
    const first = authOf(o, "owner");
    const second = authOf(await addMember(t, o, "admin"), "owner");
    await t.query(`UPDATE memberships SET role = 'owner' WHERE tenant_id = $1 AND user_id = $2`, [o.tenantId, second.userId]);
    const results = await Promise.allSettled([
      withTenant(o.tenantId, () => changeMember(first, first.userId, { role: "admin" })),
      withTenant(o.tenantId, () => revokeMembership(second, second.userId)),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { status: 409 } });
    const owners = await t.query(`SELECT user_id FROM memberships WHERE tenant_id = $1 AND role = 'owner'`, [o.tenantId]);
    expect(owners).toHaveLength(1);
  });
});

describe("updateMember: the linked employee record", () => {
  it("must exist and belong to one member only", async () => {
    const o = await signupTenant(t);
    const owner = authOf(o, "owner");
    const e = await createEmployee(o);
    const a = await addMember(t, o, "employee", { employeeId: e.id });
    const b = await addMember(t, o, "employee");
    const as = <T>(fn: () => Promise<T>) => withTenant(o.tenantId, fn);
    await expect(as(() => changeMember(owner, b.userId, { employee_id: e.id }))).rejects.toMatchObject({
      status: 409,
      message: "That employee record is already linked to another member",
    });
    await expect(as(() => changeMember(owner, b.userId, { employee_id: "00000000-0000-4000-8000-000000000000" }))).rejects.toMatchObject({
      status: 404,
    });
    expect(await as(() => changeMember(owner, a.userId, { employee_id: null }))).toMatchObject({ employee_id: null });
    expect(await as(() => changeMember(owner, b.userId, { employee_id: e.id }))).toMatchObject({ employee_id: e.id, role: "employee" });
    const { members } = await as(() => membersAndInvitations());
    expect(members.map((m) => m.name)).toEqual([...members.map((m) => m.name)].sort((x, y) => x.localeCompare(y)));
  });
});
