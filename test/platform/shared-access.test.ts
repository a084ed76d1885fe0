// The policy every area shares (src/modules/shared/access.ts): who manages people data, those
// members of the active tenant only, and users' names by id.
import { beforeAll, describe, expect, it } from "vitest";
import { withTenant } from "../../src/db/tenancy.ts";
import {
  assertNotOwnRecord,
  HR_ROLES,
  hrMemberIds,
  isHr,
  isLinkedRecord,
  isOwnRecord,
  selfDecision,
  userNames,
} from "../../src/modules/shared/access.ts";
import { addMember, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";

const t = useTestApp();
let owner: TenantSession;
const m: Record<string, TenantSession> = {};
let otherOwner: TenantSession;

beforeAll(async () => {
  owner = await signupTenant(t);
  for (const role of ["admin", "hr", "manager", "employee"] as const) m[role] = await addMember(t, owner, role, { name: `The ${role}` });
  otherOwner = await signupTenant(t);
  await addMember(t, otherOwner, "hr");
});

describe("shared access policy", () => {
  it("owner, admin and hr manage people data; managers and employees do not", () => {
    expect(HR_ROLES).toEqual(["owner", "admin", "hr"]);
    expect(["owner", "admin", "hr", "manager", "employee"].map((role) => isHr({ role: role as never }))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it("the hr members are the active tenant's owner, admin and hr, without the one excepted", async () => {
    const all = await withTenant(owner.tenantId, () => hrMemberIds());
    expect(new Set(all)).toEqual(new Set([owner.userId, m.admin.userId, m.hr.userId]));
    const others = await withTenant(owner.tenantId, () => hrMemberIds(undefined, owner.userId));
    expect(new Set(others)).toEqual(new Set([m.admin.userId, m.hr.userId]));
    expect(await withTenant(otherOwner.tenantId, () => hrMemberIds())).not.toContain(m.hr.userId);
    await expect(hrMemberIds()).rejects.toThrow(/without an active tenant/); // fails closed
  });

  it("names users by id, once each, ignoring empty ids", async () => {
    const names = await userNames([m.hr.userId, null, m.hr.userId, undefined, m.manager.userId]);
    expect([...names.keys()].sort()).toEqual([m.hr.userId, m.manager.userId].sort());
    expect(names.get(m.hr.userId)).toEqual({ name: "The hr", email: m.hr.email });
    expect(await userNames([])).toEqual(new Map());
  });

  it("decisions about money or balances on one's own record: only the owner (marked as a self-decision), nobody else", () => {
    const own = "0b6d2f1e-3c4a-4e5b-8f6a-7d8c9e0f1a2b";
    const other = "1c7e3a2f-4d5b-4f6c-9a7b-8e9d0f1a2b3c";
    for (const role of ["admin", "hr", "manager", "employee"] as const) {
      expect(() => assertNotOwnRecord({ role, employeeId: own }, own, "No")).toThrow(
        expect.objectContaining({ status: 403, message: "No" }),
      );
      expect(assertNotOwnRecord({ role, employeeId: own }, other, "No")).toBe(false);
      expect(assertNotOwnRecord({ role, employeeId: null }, own, "No")).toBe(false);
    }
    expect(assertNotOwnRecord({ role: "owner", employeeId: own }, own, "No")).toBe(true);
    expect(assertNotOwnRecord({ role: "owner", employeeId: own }, other, "No")).toBe(false);
    expect(selfDecision(true)).toEqual({ self_decision: true });
    expect(selfDecision(false)).toEqual({});
  });

  it("the own record is the person's: a record once linked stays theirs after unlinking or relinking", () => {
    const own = "0b6d2f1e-3c4a-4e5b-8f6a-7d8c9e0f1a2b";
    const other = "1c7e3a2f-4d5b-4f6c-9a7b-8e9d0f1a2b3c";
    for (const employeeId of [null, other])
      expect(() => assertNotOwnRecord({ role: "admin", employeeId, ownEmployeeIds: [own, other] }, own, "No")).toThrow(
        expect.objectContaining({ status: 403 }),
      );
    expect(isOwnRecord({ employeeId: null, ownEmployeeIds: [own] }, own)).toBe(true);
    expect(isLinkedRecord({ employeeId: null }, own)).toBe(false);
    expect(isOwnRecord({ employeeId: null, ownEmployeeIds: [own] }, other)).toBe(false);
  });
});
