// Job requisitions and postings: numbering, validation, the two state machines (legal and illegal
// moves), approvals by role, manager scope, closing a requisition closes its postings, deletes.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { expectDetails, expectError, useTestApp } from "../support/app.ts";
import { approvedRequisition, openPosting, addCandidate, recruitingCompany, type Company } from "./fixtures.ts";

const t = useTestApp();
let c: Company;

beforeAll(async () => {
  c = await recruitingCompany(t);
});

const base = {
  title: "Senior Backend Engineer",
  department: "Engineering",
  positions: 2,
  min_salary: "1800000.00",
  max_salary: "2600000.00",
  target_start_date: "2027-03-01",
};

describe(
  "listJobRequisitions, createJobRequisition, getJobRequisition, " + "updateJobRequisition, deleteJobRequisition: job requisitions",
  () => {
    it("creates numbered drafts, validates input and lists with filters", async () => {
      const a = await api(c.hr.agent).op("createJobRequisition", { body: base }).expect(201);
      expect(a.body.data).toMatchObject({
        status: "draft",
        title: "Senior Backend Engineer",
        positions: 2,
        min_salary: "1800000.00",
        requested_by_user_id: c.hr.userId,
        requested_by_name: "Hema HR",
        posting_count: 0,
        employment_type: "full_time",
      });
      expect(a.body.data.requisition_number).toMatch(/^REQ-\d{5}$/);
      const b = await api(c.hr.agent)
        .op("createJobRequisition", { body: { ...base, title: "QA Analyst", department: "Quality" } })
        .expect(201);
      expect(Number(b.body.data.requisition_number.slice(4))).toBe(Number(a.body.data.requisition_number.slice(4)) + 1);

      const missing = expectDetails(
        await c.hr.agent.post("/api/recruitment/job-requisitions").send({ positions: 0 }),
        400,
        "validation_failed",
      );
      expect(missing.details.map((d: { path: string }) => d.path)).toEqual(
        expect.arrayContaining(["body.title", "body.department", "body.positions"]),
      );
      const range = expectDetails(
        await api(c.hr.agent).op("createJobRequisition", { body: { ...base, min_salary: "3000000.00" } }),
        400,
        "validation_failed",
      );
      expect(range.details[0].path).toBe("body.max_salary");
      expectError(await api(c.hr.agent).op("createJobRequisition", { body: { ...base, min_salary: "12" } }), 400, "validation_failed");
      expect(
        expectDetails(
          await api(c.hr.agent).op("createJobRequisition", { body: { ...base, min_salary: "-1.00" } }),
          400,
          "validation_failed",
        ).details[0].path,
      ).toBe("body.min_salary");
      // MoneyAmount: at most 999999999999.99, the largest amount every amount column holds
      expect(
        expectDetails(
          await api(c.hr.agent).op("createJobRequisition", {
            body: { ...base, min_salary: "1000000000000.00", max_salary: "1000000000000.00" },
          }),
          400,
          "validation_failed",
        ).details.map((d: { path: string }) => d.path),
      ).toEqual(expect.arrayContaining(["body.min_salary", "body.max_salary"]));
      expectError(
        await c.hr.agent.post("/api/recruitment/job-requisitions").send({ ...base, status: "approved" }),
        400,
        "validation_failed",
      );
      expectError(await c.hr.agent.post("/api/recruitment/job-requisitions").send({ ...base, colour: "red" }), 400, "validation_failed");

      const q = await api(c.hr.agent)
        .op("listJobRequisitions", { query: { department: "quality", status: "draft" } })
        .expect(200);
      expect(q.body.data.map((r) => r.id)).toEqual([b.body.data.id]);
      const s = await api(c.hr.agent)
        .op("listJobRequisitions", { query: { search: a.body.data.requisition_number } })
        .expect(200);
      expect(s.body.data.map((r) => r.id)).toEqual([a.body.data.id]);
      const page = await api(c.hr.agent)
        .op("listJobRequisitions", { query: { limit: 1, page: 2 } })
        .expect(200);
      expect(page.body.pagination).toMatchObject({ page: 2, limit: 1 });
      expect(page.body.pagination.total).toBeGreaterThanOrEqual(2);
      expectError(await api(c.hr.agent).op("listJobRequisitions", { query: { limit: 101 } }), 400, "validation_failed");
      expectError(await c.hr.agent.get("/api/recruitment/job-requisitions?status=open"), 400, "validation_failed");
    });

    it("follows draft → pending_approval → approved → closed, audited, with notifications", async () => {
      const r = await api(c.manager.agent)
        .op("createJobRequisition", { body: { title: "Platform Engineer", department: "Engineering" } })
        .expect(201);
      const id = r.body.data.id;
      const edited = await api(c.manager.agent)
        .op("updateJobRequisition", { params: { id }, body: { positions: 3, justification: "Growth" } })
        .expect(200);
      expect(edited.body.data).toMatchObject({ positions: 3, justification: "Growth", status: "draft" });
      const submitted = await api(c.manager.agent)
        .op("updateJobRequisition", { params: { id }, body: { status: "pending_approval" } })
        .expect(200);
      expect(submitted.body.data.submitted_at).not.toBeNull();
      const hrNotes = await api(c.hr.agent).op("listNotifications").expect(200);
      expect(
        hrNotes.body.data.some((n) => n.kind === "recruitment.requisition_submitted" && n.title.includes(r.body.data.requisition_number)),
      ).toBe(true);

      // Managers neither approve nor edit while it awaits approval.
      expectError(
        await api(c.manager.agent).op("updateJobRequisition", { params: { id }, body: { status: "approved" } }),
        403,
        "forbidden",
      );
      expectError(await api(c.manager.agent).op("updateJobRequisition", { params: { id }, body: { positions: 4 } }), 409, "conflict");
      expectError(await api(c.hr.agent).op("updateJobRequisition", { params: { id }, body: { status: "closed" } }), 409, "conflict");
      expectError(
        await api(c.hr.agent).op("updateJobRequisition", { params: { id }, body: { decision_notes: "x" } }),
        400,
        "validation_failed",
      );

      const approved = await api(c.hr.agent)
        .op("updateJobRequisition", { params: { id }, body: { status: "approved", decision_notes: "Budget confirmed" } })
        .expect(200);
      expect(approved.body.data).toMatchObject({
        status: "approved",
        decided_by_user_id: c.hr.userId,
        decided_by_name: "Hema HR",
        decision_notes: "Budget confirmed",
      });
      expectError(await api(c.hr.agent).op("updateJobRequisition", { params: { id }, body: { positions: 5 } }), 409, "conflict");
      expectError(await api(c.hr.agent).op("updateJobRequisition", { params: { id }, body: { status: "rejected" } }), 409, "conflict");
      expectError(await api(c.hr.agent).op("updateJobRequisition", { params: { id }, body: { status: "draft" } }), 409, "conflict");
      const mgrNotes = await api(c.manager.agent).op("listNotifications").expect(200);
      expect(mgrNotes.body.data.some((n) => n.kind === "recruitment.requisition_approved")).toBe(true);
      const mails = await t.query<{ subject: string }>(`SELECT subject FROM email_outbox WHERE to_address = $1`, [c.manager.email]);
      expect(mails.some((m) => m.subject.includes("was approved"))).toBe(true);

      const closed = await api(c.manager.agent)
        .op("updateJobRequisition", { params: { id }, body: { status: "closed" } })
        .expect(200);
      expect(closed.body.data.closed_at).not.toBeNull();
      expectError(await api(c.hr.agent).op("updateJobRequisition", { params: { id }, body: { status: "approved" } }), 409, "conflict");

      const log = await api(c.owner.agent)
        .op("listActivityLog", { query: { entity_id: id } })
        .expect(200);
      const moves = log.body.data.filter((e) => e.action === "recruitment.requisition_status_changed").map((e) => e.changes?.status);
      expect(moves.reverse()).toEqual([
        { from: "draft", to: "pending_approval" },
        { from: "pending_approval", to: "approved" },
        { from: "approved", to: "closed" },
      ]);
      const rows = await t.query(`SELECT status, decided_by::text, closed_at FROM job_requisitions WHERE id = $1`, [id]);
      expect(rows[0]).toMatchObject({ status: "closed", decided_by: c.hr.userId });
    });

    it("rejects, withdraws to draft, abandons drafts; rejected requisitions only close", async () => {
      const r = await api(c.hr.agent)
        .op("createJobRequisition", { body: { ...base, status: "pending_approval" } })
        .expect(201);
      const back = await api(c.hr.agent)
        .op("updateJobRequisition", { params: { id: r.body.data.id }, body: { status: "draft" } })
        .expect(200);
      expect(back.body.data).toMatchObject({ status: "draft", submitted_at: null });
      await api(c.hr.agent)
        .op("updateJobRequisition", { params: { id: r.body.data.id }, body: { status: "pending_approval" } })
        .expect(200);
      const rej = await api(c.owner.agent)
        .op("updateJobRequisition", { params: { id: r.body.data.id }, body: { status: "rejected", decision_notes: "No budget" } })
        .expect(200);
      expect(rej.body.data).toMatchObject({ status: "rejected", decision_notes: "No budget" });
      expectError(
        await api(c.hr.agent).op("updateJobRequisition", { params: { id: r.body.data.id }, body: { status: "approved" } }),
        409,
        "conflict",
      );
      expectError(
        await api(c.hr.agent).op("updateJobRequisition", { params: { id: r.body.data.id }, body: { status: "pending_approval" } }),
        409,
        "conflict",
      );
      await api(c.hr.agent)
        .op("updateJobRequisition", { params: { id: r.body.data.id }, body: { status: "closed" } })
        .expect(200);
      const d = await api(c.hr.agent).op("createJobRequisition", { body: base }).expect(201);
      await api(c.hr.agent)
        .op("updateJobRequisition", { params: { id: d.body.data.id }, body: { status: "closed" } })
        .expect(200);
      expectError(
        await api(c.hr.agent).op("createJobPosting", { body: { requisition_id: d.body.data.id, description: "x" } }),
        409,
        "conflict",
      );
    });

    it("shows managers only the requisitions they raised; employees are kept out", async () => {
      const mine = await api(c.manager.agent)
        .op("createJobRequisition", { body: { title: "SRE", department: "Engineering" } })
        .expect(201);
      const hrs = await api(c.hr.agent).op("createJobRequisition", { body: base }).expect(201);
      const list = await api(c.manager.agent)
        .op("listJobRequisitions", { query: { limit: 100 } })
        .expect(200);
      expect(list.body.data.every((r) => r.requested_by_user_id === c.manager.userId)).toBe(true);
      expect(list.body.data.map((r) => r.id)).toContain(mine.body.data.id);
      const own = await api(c.manager.agent)
        .op("getJobRequisition", { params: { id: mine.body.data.id } })
        .expect(200);
      expect(own.body.data).toMatchObject({ id: mine.body.data.id, title: "SRE", status: "draft", requested_by_user_id: c.manager.userId });
      const byHr = await api(c.hr.agent)
        .op("getJobRequisition", { params: { id: mine.body.data.id } })
        .expect(200);
      expect(byHr.body.data).toEqual(own.body.data);
      expectError(await api(c.manager.agent).op("getJobRequisition", { params: { id: hrs.body.data.id } }), 404, "not_found");
      expectError(
        await api(c.manager.agent).op("updateJobRequisition", { params: { id: hrs.body.data.id }, body: { positions: 2 } }),
        404,
        "not_found",
      );
      expectError(await api(c.manager.agent).op("deleteJobRequisition", { params: { id: hrs.body.data.id } }), 404, "not_found");
      expectError(await api(c.employee.agent).op("listJobRequisitions"), 403, "forbidden");
      expectError(await api(c.employee.agent).op("createJobRequisition", { body: base }), 403, "forbidden");
      // A manager deletes only their own draft.
      await api(c.manager.agent)
        .op("updateJobRequisition", { params: { id: mine.body.data.id }, body: { status: "pending_approval" } })
        .expect(200);
      expectError(await api(c.manager.agent).op("deleteJobRequisition", { params: { id: mine.body.data.id } }), 409, "conflict");
      await api(c.manager.agent)
        .op("updateJobRequisition", { params: { id: mine.body.data.id }, body: { status: "draft" } })
        .expect(200);
      await api(c.manager.agent)
        .op("deleteJobRequisition", { params: { id: mine.body.data.id } })
        .expect(200);
      expectError(await api(c.manager.agent).op("getJobRequisition", { params: { id: mine.body.data.id } }), 404, "not_found");
      const [row] = await t.query(`SELECT deleted_at FROM job_requisitions WHERE id = $1`, [mine.body.data.id]);
      expect(row.deleted_at).not.toBeNull();
    });
  },
);

