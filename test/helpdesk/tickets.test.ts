// Helpdesk: numbering, visibility, the status machine, assignment, conversation, soft delete.
import { beforeAll, describe, expect, it } from "vitest";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";

const t = useTestApp();
let owner: TenantSession;
let hr: TenantSession;
let emp: TenantSession;
let colleague: TenantSession;

const ticket = {
  title: "Payslip for October missing",
  category: "payroll",
  priority: "high",
  description: "I cannot find my October payslip.",
};

beforeAll(async () => {
  owner = await signupTenant(t);
  await owner.agent
    .post("/api/configuration/company-settings")
    .send({ modules: ["helpdesk"] })
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
        Array.from({ length: 6 }, (_, i) => emp.agent.post("/api/helpdesk/tickets").send({ ...ticket, title: `Concurrent ${i}` })),
      );
      for (const r of results) expect(r.status).toBe(201);
      const numbers = results.map((r) => r.body.data.ticket_number).sort();
      expect(new Set(numbers).size).toBe(6);
      expect(numbers.every((n: string) => /^TKT-\d{5}$/.test(n))).toBe(true);
      expect(results[0].body.data).toMatchObject({
        status: "open",
        requester_user_id: emp.userId,
        requester_name: "Esha Employee",
        assignee_user_id: null,
      });
    });

    it("listHelpdeskTickets: a search matches its text literally (% and _ are not wildcards)", async () => {
      const pct = await emp.agent
        .post("/api/helpdesk/tickets")
        .send({ ...ticket, title: "Laptop at 100% fan speed" })
        .expect(201);
      const under = await emp.agent
        .post("/api/helpdesk/tickets")
        .send({ ...ticket, title: "Printer queue_name wrong" })
        .expect(201);
      const ids = async (search: string) =>
        (await hr.agent.get("/api/helpdesk/tickets").query({ search, limit: 100 }).expect(200)).body.data.map((x: { id: string }) => x.id);
      expect(await ids("100%")).toEqual([pct.body.data.id]);
      expect(await ids("%")).toEqual([pct.body.data.id]);
      expect(await ids("queue_")).toEqual([under.body.data.id]);
      expect(await ids("_")).toEqual([under.body.data.id]);
    });

    it("shows agents every ticket and others only their own", async () => {
      const mine = await emp.agent.post("/api/helpdesk/tickets").send(ticket).expect(201);
      expectError(await colleague.agent.get(`/api/helpdesk/tickets/${mine.body.data.id}`), 404, "not_found");
      expectError(await colleague.agent.get(`/api/helpdesk/tickets/${mine.body.data.id}/messages`), 404, "not_found");
      const cl = await colleague.agent.get("/api/helpdesk/tickets").expect(200);
      expect(cl.body.data.map((x: any) => x.id)).not.toContain(mine.body.data.id);
      const all = await hr.agent.get(`/api/helpdesk/tickets?search=${mine.body.data.ticket_number}`).expect(200);
      expect(all.body.data.map((x: any) => x.id)).toEqual([mine.body.data.id]);
      const n = await hr.agent.get("/api/notifications").expect(200);
      expect(n.body.data.some((x: any) => x.kind === "helpdesk.ticket_created")).toBe(true);
    });

    it("follows the status machine: assign → in progress → resolved → reopened → closed (final)", async () => {
      const { body } = await emp.agent.post("/api/helpdesk/tickets").send(ticket).expect(201);
      const id = body.data.id;
      const assigned = await hr.agent.put(`/api/helpdesk/tickets/${id}`).send({ assignee_user_id: hr.userId }).expect(200);
      expect(assigned.body.data).toMatchObject({ status: "in_progress", assignee_user_id: hr.userId, assignee_name: "Hema HR" });
      expectError(await emp.agent.put(`/api/helpdesk/tickets/${id}`).send({ priority: "urgent" }), 403, "forbidden");
      expectError(await emp.agent.put(`/api/helpdesk/tickets/${id}`).send({ status: "resolved" }), 403, "forbidden");
      const resolved = await hr.agent.put(`/api/helpdesk/tickets/${id}`).send({ status: "resolved" }).expect(200);
      expect(resolved.body.data.resolved_at).not.toBeNull();
      const reopened = await emp.agent.put(`/api/helpdesk/tickets/${id}`).send({ status: "open" }).expect(200);
      expect(reopened.body.data).toMatchObject({ status: "open", resolved_at: null });
      await emp.agent.put(`/api/helpdesk/tickets/${id}`).send({ status: "closed" }).expect(200);
      expectError(await hr.agent.put(`/api/helpdesk/tickets/${id}`).send({ status: "open" }), 409, "conflict");
      expectError(await emp.agent.post(`/api/helpdesk/tickets/${id}/messages`).send({ body: "hello?" }), 409, "conflict");
      const log = await owner.agent.get(`/api/configuration/activity-log?entity_id=${id}`).expect(200);
      const statusChanges = log.body.data
        .filter((e: any) => e.action === "helpdesk.ticket_status_changed")
        .map((e: any) => e.changes.status);
      expect(statusChanges.reverse()).toEqual([
        { from: "open", to: "in_progress" },
        { from: "in_progress", to: "resolved" },
        { from: "resolved", to: "open" },
        { from: "open", to: "closed" },
      ]);
      const notes = await emp.agent.get("/api/notifications").expect(200);
      expect(notes.body.data.filter((x: any) => x.kind === "helpdesk.ticket_updated").length).toBeGreaterThanOrEqual(2);
    });

    it("refuses an illegal transition and a non-agent assignee", async () => {
      const { body } = await emp.agent.post("/api/helpdesk/tickets").send(ticket).expect(201);
      await hr.agent.put(`/api/helpdesk/tickets/${body.data.id}`).send({ status: "resolved" }).expect(200);
      expectError(await hr.agent.put(`/api/helpdesk/tickets/${body.data.id}`).send({ status: "in_progress" }), 409, "conflict");
      expectError(
        await hr.agent.put(`/api/helpdesk/tickets/${body.data.id}`).send({ assignee_user_id: colleague.userId }),
        400,
        "validation_failed",
      );
    });

    it("keeps internal notes from the requester", async () => {
      const { body } = await emp.agent.post("/api/helpdesk/tickets").send(ticket).expect(201);
      const id = body.data.id;
      await emp.agent.post(`/api/helpdesk/tickets/${id}/messages`).send({ body: "Any update?" }).expect(201);
      await hr.agent
        .post(`/api/helpdesk/tickets/${id}/messages`)
        .send({ body: "Payroll team says it's a bug", internal: true })
        .expect(201);
      await hr.agent.post(`/api/helpdesk/tickets/${id}/messages`).send({ body: "We are on it." }).expect(201);
      expectError(await emp.agent.post(`/api/helpdesk/tickets/${id}/messages`).send({ body: "sneaky", internal: true }), 403, "forbidden");
      const forEmp = await emp.agent.get(`/api/helpdesk/tickets/${id}/messages`).expect(200);
      expect(forEmp.body.data.map((m: any) => m.body)).toEqual(["Any update?", "We are on it."]);
      const forHr = await hr.agent.get(`/api/helpdesk/tickets/${id}/messages`).expect(200);
      expect(forHr.body.data).toHaveLength(3);
      expect((await emp.agent.get(`/api/helpdesk/tickets/${id}`).expect(200)).body.data.message_count).toBe(2);
      expect((await hr.agent.get(`/api/helpdesk/tickets/${id}`).expect(200)).body.data.message_count).toBe(3);
    });

    it("soft-deletes (agents only) and hides the ticket everywhere", async () => {
      const { body } = await emp.agent.post("/api/helpdesk/tickets").send(ticket).expect(201);
      expectError(await emp.agent.delete(`/api/helpdesk/tickets/${body.data.id}`), 403, "forbidden");
      await hr.agent.delete(`/api/helpdesk/tickets/${body.data.id}`).expect(200);
      expectError(await hr.agent.get(`/api/helpdesk/tickets/${body.data.id}`), 404, "not_found");
      const rows = await t.query("SELECT deleted_at FROM helpdesk_tickets WHERE id = $1", [body.data.id]);
      expect(rows[0].deleted_at).not.toBeNull();
    });

    it("isolates tenants and needs the module", async () => {
      const { body } = await emp.agent.post("/api/helpdesk/tickets").send(ticket).expect(201);
      const other = await signupTenant(t);
      expectError(await other.agent.get("/api/helpdesk/tickets"), 403, "module_disabled");
      await other.agent
        .post("/api/configuration/company-settings")
        .send({ modules: ["helpdesk"] })
        .expect(200);
      for (const req of [
        other.agent.get(`/api/helpdesk/tickets/${body.data.id}`),
        other.agent.put(`/api/helpdesk/tickets/${body.data.id}`).send({ priority: "low" }),
        other.agent.delete(`/api/helpdesk/tickets/${body.data.id}`),
        other.agent.get(`/api/helpdesk/tickets/${body.data.id}/messages`),
        other.agent.post(`/api/helpdesk/tickets/${body.data.id}/messages`).send({ body: "x" }),
      ])
        expectError(await req, 404, "not_found");
      expect((await other.agent.get("/api/helpdesk/tickets").expect(200)).body.data).toEqual([]);
      expect((await hr.agent.get(`/api/helpdesk/tickets/${body.data.id}`).expect(200)).body.data.priority).toBe("high");
      const first = await other.agent.post("/api/helpdesk/tickets").send(ticket).expect(201);
      expect(first.body.data.ticket_number).toBe("TKT-00001");
    });
  },
);
