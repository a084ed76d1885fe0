// The one place the proof harness learns how to create "a resource of this operation's path id".
// The isolation and role matrices (test/proof/isolation.test.ts, roles.test.ts) create the
// resource with these, call every operation that takes the id, and FAIL listing any id-taking
// operation of the document without a factory - so a new area adds its entries (here, or in its
// own test/proof/factories-<area>.ts merged below).
//
// Keys: the path template up to and including the parameter ("/api/leave-requests/{id}"); a key
// of the form "{employeeId}" serves every path whose parameter has that name (not for "{id}").
// A factory creates the resource in the caller's tenant, belonging to `holder` where resources
// have an owner (own leave requests, own files, own notifications); `parents` has the ids of
// earlier path parameters (for nested paths).
//
// `scope` says who may reach it: "own" - it belongs to one member, and an employee can never reach
// a colleague's (proved for every operation with role employee); "tenant" - shared within the
// tenant by design (give the reason).
//
// `requests` adjusts the generated valid request of an operation where the first enum value or
// the schema example would test something else (e.g. inviting an owner is an owner-only action).
import { randomUUID } from "node:crypto";
import type { Operation, RequestInput } from "./openapi.ts";
import { sampleEmail } from "./openapi.ts";
import {
  allocate,
  call,
  sampleBody,
  bodyFor,
  collection,
  configuration,
  onFreeDay,
  DAY,
  fromToday,
  isoDay,
  employeeOf,
  insertMember,
  leaveBasics,
  newAsset,
  nextUniq,
  rowOf,
  snapshotOf,
  token,
  type Created,
  type Factory,
  type FactoryContext,
  type Scope,
} from "./factory-kit.ts";
import * as payroll from "./factories-payroll.ts";
import * as recruitment from "./factories-recruitment.ts";
import * as integrations from "./factories-integrations.ts";
import * as bulk from "./factories-bulk.ts";
import * as privacy from "./factories-privacy.ts";

export * from "./factory-kit.ts";

export const factories: Record<string, Factory> = {
  "/api/configuration/members/{userId}": {
    scope: { tenant: "members are managed by owner/admin; no employee operation takes a user id" },
    async create({ t, owner }) {
      const id = await insertMember(t, owner.tenantId, "employee");
      return {
        id,
        snapshot: async () =>
          await t.query(`SELECT tenant_id, user_id, role, employee_id FROM memberships WHERE user_id = $1 ORDER BY tenant_id`, [id]),
      };
    },
  },

  "/api/notifications/{notificationId}": {
    scope: "own",
    async create({ t, holder }) {
      const [n] = await t.query<{ id: string }>(
        `INSERT INTO notifications (tenant_id, user_id, kind, title) VALUES ($1, $2, 'leave.submitted', 'Proof notification') RETURNING id`,
        [holder.tenantId, holder.userId],
      );
      return { id: n.id, snapshot: rowOf(t, "notifications", n.id) };
    },
  },

  "/api/files/{fileId}": {
    scope: "own",
    async create({ t, holder }) {
      if (!holder.agent) throw new Error("file factory: the holder must be signed in");
      const res = await holder.agent
        .post("/api/upload")
        .attach("file", Buffer.from(`proof file ${randomUUID()}\n`), { filename: "proof.txt", contentType: "text/plain" })
        .field("purpose", "proof");
      if (res.status !== 201) throw new Error(`file factory: upload answered ${res.status} ${JSON.stringify(res.body)}`);
      return { id: res.body.data.id, snapshot: rowOf(t, "files", res.body.data.id) };
    },
  },
};