describe("listJobPostings, createJobPosting, getJobPosting, updateJobPosting, deleteJobPosting: job postings", () => {
  it("are raised only from approved requisitions, with the requisition's defaults", async () => {
    const req = await approvedRequisition(c.hr.agent, {
      title: "Data Engineer",
      department: "Data",
      positions: 3,
      min_salary: "1000000.00",
      max_salary: "1500000.00",
    });
    const p = await api(c.hr.agent)
      .op("createJobPosting", { body: { requisition_id: req.id, description: "Pipelines", skills: ["Python", " SQL ", "python"] } })
      .expect(201);
    expect(p.body.data).toMatchObject({
      title: "Data Engineer",
      department: "Data",
      openings: 3,
      min_salary: "1000000.00",
      status: "draft",
      published_at: null,
      requisition_number: req.requisition_number,
      skills: ["python", "sql"],
      candidate_count: 0,
    });
    expect(p.body.data.posting_number).toMatch(/^JOB-\d{5}$/);
    const pending = await api(c.hr.agent)
      .op("createJobRequisition", { body: { ...base, status: "pending_approval" } })
      .expect(201);
    expectError(
      await api(c.hr.agent).op("createJobPosting", { body: { requisition_id: pending.body.data.id, description: "x" } }),
      409,
      "conflict",
    );
    const bad = expectDetails(
      await api(c.hr.agent).op("createJobPosting", { body: { requisition_id: "00000000-0000-4000-8000-000000000000", description: "x" } }),
      400,
      "validation_failed",
    );
    expect(bad.details[0].path).toBe("body.requisition_id");
    expectError(await c.hr.agent.post("/api/recruitment/job-postings").send({ requisition_id: req.id }), 400, "validation_failed");
    expectError(
      await api(c.hr.agent).op("createJobPosting", { body: { requisition_id: req.id, description: "x", min_salary: "9000000.00" } }),
      400,
      "validation_failed",
    );
    expectError(
      await api(c.manager.agent).op("createJobPosting", { body: { requisition_id: req.id, description: "x" } }),
      403,
      "forbidden",
    );
  });

  it("follows draft → open → closed; a closed posting is final and takes no candidates", async () => {
    const req = await approvedRequisition(c.hr.agent);
    const p = await api(c.hr.agent)
      .op("createJobPosting", { body: { requisition_id: req.id, description: "x" } })
      .expect(201);
    const id = p.body.data.id;
    expectError(
      await api(c.hr.agent).op("createCandidate", { body: { posting_id: id, first_name: "A", last_name: "B", email: "ab@example.test" } }),
      409,
      "conflict",
    );
    const open = await api(c.hr.agent)
      .op("updateJobPosting", { params: { id }, body: { status: "open", closes_on: "2027-12-31" } })
      .expect(200);
    expect(open.body.data).toMatchObject({ status: "open", closes_on: "2027-12-31" });
    expect(open.body.data.published_at).not.toBeNull();
    expectError(await api(c.hr.agent).op("updateJobPosting", { params: { id }, body: { status: "draft" } }), 409, "conflict");
    await api(c.hr.agent)
      .op("updateJobPosting", { params: { id }, body: { status: "closed" } })
      .expect(200);
    expectError(await api(c.hr.agent).op("updateJobPosting", { params: { id }, body: { status: "open" } }), 409, "conflict");
    expectError(await api(c.hr.agent).op("updateJobPosting", { params: { id }, body: { title: "New title" } }), 409, "conflict");
    const log = await api(c.owner.agent)
      .op("listActivityLog", { query: { entity_id: id } })
      .expect(200);
    expect(
      log.body.data
        .filter((e) => e.action === "recruitment.posting_status_changed")
        .map((e) => e.changes?.status)
        .reverse(),
    ).toEqual([
      { from: "draft", to: "open" },
      { from: "open", to: "closed" },
    ]);
  });

  it("closing the requisition closes its postings; a posting cannot open under a closed requisition", async () => {
    const req = await approvedRequisition(c.hr.agent);
    const open = await api(c.hr.agent)
      .op("createJobPosting", { body: { requisition_id: req.id, description: "x", status: "open" } })
      .expect(201);
    const draft = await api(c.hr.agent)
      .op("createJobPosting", { body: { requisition_id: req.id, description: "y" } })
      .expect(201);
    await api(c.hr.agent)
      .op("updateJobRequisition", { params: { id: req.id }, body: { status: "closed" } })
      .expect(200);
    const rows = await t.query(`SELECT id::text, status FROM job_postings WHERE id = ANY($1::uuid[]) ORDER BY status`, [
      [open.body.data.id, draft.body.data.id],
    ]);
    expect(rows.map((r) => r.status)).toEqual(["closed", "closed"]);
    const r2 = await approvedRequisition(c.hr.agent);
    const d2 = await api(c.hr.agent)
      .op("createJobPosting", { body: { requisition_id: r2.id, description: "z" } })
      .expect(201);
    await t.query(`UPDATE job_requisitions SET status = 'closed' WHERE id = $1`, [r2.id]);
    expectError(
      await api(c.hr.agent).op("updateJobPosting", { params: { id: d2.body.data.id }, body: { status: "open" } }),
      409,
      "conflict",
    );
  });

  it("lists with filters; managers see their department only", async () => {
    const eng = await openPosting(c.hr.agent, { department: "Engineering", title: `Eng ${Date.now()}` });
    const fin = await openPosting(c.hr.agent, { department: "Finance", title: "Accountant", skills: ["tally", "gst"] });
    const bySkill = await api(c.hr.agent)
      .op("listJobPostings", { query: { skill: "TALLY" } })
      .expect(200);
    expect(bySkill.body.data.map((p) => p.id)).toEqual([fin.id]);
    const byReq = await api(c.hr.agent)
      .op("listJobPostings", { query: { requisition_id: eng.requisition_id } })
      .expect(200);
    expect(byReq.body.data.map((p) => p.id)).toEqual([eng.id]);
    const search = await api(c.hr.agent)
      .op("listJobPostings", { query: { search: fin.posting_number } })
      .expect(200);
    expect(search.body.data.map((p) => p.id)).toEqual([fin.id]);
    const mgr = await api(c.manager.agent)
      .op("listJobPostings", { query: { limit: 100 } })
      .expect(200);
    expect(mgr.body.data.length).toBeGreaterThan(0);
    expect(mgr.body.data.every((p) => p.department === "Engineering")).toBe(true);
    await api(c.manager.agent)
      .op("getJobPosting", { params: { id: eng.id } })
      .expect(200);
    expectError(await api(c.manager.agent).op("getJobPosting", { params: { id: fin.id } }), 404, "not_found");
    expectError(await api(c.manager.agent).op("updateJobPosting", { params: { id: eng.id }, body: { title: "x y" } }), 403, "forbidden");
  });

  it("deletes postings without candidates only; requisitions with postings are closed, not deleted", async () => {
    const p = await openPosting(c.hr.agent);
    await addCandidate(c.hr.agent, p.id);
    expectError(await api(c.hr.agent).op("deleteJobPosting", { params: { id: p.id } }), 409, "conflict");
    expectError(await api(c.hr.agent).op("deleteJobRequisition", { params: { id: p.requisition_id } }), 409, "conflict");
    const req = await approvedRequisition(c.hr.agent);
    const empty = await api(c.hr.agent)
      .op("createJobPosting", { body: { requisition_id: req.id, description: "x" } })
      .expect(201);
    const upd = await api(c.hr.agent)
      .op("updateJobPosting", {
        params: { id: empty.body.data.id },
        body: { title: "Renamed role", skills: ["Go Lang"], location: "Pune" },
      })
      .expect(200);
    expect(upd.body.data).toMatchObject({ title: "Renamed role", skills: ["go lang"], location: "Pune" });
    await api(c.hr.agent)
      .op("deleteJobPosting", { params: { id: empty.body.data.id } })
      .expect(200);
    expectError(await api(c.hr.agent).op("getJobPosting", { params: { id: empty.body.data.id } }), 404, "not_found");
    const log = await api(c.owner.agent)
      .op("listActivityLog", { query: { entity_id: empty.body.data.id } })
      .expect(200);
    expect(log.body.data.map((e) => e.action)).toEqual([
      "recruitment.posting_deleted",
      "recruitment.posting_updated",
      "recruitment.posting_created",
    ]);
  });
});
