// Helpdesk ticket transitions through the use cases, without HTTP: the status machine, who may
// change what, assignment, and a closed ticket.
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { withTenant } from "../../src/db/tenancy.ts";
import type { AuthContext } from "../../src/http/types.ts";
import { postMessage } from "../../src/modules/helpdesk/messages.ts";
import { changeTicket, discardTicket, raiseTicket, ticketById } from "../../src/modules/helpdesk/tickets.ts";
import { addMember, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { authOf } from "../support/auth-context.ts";

const t = useTestApp();
let owner: TenantSession;
let agent: AuthContext;
let requester: AuthContext;
let other: AuthContext;
const as = <T>(fn: () => Promise<T>) => withTenant(owner.tenantId, fn);
const raise = () =>
  as(() => raiseTicket(requester, { title: " Laptop will not boot ", category: "it", priority: "medium", description: "Black screen" }));

beforeAll(async () => {
  owner = await signupTenant(t);
  agent = authOf(await addMember(t, owner, "hr", { name: "Hema HR" }), "hr", { name: "Hema HR" });
  requester = authOf(await addMember(t, owner, "employee", { name: "Esha Employee" }), "employee", { name: "Esha Employee" });
  other = authOf(await addMember(t, owner, "employee"), "employee");
});

describe("updateHelpdeskTicket: the status machine", () => {
  it("open -> in progress -> resolved -> open -> closed; a closed ticket changes no more", async () => {
    const tk = await raise();
    expect(tk).toMatchObject({ status: "open", title: "Laptop will not boot", requester_name: "Esha Employee", message_count: 0 });
    expect(await as(() => changeTicket(agent, tk.id, { status: "in_progress" }))).toMatchObject({ status: "in_progress" });
    const resolved = await as(() => changeTicket(agent, tk.id, { status: "resolved" }));
    expect(resolved.resolved_at).not.toBeNull();
    await expect(as(() => changeTicket(agent, tk.id, { status: "in_progress" }))).rejects.toMatchObject({
      status: 409,
      message: "A ticket cannot go from resolved to in_progress",
    });
    // the requester may reopen a resolved ticket (resolved_at cleared), and close it
    expect(await as(() => changeTicket(requester, tk.id, { status: "open" }))).toMatchObject({ status: "open", resolved_at: null });
    const closed = await as(() => changeTicket(requester, tk.id, { status: "closed" }));
    expect(closed.closed_at).not.toBeNull();
    await expect(as(() => changeTicket(agent, tk.id, { status: "open" }))).rejects.toMatchObject({
      status: 409,
      message: "The ticket is closed; raise a new ticket instead",
    });
    await expect(as(() => changeTicket(agent, tk.id, { priority: "high" }))).rejects.toMatchObject({ status: 409 });
    await expect(as(() => postMessage(requester, tk.id, { body: "still broken" }))).rejects.toMatchObject({
      status: 409,
      message: "The ticket is closed; raise a new ticket instead",
    });
    const audits = await t.query(`SELECT action, changes FROM audit_logs WHERE tenant_id = $1 AND entity_id = $2 ORDER BY created_at`, [
      owner.tenantId,
      tk.id,
    ]);
    expect(audits.map((a) => a.action)).toEqual(["helpdesk.ticket_created", ...Array(4).fill("helpdesk.ticket_status_changed")]);
    expect(audits.at(-1)!.changes).toEqual({ status: { from: "open", to: "closed" } });
  });

  it("the requester may only close or reopen a resolved ticket; others do not see it", async () => {
    const tk = await raise();
    await expect(as(() => changeTicket(requester, tk.id, { priority: "urgent" }))).rejects.toMatchObject({ status: 403 });
    await expect(as(() => changeTicket(requester, tk.id, { status: "resolved" }))).rejects.toMatchObject({ status: 403 });
    // only a resolved one reopens
    await expect(as(() => changeTicket(requester, tk.id, { status: "open" }))).rejects.toMatchObject({ status: 403 });
    await expect(as(() => ticketById(other, tk.id))).rejects.toMatchObject({ status: 404 });
    await expect(as(() => changeTicket(other, tk.id, { status: "closed" }))).rejects.toMatchObject({ status: 404 });
  });

  it("assigning an open ticket starts it; the assignee must be an agent; requester and assignee are told", async () => {
    const tk = await raise();
    await expect(as(() => changeTicket(agent, tk.id, { assignee_user_id: other.userId }))).rejects.toMatchObject({
      status: 400,
      details: [{ path: "body.assignee_user_id" }],
    });
    const assigned = await as(() => changeTicket(authOf(owner, "owner"), tk.id, { assignee_user_id: agent.userId, priority: "high" }));
    expect(assigned).toMatchObject({ status: "in_progress", assignee_user_id: agent.userId, assignee_name: "Hema HR", priority: "high" });
    const kinds = await t.query(`SELECT user_id, kind FROM notifications WHERE tenant_id = $1 AND link = $2 ORDER BY created_at`, [
      owner.tenantId,
      `/api/helpdesk/tickets/${tk.id}`,
    ]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        { user_id: requester.userId, kind: "helpdesk.ticket_updated" },
        { user_id: agent.userId, kind: "helpdesk.ticket_assigned" },
      ]),
    );
    // a change to nothing new is no change (no audit entry)
    await as(() => changeTicket(agent, tk.id, { priority: "high" }));
    const audits = await t.query(`SELECT action FROM audit_logs WHERE tenant_id = $1 AND entity_id = $2`, [owner.tenantId, tk.id]);
    expect(audits).toHaveLength(2);
  });
});