/** Factories of the areas' resources (they take effect when the operations are in the document). */
export const areaFactories: Record<string, Factory> = {
  "/api/employees/{employeeId}": {
    scope: "own",
    async create(ctx) {
      const id = await employeeOf(ctx);
      return { id, snapshot: rowOf(ctx.t, "employees", id) };
    },
  },
  "/api/employees/{employeeId}/documents/{documentId}": {
    scope: "own",
    async create(ctx) {
      const res = await ctx.owner.agent
        .post(`/api/employees/${ctx.parents.employeeId}/documents`)
        .attach("file", Buffer.from(`proof document ${token("")}\n`), { filename: "proof.txt", contentType: "text/plain" })
        .field("document_type", String(bodyFor("post", "/api/employees/{employeeId}/documents").document_type))
        .field("title", "Proof document");
      if (res.status !== 201) throw new Error(`document factory: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: res.body.data.id, snapshot: rowOf(ctx.t, "employee_documents", res.body.data.id) };
    },
  },
  // the knowledge-transfer item (the one a direct manager may tick) of the employee's exit,
  // opened here by a resignation when there is none
  "/api/employees/{employeeId}/exit/checklist/{itemId}": {
    scope: "own",
    async create(ctx) {
      const employeeId = ctx.parents.employeeId;
      const exitOf = () =>
        ctx.t.query<{ id: string }>(
          `SELECT c.id FROM exit_checklist_items c JOIN employee_exits x
        ON x.tenant_id = c.tenant_id AND x.id = c.exit_id WHERE x.employee_id = $1 AND c.item = 'knowledge_transfer'`,
          [employeeId],
        );
      if (!(await exitOf()).length)
        await call(ctx.owner.agent, "submitResignation", {
          params: { employeeId },
          body: {
            resignation_date: fromToday(0),
            last_working_day: fromToday(30),
            reason: "Proof",
          },
        });
      const [item] = await exitOf();
      return { id: item.id, snapshot: rowOf(ctx.t, "exit_checklist_items", item.id) };
    },
  },
  "/api/configuration/branches/{branchId}": collection(configuration("branches"), "/api/configuration/branches", "branches"),
  "/api/configuration/asset-categories/{id}": collection(
    configuration("asset categories"),
    "/api/configuration/asset-categories",
    "asset_categories",
  ),
  "/api/configuration/payroll/loan-types/{id}": collection(
    configuration("loan types"),
    "/api/configuration/payroll/loan-types",
    "loan_types",
  ),
  "/api/configuration/payroll/expense-categories/{id}": collection(
    configuration("expense categories"),
    "/api/configuration/payroll/expense-categories",
    "expense_categories",
  ),
  "/api/leave-types/{id}": collection(configuration("leave types"), "/api/leave-types", "leave_types", () => ({
    name: `Proof ${token("")}`,
    code: token("T"),
  })),
  "/api/leave-periods/{id}": collection(configuration("leave periods"), "/api/leave-periods", "leave_periods", () => {
    const year = 2100 + (nextUniq() % 800); // far from the current period: periods must not overlap
    return { name: `Proof ${token("")}`, start_date: `${year}-01-01`, end_date: `${year}-12-31` };
  }),
  "/api/leave-policies/{id}": collection(
    { tenant: "leave policies: managed by owner/admin/hr" },
    "/api/leave-policies",
    "leave_policies",
    async (ctx) => {
      const { type } = await leaveBasics(ctx);
      const policy = bodyFor("post", "/api/leave-policies", { assignment: "individual", employee_ids: [await employeeOf(ctx)] });
      return { ...policy, items: [{ ...((policy.items as Record<string, unknown>[])?.[0] ?? {}), leave_type_id: type.id }] };
    },
  ),
  "/api/holidays/{id}": collection(configuration("holidays"), "/api/holidays", "holidays", () => ({
    date: isoDay(Date.UTC(2098, 0, 1) + (nextUniq() % 3000) * DAY),
    name: `Proof ${token("")}`,
  })),
  "/api/assets/{assetId}": {
    scope: { tenant: "the asset register: managed by owner/admin/hr" },
    async create(ctx) {
      const asset = await newAsset(ctx);
      return { id: asset.id, snapshot: snapshotOf(ctx.t, ctx.owner, `/api/assets/${asset.id}`, "assets", asset.id) };
    },
  },
  "/api/assets/return-requests/{id}": {
    scope: { tenant: "decided by owner/admin/hr only" },
    async create(ctx) {
      const assignment = await call(ctx.owner.agent, "createAssetAssignment", {
        body: {
          asset_id: (await newAsset(ctx)).id,
          employee_id: await employeeOf(ctx),
        },
      });
      const r = await call(ctx.owner.agent, "createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Proof return" } });
      return { id: r.id, snapshot: rowOf(ctx.t, "asset_return_requests", r.id) };
    },
  },
  "/api/assets/damage-reports/{id}": {
    scope: { tenant: "resolved by owner/admin/hr only" },
    async create(ctx) {
      const r = await call(ctx.owner.agent, "createAssetDamageReport", {
        body: sampleBody("createAssetDamageReport", { asset_id: (await newAsset(ctx)).id, description: "Proof damage" }),
      });
      return { id: r.id, snapshot: rowOf(ctx.t, "asset_damage_reports", r.id) };
    },
  },
  "/api/helpdesk/tickets/{id}": {
    scope: "own",
    async create(ctx) {
      const agent = ctx.holder.agent ?? ctx.owner.agent;
      const r = await call(agent, "createHelpdeskTicket", { body: sampleBody("createHelpdeskTicket", { description: "Proof ticket" }) });
      return { id: r.id, snapshot: rowOf(ctx.t, "helpdesk_tickets", r.id) };
    },
  },
  "/api/leave-requests/{id}": {
    scope: "own",
    async create(ctx) {
      const { type, period } = await leaveBasics(ctx);
      const employeeId = await employeeOf(ctx);
      await allocate(ctx, employeeId, type.id, period.id);
      const r = await onFreeDay(employeeId, "future-workday", (day) =>
        call(ctx.owner.agent, "createLeaveRequest", {
          body: {
            employee_id: employeeId,
            leave_type_id: type.id,
            from_date: day,
            to_date: day,
            reason: "Proof",
          },
        }),
      );
      return { id: r.id, snapshot: rowOf(ctx.t, "leave_requests", r.id) };
    },
  },
  "/api/leave-encashments/{id}": {
    scope: "own",
    async create(ctx) {
      const { encashable, period } = await leaveBasics(ctx);
      const employeeId = await employeeOf(ctx);
      await allocate(ctx, employeeId, encashable.id, period.id);
      const r = await call(ctx.owner.agent, "createLeaveEncashment", {
        body: {
          employee_id: employeeId,
          leave_type_id: encashable.id,
          period_id: period.id,
          days: "1",
        },
      });
      return { id: r.id, snapshot: rowOf(ctx.t, "leave_encashments", r.id) };
    },
  },
  "/api/wfh-requests/{id}": {
    scope: "own",
    async create(ctx) {
      const employeeId = await employeeOf(ctx);
      const r = await onFreeDay(employeeId, "future-workday", (day) =>
        call(ctx.owner.agent, "createWfhRequest", { body: { employee_id: employeeId, from_date: day, to_date: day, reason: "Proof" } }),
      );
      return { id: r.id, snapshot: rowOf(ctx.t, "wfh_requests", r.id) };
    },
  },
  "/api/working-on-holiday/{id}": {
    scope: "own",
    async create(ctx) {
      const { compOff } = await leaveBasics(ctx);
      const employeeId = await employeeOf(ctx);
      const r = await onFreeDay(employeeId, "past-off", (date) =>
        call(ctx.owner.agent, "createWorkingOnHolidayRequest", {
          body: {
            employee_id: employeeId,
            date,
            reason: "Proof",
            leave_type_id: compOff.id,
          },
        }),
      );
      return { id: r.id, snapshot: rowOf(ctx.t, "working_on_holiday_requests", r.id) };
    },
  },
  "/api/attendance-regularization/{id}": {
    scope: "own",
    async create(ctx) {
      const employeeId = await employeeOf(ctx);
      // filed by the holder when signed in: only the requester may edit it
      const r = await onFreeDay(employeeId, "past-workday", (date) =>
        call(ctx.holder.agent ?? ctx.owner.agent, "createAttendanceRegularization", {
          body: {
            employee_id: employeeId,
            date,
            check_in: `${date}T04:00:00Z`,
            check_out: `${date}T12:00:00Z`,
            reason: "Proof",
          },
        }),
      );
      return { id: r.id, snapshot: rowOf(ctx.t, "attendance_regularizations", r.id) };
    },
  },
};

/** Per-operation scope where an operation on the resource differs from its factory's. */
export const operationScopes: Record<string, Scope> = {
  getEmployee: { tenant: "colleagues see each other's directory entry (view: directory)" },
  ...payroll.operationScopes,
  ...recruitment.operationScopes,
  ...privacy.operationScopes,
};

/**
 * Operations nobody may perform on their own record (approvals): in the role matrix the resource
 * belongs to a direct report of the caller instead of the caller.
 */
export const decidedByOthers = new Set([
  "updateLeaveRequest",
  "updateWfhRequest",
  "updateWorkingOnHolidayRequest",
  "updateLeaveEncashment",
  // a direct manager ticks their report's knowledge transfer; nobody ticks their own exit's items
  "updateExitChecklistItem",
  // nobody but the owner completes their own exit
  "completeExit",
  ...payroll.decidedByOthers,
  ...recruitment.decidedByOthers,
  ...privacy.decidedByOthers,
]);

/** Adjustments of the generated valid request, by operationId. */
export const requests: Record<string, (ids: Record<string, string>) => Partial<RequestInput>> = {
  // the first enum value would be "owner": only an owner may invite/grant it (403 for admins by design)
  inviteMember: () => ({ body: { email: sampleEmail("invitee"), role: "employee" } }),
  updateMember: () => ({ body: { role: "hr" } }),
  // a module list would switch the matrices' modules off
  updateCompanySettings: () => ({ body: { name: "Proof Harness Co" } }),
  // the schema's example makes it the current period, which would move every later allocation
  updateLeavePeriod: () => ({ body: { name: `Proof ${token("")}` } }),
  // what every party may do: the requester may only close (or reopen) their ticket
  updateHelpdeskTicket: () => ({ body: { status: "closed" } }),
  // the requester's edit (a decision on one's own request is refused by design)
  updateAttendanceRegularization: () => ({ body: { reason: "Proof: corrected times" } }),
  ...payroll.requests,
  ...recruitment.requests,
  ...integrations.requests,
  ...privacy.requests,
};

// ───────────────────────────── resolution ─────────────────────────────

/** The path prefix that names the resource of each path parameter, in order. */
export function resourcePrefixes(op: Operation): { param: string; prefix: string }[] {
  return op.pathParams.map((p) => {
    const token = `{${p.name}}`;
    return { param: p.name, prefix: op.path.slice(0, op.path.indexOf(token) + token.length) };
  });
}

export function factoryFor(prefix: string, param: string): Factory | undefined {
  const all = {
    ...areaFactories,
    ...payroll.factories,
    ...recruitment.factories,
    ...integrations.factories,
    ...bulk.factories,
    ...privacy.factories,
    ...factories,
  };
  return all[prefix] ?? (param !== "id" ? all[`{${param}}`] : undefined);
}

/** Who may reach the resources of an operation: its own override, else its last path id's factory. */
export function scopeOf(op: Operation): Scope | undefined {
  if (operationScopes[op.operationId]) return operationScopes[op.operationId];
  const last = resourcePrefixes(op).at(-1);
  return last ? factoryFor(last.prefix, last.param)?.scope : undefined;
}

/** Operations that take path ids but have no factory for one of them (the matrices fail on these). */
export function missingFactories(ops: Operation[]): string[] {
  const out: string[] = [];
  for (const op of ops)
    for (const { param, prefix } of resourcePrefixes(op))
      if (!factoryFor(prefix, param))
        out.push(`${op.operationId} (${op.method.toUpperCase()} ${op.path}): no factory for "${prefix}" in test/proof/factories.ts`);
  return out;
}

/** Creates the resources of every path id of `op` (parents first); returns ids and what was created. */
export async function createResources(
  op: Operation,
  ctx: Omit<FactoryContext, "parents">,
): Promise<{ ids: Record<string, string>; created: (Created & { prefix: string; factory: Factory })[] }> {
  const ids: Record<string, string> = {};
  const created: (Created & { prefix: string; factory: Factory })[] = [];
  for (const { param, prefix } of resourcePrefixes(op)) {
    const factory = factoryFor(prefix, param);
    if (!factory) throw new Error(`no factory for ${prefix}`);
    const c = await factory.create({ ...ctx, parents: { ...ids } });
    ids[param] = c.id;
    created.push({ ...c, prefix, factory });
  }
  return { ids, created };
}
