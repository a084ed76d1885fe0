// Helpdesk: numbering, visibility, the status machine, assignment, conversation, soft delete.
import { beforeAll, describe, expect, it } from "vitest";
import { api, type RequestBodyOf } from "../support/api.ts";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";

const t = useTestApp();
let owner: TenantSession;
let hr: TenantSession;
let emp: TenantSession;
let colleague: TenantSession;

const ticket: RequestBodyOf<"createHelpdeskTicket"> = {
  title: "Payslip for October missing",
  category: "payroll",
  priority: "high",
  description: "I cannot find my October payslip.",
};

beforeAll(async () => {
  owner = await signupTenant(t);
  await api(owner.agent)
    .op("updateCompanySettings", { body: { modules: ["helpdesk"] } })
    .expect(200);
  hr = await addMember(t, owner, "hr", { name: "Hema HR" });
  emp = await addMember(t, owner, "employee", { name: "Esha Employee" });
  colleague = await addMember(t, owner, "employee", { name: "Chetan Colleague" });
});

describe(
  "listHelpdeskTickets, createHelpdeskTicket, getHelpdeskTicket, updateHelpdeskTicket, " +
    "deleteHelpdeskTicket, listHelpdeskMessages, addHelpdeskMessage: helpdesk tickets",
  () => {
    it("numbers tickets per company, even when raised concurrently", async () => {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          api(emp.agent)
            .op("createHelpdeskTicket", { body: { ...ticket, title: `Concurrent ${i}` } })
            .expect(201),
        ),
      );
      for (const r of results) expect(r.status).toBe(201);
      const numbers = results.map((r) => r.body.data.ticket_number).sort();
      expect(new Set(numbers).size).toBe(6);
      expect(numbers.every((n) => /^TKT-\d{5}$/.test(n))).toBe(true);
      expect(results[0].body.data).toMatchObject({
        status: "open",
        requester_user_id: emp.userId,
        requester_name: "Esha Employee",
        assignee_user_id: null,
      });
    });

    it("listHelpdeskTickets: a search matches its text literally (% and _ are not wildcards)", async () => {
      const pct = await api(emp.agent)
        .op("createHelpdeskTicket", { body: { ...ticket, title: "Laptop at 100% fan speed" } })
        .expect(201);
      const under = await api(emp.agent)
        .op("createHelpdeskTicket", { body: { ...ticket, title: "Printer queue_name wrong" } })
        .expect(201);
      const ids = async (search: string) =>
        (
          await api(hr.agent)
            .op("listHelpdeskTickets", { query: { search, limit: 100 } })
            .expect(200)
        ).body.data.map((x) => x.id);
      expect(await ids("100%")).toEqual([pct.body.data.id]);
      expect(await ids("%")).toEqual([pct.body.data.id]);
      expect(await ids("queue_")).toEqual([under.body.data.id]);
      expect(await ids("_")).toEqual([under.body.data.id]);
    });

    it("shows agents every ticket and others only their own", async () => {
      const mine = await api(emp.agent).op("createHelpdeskTicket", { body: ticket }).expect(201);
      const params = { id: mine.body.data.id };
      expectError(await api(colleague.agent).op("getHelpdeskTicket", { params }), 404, "not_found");
      expectError(await api(colleague.agent).op("listHelpdeskMessages", { params }), 404, "not_found");
      const cl = await api(colleague.agent).op("listHelpdeskTickets").expect(200);
      expect(cl.body.data.map((x) => x.id)).not.toContain(mine.body.data.id);
      const all = await api(hr.agent)
        .op("listHelpdeskTickets", { query: { search: mine.body.data.ticket_number } })
        .expect(200);
      expect(all.body.data.map((x) => x.id)).toEqual([mine.body.data.id]);
      const n = await api(hr.agent).op("listNotifications").expect(200);
      expect(n.body.data.some((x) => x.kind === "helpdesk.ticket_created")).toBe(true);
    });

    it("follows the status machine: assign → in progress → resolved → reopened → closed (final)", async () => {
      const { body } = await api(emp.agent).op("createHelpdeskTicket", { body: ticket }).expect(201);
      const id = body.data.id;
      const assigned = await api(hr.agent)
        .op("updateHelpdeskTicket", { params: { id }, body: { assignee_user_id: hr.userId } })
        .expect(200);
      expect(assigned.body.data).toMatchObject({ status: "in_progress", assignee_user_id: hr.userId, assignee_name: "Hema HR" });
      expectError(await api(emp.agent).op("updateHelpdeskTicket", { params: { id }, body: { priority: "urgent" } }), 403, "forbidden");
      expectError(await api(emp.agent).op("updateHelpdeskTicket", { params: { id }, body: { status: "resolved" } }), 403, "forbidden");
      const resolved = await api(hr.agent)
        .op("updateHelpdeskTicket", { params: { id }, body: { status: "resolved" } })
        .expect(200);
      expect(resolved.body.data.resolved_at).not.toBeNull();
      const reopened = await api(emp.agent)
        .op("updateHelpdeskTicket", { params: { id }, body: { status: "open" } })
        .expect(200);
      expect(reopened.body.data).toMatchObject({ status: "open", resolved_at: null });
      await api(emp.agent)
        .op("updateHelpdeskTicket", { params: { id }, body: { status: "closed" } })
        .expect(200);
      expectError(await api(hr.agent).op("updateHelpdeskTicket", { params: { id }, body: { status: "open" } }), 409, "conflict");
      expectError(await api(emp.agent).op("addHelpdeskMessage", { params: { id }, body: { body: "hello?" } }), 409, "conflict");
      const log = await api(owner.agent)
        .op("listActivityLog", { query: { entity_id: id } })
        .expect(200);
      const statusChanges = log.body.data.filter((e) => e.action === "helpdesk.ticket_status_changed").map((e) => e.changes?.status);
      expect(statusChanges.reverse()).toEqual([
        { from: "open", to: "in_progress" },
        { from: "in_progress", to: "resolved" },
        { from: "resolved", to: "open" },
        { from: "open", to: "closed" },
      ]);
      const notes = await api(emp.agent).op("listNotifications").expect(200);
      expect(notes.body.data.filter((x) => x.kind === "helpdesk.ticket_updated").length).toBeGreaterThanOrEqual(2);
    });

    it("refuses an illegal transition and a non-agent assignee", async () => {
      const { body } = await api(emp.agent).op("createHelpdeskTicket", { body: ticket }).expect(201);
      await api(hr.agent)
        .op("updateHelpdeskTicket", { params: { id: body.data.id }, body: { status: "resolved" } })
        .expect(200);
      expectError(
        await api(hr.agent).op("updateHelpdeskTicket", { params: { id: body.data.id }, body: { status: "in_progress" } }),
        409,
        "conflict",
      );
      expectError(
        await api(hr.agent).op("updateHelpdeskTicket", { params: { id: body.data.id }, body: { assignee_user_id: colleague.userId } }),
        400,
        "validation_failed",
      );
    });

    it("keeps internal notes from the requester", async () => {
      const { body } = await api(emp.agent).op("createHelpdeskTicket", { body: ticket }).expect(201);
      const id = body.data.id;
      await api(emp.agent)
        .op("addHelpdeskMessage", { params: { id }, body: { body: "Any update?" } })
        .expect(201);
      await api(hr.agent)
        .op("addHelpdeskMessage", { params: { id }, body: { body: "Payroll team says it's a bug", internal: true } })
        .expect(201);
      await api(hr.agent)
        .op("addHelpdeskMessage", { params: { id }, body: { body: "We are on it." } })
        .expect(201);
      expectError(
        await api(emp.agent).op("addHelpdeskMessage", { params: { id }, body: { body: "sneaky", internal: true } }),
        403,
        "forbidden",
      );
      const forEmp = await api(emp.agent).op("listHelpdeskMessages", { params: { id } }).expect(200);
      expect(forEmp.body.data.map((m) => m.body)).toEqual(["Any update?", "We are on it."]);
      const forHr = await api(hr.agent).op("listHelpdeskMessages", { params: { id } }).expect(200);
      expect(forHr.body.data).toHaveLength(3);
      expect((await api(emp.agent).op("getHelpdeskTicket", { params: { id } }).expect(200)).body.data.message_count).toBe(2);
      expect((await api(hr.agent).op("getHelpdeskTicket", { params: { id } }).expect(200)).body.data.message_count).toBe(3);
    });

    it("soft-deletes (agents only) and hides the ticket everywhere", async () => {
      const { body } = await api(emp.agent).op("createHelpdeskTicket", { body: ticket }).expect(201);
      expectError(await api(emp.agent).op("deleteHelpdeskTicket", { params: { id: body.data.id } }), 403, "forbidden");
      await api(hr.agent)
        .op("deleteHelpdeskTicket", { params: { id: body.data.id } })
        .expect(200);
      expectError(await api(hr.agent).op("getHelpdeskTicket", { params: { id: body.data.id } }), 404, "not_found");
      const rows = await t.query("SELECT deleted_at FROM helpdesk_tickets WHERE id = $1", [body.data.id]);
      expect(rows[0].deleted_at).not.toBeNull();
    });

    it("isolates tenants and needs the module", async () => {
      const { body } = await api(emp.agent).op("createHelpdeskTicket", { body: ticket }).expect(201);
      const other = await signupTenant(t);
      expectError(await api(other.agent).op("listHelpdeskTickets"), 403, "module_disabled");
      await api(other.agent)
        .op("updateCompanySettings", { body: { modules: ["helpdesk"] } })
        .expect(200);
      for (const req of [
        api(other.agent).op("getHelpdeskTicket", { params: { id: body.data.id } }),
        api(other.agent).op("updateHelpdeskTicket", { params: { id: body.data.id }, body: { priority: "low" } }),
        api(other.agent).op("deleteHelpdeskTicket", { params: { id: body.data.id } }),
        api(other.agent).op("listHelpdeskMessages", { params: { id: body.data.id } }),
        api(other.agent).op("addHelpdeskMessage", { params: { id: body.data.id }, body: { body: "x" } }),
      ])
        expectError(await req, 404, "not_found");
      expect((await api(other.agent).op("listHelpdeskTickets").expect(200)).body.data).toEqual([]);
      expect(
        (
          await api(hr.agent)
            .op("getHelpdeskTicket", { params: { id: body.data.id } })
            .expect(200)
        ).body.data.priority,
      ).toBe("high");
      const first = await api(other.agent).op("createHelpdeskTicket", { body: ticket }).expect(201);
      expect(first.body.data.ticket_number).toBe("TKT-00001");
    });
  },
);