describe("updateHelpdeskTicket, addHelpdeskMessage, deleteHelpdeskTicket: a ticket deleted meanwhile", () => {
  it("a change, a message or a second deletion waiting on a ticket that is deleted first is a 404, and nothing is written", async () => {
    const ticketIds = [(await raise()).id, (await raise()).id, (await raise()).id];
    const attempts = [
      (id: string) => as(() => changeTicket(agent, id, { status: "in_progress" })),
      (id: string) => as(() => postMessage(agent, id, { body: "Looking into it" })),
      (id: string) => as(() => discardTicket(agent, id)),
    ];
    for (const [i, id] of ticketIds.entries()) {
      // another request holds the ticket's lock and deletes it while the attempt waits for the lock
      const holder = new pg.Client({ connectionString: t.url });
      await holder.connect();
      try {
        await holder.query("BEGIN");
        await holder.query("SELECT 1 FROM helpdesk_tickets WHERE id = $1 FOR UPDATE", [id]);
        const attempt = attempts[i](id).then(
          () => "done",
          (err: { status?: number }) => err.status,
        );
        // the attempt has passed its visibility check and waits for the row lock (only then does
        // this test the lock: before it, the attempt would find the ticket deleted anyway)
        const waitingSql =
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'";
        let waiting = false;
        for (let n = 0; n < 6000 && !waiting; n++) {
          waiting = (await t.query<{ n: number }>(waitingSql))[0].n > 0;
          if (!waiting) await new Promise((r) => setTimeout(r, 10));
        }
        expect(waiting, `attempt ${i} waits for the lock`).toBe(true);
        await holder.query("UPDATE helpdesk_tickets SET deleted_at = now() WHERE id = $1", [id]);
        await holder.query("COMMIT");
        expect(await attempt, `attempt ${i}`).toBe(404);
      } finally {
        await holder.end();
      }
      const [row] = await t.query(
        "SELECT status, (SELECT count(*)::int FROM helpdesk_messages WHERE ticket_id = $1) AS messages FROM helpdesk_tickets WHERE id = $1",
        [id],
      );
      expect(row).toEqual({ status: "open", messages: 0 });
      const [{ n }] = await t.query(
        "SELECT count(*)::int AS n FROM audit_logs WHERE entity_id = $1 AND action <> 'helpdesk.ticket_created'",
        [id],
      );
      expect(n).toBe(0);
    }
  });
});
