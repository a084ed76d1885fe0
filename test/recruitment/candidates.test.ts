// Candidates and the talent pool: applications, validation, the pipeline (legal and illegal
// moves, hired only with an accepted offer), leaving the pipeline cancels what is scheduled,
// manager visibility, search, and the talent pool's skills/tags search.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { expectDetails, expectError, useTestApp, type AuditChanges } from "../support/app.ts";
import { addCandidate, advance, draftOffer, isoIn, openPosting, recruitingCompany, uniq, type Company } from "./fixtures.ts";

const t = useTestApp();
let c: Company;
let posting: Awaited<ReturnType<typeof openPosting>>;

beforeAll(async () => {
  c = await recruitingCompany(t);
  posting = await openPosting(c.hr.agent);
});

describe("listCandidates, createCandidate, getCandidate, updateCandidate, deleteCandidate: candidates", () => {
  it("adds applications to open postings, one per person and posting", async () => {
    const up = await c.hr.agent
      .post("/api/upload")
      .attach("file", Buffer.from("%PDF-1.4 resume"), { filename: "cv.pdf", contentType: "application/pdf" })
      .expect(201);
    const cand = await addCandidate(c.hr.agent, posting.id, {
      email: "Arjun.Rao@Example.test",
      first_name: " Arjun ",
      last_name: "Rao",
      phone: "+91 98765 43210",
      source: "referral",
      experience_years: 5.5,
      expected_salary: "2000000.00",
      notice_period_days: 60,
      skills: ["TypeScript", "typescript", "Kubernetes"],
      resume_file_id: up.body.data.id,
    });
    expect(cand).toMatchObject({
      stage: "applied",
      first_name: "Arjun",
      full_name: "Arjun Rao",
      email: "arjun.rao@example.test",
      posting_title: posting.title,
      department: "Engineering",
      experience_years: 5.5,
      expected_salary: "2000000.00",
      skills: ["typescript", "kubernetes"],
      source: "referral",
      employee_id: null,
      screening_score: null,
    });
    const dup = expectError(
      await api(c.hr.agent).op("createCandidate", {
        body: { posting_id: posting.id, first_name: "A", last_name: "R", email: "ARJUN.RAO@example.test" },
      }),
      409,
      "conflict",
    );
    expect(dup.error).toContain("already applied");
    const other = await openPosting(c.hr.agent);
    await addCandidate(c.hr.agent, other.id, { email: "arjun.rao@example.test" });

    const missing = expectDetails(
      await api(c.hr.agent).op("createCandidate", { body: { posting_id: posting.id } }),
      400,
      "validation_failed",
    );
    expect(missing.details.map((d: { path: string }) => d.path)).toEqual(["body.first_name", "body.last_name", "body.email"]);
    expectError(
      await api(c.hr.agent).op("createCandidate", {
        body: { posting_id: posting.id, first_name: "A", last_name: "B", email: "not-an-email" },
      }),
      400,
      "validation_failed",
    );
    expectError(
      await api(c.hr.agent).op("createCandidate", {
        body: { posting_id: posting.id, first_name: "A", last_name: "B", email: "a@b.test", experience_years: 2.3 },
      }),
      400,
      "validation_failed",
    );
    expect(
      expectDetails(
        await api(c.hr.agent).op("createCandidate", {
          body: { posting_id: posting.id, first_name: "A", last_name: "B", email: "neg@b.test", expected_salary: "-10.00" },
        }),
        400,
      ).details[0].path,
    ).toBe("body.expected_salary");
    const file = expectDetails(
      await api(c.hr.agent).op("createCandidate", {
        body: {
          posting_id: posting.id,
          first_name: "A",
          last_name: "B",
          email: "ab@b.test",
          resume_file_id: "00000000-0000-4000-8000-000000000000",
        },
      }),
      400,
      "validation_failed",
    );
    expect(file.details[0].path).toBe("body.resume_file_id");
    const nop = expectDetails(
      await api(c.hr.agent).op("createCandidate", {
        body: { posting_id: "00000000-0000-4000-8000-000000000000", first_name: "A", last_name: "B", email: "ab@b.test" },
      }),
      400,
      "validation_failed",
    );
    expect(nop.details[0].path).toBe("body.posting_id");
  });

  it("moves one stage at a time; final stages are final; hired needs an accepted offer", async () => {
    const cand = await addCandidate(c.hr.agent, posting.id);
    const id = cand.id;
    expectError(await api(c.hr.agent).op("updateCandidate", { params: { id }, body: { stage: "interview" } }), 409, "conflict");
    expectError(await api(c.hr.agent).op("updateCandidate", { params: { id }, body: { stage: "hired" } }), 409, "conflict");
    await advance(c.hr.agent, id, "offer");
    const noOffer = expectError(await api(c.hr.agent).op("updateCandidate", { params: { id }, body: { stage: "hired" } }), 409, "conflict");
    expect(noOffer.error).toContain("accepted offer");
    expectError(await api(c.hr.agent).op("updateCandidate", { params: { id }, body: { stage: "screening" } }), 409, "conflict");
    await t.query(
      `INSERT INTO job_offers (tenant_id, offer_number, candidate_id, job_title, department, ` +
        `salary, currency, joining_date, expires_on, status, created_by) VALUES ($1, ` +
        `'OFR-T${uniq()}', $2, 'X', 'Y', 1, 'INR', '2027-01-01', '2026-12-01', 'accepted', $3)`,
      [c.owner.tenantId, id, c.hr.userId],
    );
    const hired = await api(c.hr.agent)
      .op("updateCandidate", { params: { id }, body: { stage: "hired" } })
      .expect(200);
    expect(hired.body.data.stage).toBe("hired");
    expectError(await api(c.hr.agent).op("updateCandidate", { params: { id }, body: { stage: "rejected" } }), 409, "conflict");
    expectError(await api(c.hr.agent).op("deleteCandidate", { params: { id } }), 409, "conflict");
    const log = await api(c.owner.agent)
      .op("listActivityLog", { query: { entity_id: id } })
      .expect(200);
    expect(
      log.body.data
        .filter((e) => e.action === "recruitment.candidate_stage_changed")
        .map((e) => (e.changes as AuditChanges | null)?.stage.to)
        .reverse(),
    ).toEqual(["screening", "interview", "offer", "hired"]);
    // The requisition's requester (hr here raised it, so nobody else) - raise one by the manager to see the notice.
    const [row] = await t.query(`SELECT stage, stage_changed_at FROM candidates WHERE id = $1`, [id]);
    expect(row.stage).toBe("hired");
  });

  it("tells the requisition's requester about a hire", async () => {
    const r = await api(c.manager.agent)
      .op("createJobRequisition", { body: { title: "Frontend Engineer", department: "Engineering", status: "pending_approval" } })
      .expect(201);
    await api(c.hr.agent)
      .op("updateJobRequisition", { params: { id: r.body.data.id }, body: { status: "approved" } })
      .expect(200);
    const p = await api(c.hr.agent)
      .op("createJobPosting", { body: { requisition_id: r.body.data.id, description: "UI", status: "open" } })
      .expect(201);
    const cand = await addCandidate(c.hr.agent, p.body.data.id);
    await advance(c.hr.agent, cand.id, "offer");
    await t.query(
      `INSERT INTO job_offers (tenant_id, offer_number, candidate_id, job_title, department, ` +
        `salary, currency, joining_date, expires_on, status, created_by) VALUES ($1, ` +
        `'OFR-T${uniq()}', $2, 'X', 'Y', 1, 'INR', '2027-01-01', '2026-12-01', 'accepted', $3)`,
      [c.owner.tenantId, cand.id, c.hr.userId],
    );
    await api(c.hr.agent)
      .op("updateCandidate", { params: { id: cand.id }, body: { stage: "hired" } })
      .expect(200);
    const notes = await api(c.manager.agent).op("listNotifications").expect(200);
    expect(notes.body.data.some((n) => n.kind === "recruitment.candidate_hired" && n.title.includes(cand.last_name))).toBe(true);
  });

  it("rejecting cancels scheduled interviews and sessions and withdraws a draft offer", async () => {
    const { candidate, offer } = await draftOffer(c.hr.agent);
    await t.query(`UPDATE candidates SET stage = 'interview' WHERE id = $1`, [candidate.id]);
    const i = await api(c.hr.agent)
      .op("createInterview", {
        body: {
          candidate_id: candidate.id,
          round_name: "Tech",
          scheduled_at: isoIn(3),
          mode: "phone",
          interviewer_user_ids: [c.manager.userId],
        },
      })
      .expect(201);
    const s = await api(c.hr.agent)
      .op("createInterviewSession", { body: { candidate_id: candidate.id, interview_id: i.body.data.id } })
      .expect(201);
    await t.query(`UPDATE candidates SET stage = 'offer' WHERE id = $1`, [candidate.id]);
    expectError(
      await api(c.hr.agent).op("updateCandidate", { params: { id: candidate.id }, body: { rejection_reason: "x" } }),
      400,
      "validation_failed",
    );
    const rej = await api(c.hr.agent)
      .op("updateCandidate", { params: { id: candidate.id }, body: { stage: "rejected", rejection_reason: "Culture fit" } })
      .expect(200);
    expect(rej.body.data).toMatchObject({ stage: "rejected", rejection_reason: "Culture fit" });
    const [iv] = await t.query(`SELECT status, cancel_reason FROM interviews WHERE id = $1`, [i.body.data.id]);
    expect(iv).toMatchObject({ status: "cancelled", cancel_reason: "candidate rejected" });
    const [ss] = await t.query(`SELECT status FROM interview_sessions WHERE id = $1`, [s.body.data.id]);
    expect(ss.status).toBe("cancelled");
    const [of] = await t.query(`SELECT status FROM job_offers WHERE id = $1`, [offer.id]);
    expect(of.status).toBe("withdrawn");
    expectError(
      await api(c.hr.agent).op("updateCandidate", { params: { id: candidate.id }, body: { stage: "screening" } }),
      409,
      "conflict",
    );
  });

  it("withdrawn is final; updates of details are audited from → to", async () => {
    const cand = await addCandidate(c.hr.agent, posting.id);
    const u = await api(c.hr.agent)
      .op("updateCandidate", {
        params: { id: cand.id },
        body: { notes: "Strong referral", phone: "+91 90000 00000", skills: ["Go Lang", "Rust"] },
      })
      .expect(200);
    expect(u.body.data).toMatchObject({ notes: "Strong referral", skills: ["go lang", "rust"] });
    const log = await api(c.owner.agent)
      .op("listActivityLog", { query: { entity_id: cand.id, action: "recruitment.candidate_updated" } })
      .expect(200);
    expect(log.body.data[0].changes!.notes).toEqual({ from: null, to: "Strong referral" });
    await api(c.hr.agent)
      .op("updateCandidate", { params: { id: cand.id }, body: { stage: "withdrawn" } })
      .expect(200);
    expectError(await api(c.hr.agent).op("updateCandidate", { params: { id: cand.id }, body: { stage: "applied" } }), 409, "conflict");
    expectError(await api(c.hr.agent).op("updateCandidate", { params: { id: cand.id }, body: {} }), 400, "validation_failed");
  });

  it("lists with filters, search and sorting", async () => {
    const p = await openPosting(c.hr.agent);
    const a = await addCandidate(c.hr.agent, p.id, {
      first_name: "Zara",
      last_name: "Khan",
      email: `zara.${uniq()}@example.test`,
      skills: ["figma"],
      source: "linkedin",
    });
    const b = await addCandidate(c.hr.agent, p.id, { first_name: "Aman", last_name: "Verma", phone: "+91 99887 76655" });
    await t.query(`UPDATE candidates SET screening_score = 91 WHERE id = $1`, [b.id]);
    await t.query(`UPDATE candidates SET screening_score = 40 WHERE id = $1`, [a.id]);
    const byScore = await api(c.hr.agent)
      .op("listCandidates", { query: { posting_id: p.id, sort: "screening_score" } })
      .expect(200);
    expect(byScore.body.data.map((x) => x.id)).toEqual([b.id, a.id]);
    const byName = await api(c.hr.agent)
      .op("listCandidates", { query: { posting_id: p.id, sort: "name" } })
      .expect(200);
    expect(byName.body.data.map((x) => x.last_name)).toEqual(["Khan", "Verma"]);
    expect(
      (
        await api(c.hr.agent)
          .op("listCandidates", { query: { search: "zara khan" } })
          .expect(200)
      ).body.data.map((x) => x.id),
    ).toEqual([a.id]);
    // by phone: two groups of its digits with the space between (digits alone can occur in other
    // candidates' addresses, whose unique part is made of the clock's digits - test/recruitment/fixtures.ts)
    const byPhone = await api(c.hr.agent)
      .op("listCandidates", { query: { search: "99887 76655" } })
      .expect(200);
    expect(byPhone.body.data.map((x) => x.id)).toEqual([b.id]);
    expect(
      (
        await api(c.hr.agent)
          .op("listCandidates", { query: { skill: "FIGMA" } })
          .expect(200)
      ).body.data.map((x) => x.id),
    ).toEqual([a.id]);
    expect(
      (
        await api(c.hr.agent)
          .op("listCandidates", { query: { source: "linkedin" } })
          .expect(200)
      ).body.data.map((x) => x.id),
    ).toEqual([a.id]);
    expect(
      (
        await api(c.hr.agent)
          .op("listCandidates", { query: { posting_id: p.id, stage: "applied", limit: 1 } })
          .expect(200)
      ).body.pagination,
    ).toMatchObject({ total: 2, total_pages: 2 });
    expectError(await c.hr.agent.get(`/api/recruitment/candidates?sort=age`), 400, "validation_failed");
  });

  it("shows managers their department's candidates and those they interview, read-only", async () => {
    const fin = await openPosting(c.hr.agent, { department: "Finance" });
    const finCand = await addCandidate(c.hr.agent, fin.id);
    const engCand = await addCandidate(c.hr.agent, posting.id);
    await api(c.manager.agent)
      .op("getCandidate", { params: { id: engCand.id } })
      .expect(200);
    expectError(await api(c.manager.agent).op("getCandidate", { params: { id: finCand.id } }), 404, "not_found");
    await advance(c.hr.agent, finCand.id, "screening");
    await api(c.hr.agent)
      .op("createInterview", {
        body: {
          candidate_id: finCand.id,
          round_name: "Panel",
          scheduled_at: isoIn(2),
          mode: "phone",
          interviewer_user_ids: [c.manager.userId],
        },
      })
      .expect(201);
    await api(c.manager.agent)
      .op("getCandidate", { params: { id: finCand.id } })
      .expect(200);
    const list = await api(c.manager.agent)
      .op("listCandidates", { query: { limit: 100 } })
      .expect(200);
    expect(list.body.data.map((x) => x.id)).toEqual(expect.arrayContaining([engCand.id, finCand.id]));
    expect(list.body.data.every((x) => x.department === "Engineering" || x.id === finCand.id)).toBe(true);
    expectError(
      await api(c.manager.agent).op("updateCandidate", { params: { id: engCand.id }, body: { stage: "screening" } }),
      403,
      "forbidden",
    );
    expectError(
      await api(c.manager.agent).op("createCandidate", {
        body: { posting_id: posting.id, first_name: "A", last_name: "B", email: "m@b.test" },
      }),
      403,
      "forbidden",
    );
    expectError(await api(c.manager.agent).op("deleteCandidate", { params: { id: engCand.id } }), 403, "forbidden");
    expectError(await api(c.employee.agent).op("listCandidates"), 403, "forbidden");
  });

  it("deletes (soft) unless an offer is out; scheduled interviews are cancelled", async () => {
    const { candidate, offer } = await draftOffer(c.hr.agent);
    await api(c.hr.agent)
      .op("sendJobOffer", { params: { id: offer.id } })
      .expect(200);
    expectError(await api(c.hr.agent).op("deleteCandidate", { params: { id: candidate.id } }), 409, "conflict");
    await api(c.hr.agent)
      .op("updateJobOffer", { params: { id: offer.id }, body: { status: "withdrawn" } })
      .expect(200);
    await api(c.hr.agent)
      .op("deleteCandidate", { params: { id: candidate.id } })
      .expect(200);
    expectError(await api(c.hr.agent).op("getCandidate", { params: { id: candidate.id } }), 404, "not_found");
    expectError(await api(c.hr.agent).op("getJobOffer", { params: { id: offer.id } }), 404, "not_found");
    const [row] = await t.query(`SELECT deleted_at FROM candidates WHERE id = $1`, [candidate.id]);
    expect(row.deleted_at).not.toBeNull();
    // The email is free again on the posting.
    await addCandidate(c.hr.agent, candidate.posting_id, { email: candidate.email });
  });
});

describe(
  "listTalentPoolCandidates, createTalentPoolCandidate, getTalentPoolCandidate, " +
    "updateTalentPoolCandidate, deleteTalentPoolCandidate: talent pool",
  () => {
    it("keeps people with skills and tags, searchable", async () => {
      const a = await api(c.hr.agent)
        .op("createTalentPoolCandidate", {
          body: {
            first_name: "Arjun",
            last_name: "Mehta",
            email: `arjun.${uniq()}@example.test`,
            current_title: "Data Engineer",
            experience_years: 4,
            location: "Bengaluru",
            skills: ["Python", "Spark", "SQL"],
            tags: ["Silver-Medalist"],
          },
        })
        .expect(201);
      expect(a.body.data).toMatchObject({
        skills: ["python", "spark", "sql"],
        tags: ["silver-medalist"],
        full_name: "Arjun Mehta",
        added_by_user_id: c.hr.userId,
        source: "direct",
        candidate_id: null,
      });
      const b = await api(c.hr.agent)
        .op("createTalentPoolCandidate", {
          body: {
            first_name: "Neha",
            last_name: "Iyer",
            email: `neha.${uniq()}@example.test`,
            experience_years: 8,
            skills: ["python", "django"],
            tags: ["bengaluru"],
            notes: "Great at mentoring",
          },
        })
        .expect(201);
      const ids = (r: { body: { data: { id: string }[] } }) => r.body.data.map((x) => x.id);
      expect(
        ids(
          await api(c.hr.agent)
            .op("listTalentPoolCandidates", { query: { skills: "python,spark" } })
            .expect(200),
        ),
      ).toEqual([a.body.data.id]);
      expect(
        ids(
          await api(c.hr.agent)
            .op("listTalentPoolCandidates", { query: { skills: "PYTHON" } })
            .expect(200),
        ),
      ).toEqual(expect.arrayContaining([a.body.data.id, b.body.data.id]));
      expect(
        ids(
          await api(c.hr.agent)
            .op("listTalentPoolCandidates", { query: { tag: "Silver-Medalist" } })
            .expect(200),
        ),
      ).toEqual([a.body.data.id]);
      expect(
        ids(
          await api(c.hr.agent)
            .op("listTalentPoolCandidates", { query: { min_experience_years: 5, skills: "python" } })
            .expect(200),
        ),
      ).toEqual([b.body.data.id]);
      expect(
        ids(
          await api(c.hr.agent)
            .op("listTalentPoolCandidates", { query: { search: "mentoring" } })
            .expect(200),
        ),
      ).toEqual([b.body.data.id]);
      expect(
        ids(
          await api(c.hr.agent)
            .op("listTalentPoolCandidates", { query: { search: "bengaluru" } })
            .expect(200),
        ),
      ).toEqual([a.body.data.id]);
      expect(
        ids(
          await api(c.hr.agent)
            .op("listTalentPoolCandidates", { query: { search: "arjun mehta" } })
            .expect(200),
        ),
      ).toEqual([a.body.data.id]);

      expectError(
        await api(c.hr.agent).op("createTalentPoolCandidate", {
          body: { first_name: "X", last_name: "Y", email: a.body.data.email.toUpperCase() },
        }),
        409,
        "conflict",
      );
      const miss = expectDetails(
        await api(c.hr.agent).op("createTalentPoolCandidate", { body: { first_name: "X" } }),
        400,
        "validation_failed",
      );
      expect(miss.details.map((d: { path: string }) => d.path)).toEqual(["body.last_name", "body.email"]);
      const upd = await api(c.hr.agent)
        .op("updateTalentPoolCandidate", { params: { id: a.body.data.id }, body: { tags: ["rehire", "REHIRE"], notes: "Call in Q3" } })
        .expect(200);
      expect(upd.body.data).toMatchObject({ tags: ["rehire"], notes: "Call in Q3" });
      expectError(
        await api(c.hr.agent).op("updateTalentPoolCandidate", { params: { id: a.body.data.id }, body: { email: b.body.data.email } }),
        409,
        "conflict",
      );
      await api(c.hr.agent)
        .op("getTalentPoolCandidate", { params: { id: a.body.data.id } })
        .expect(200);
      await api(c.hr.agent)
        .op("deleteTalentPoolCandidate", { params: { id: a.body.data.id } })
        .expect(200);
      expectError(await api(c.hr.agent).op("getTalentPoolCandidate", { params: { id: a.body.data.id } }), 404, "not_found");
      await api(c.hr.agent)
        .op("createTalentPoolCandidate", { body: { first_name: "Arjun", last_name: "Mehta", email: a.body.data.email } })
        .expect(201);
      expectError(await api(c.manager.agent).op("listTalentPoolCandidates"), 403, "forbidden");
    });

    it("keeps a rejected candidate for later and brings them back to a new posting", async () => {
      const cand = await addCandidate(c.hr.agent, posting.id, {
        skills: ["kotlin", "android"],
        current_title: "Mobile Dev",
        experience_years: 3,
      });
      await api(c.hr.agent)
        .op("updateCandidate", { params: { id: cand.id }, body: { stage: "rejected" } })
        .expect(200);
      const pool = await api(c.hr.agent)
        .op("createTalentPoolCandidate", { body: { candidate_id: cand.id, tags: ["mobile"] } })
        .expect(201);
      expect(pool.body.data).toMatchObject({
        candidate_id: cand.id,
        email: cand.email,
        skills: ["kotlin", "android"],
        current_title: "Mobile Dev",
        experience_years: 3,
        tags: ["mobile"],
      });
      const p2 = await openPosting(c.hr.agent);
      const back = await api(c.hr.agent)
        .op("createCandidate", { body: { posting_id: p2.id, talent_pool_candidate_id: pool.body.data.id } })
        .expect(201);
      expect(back.body.data).toMatchObject({
        first_name: "Priya",
        email: cand.email,
        source: "talent_pool",
        skills: ["kotlin", "android"],
        stage: "applied",
      });
      expectError(
        await api(c.hr.agent).op("createTalentPoolCandidate", { body: { candidate_id: "00000000-0000-4000-8000-000000000000" } }),
        400,
        "validation_failed",
      );
    });
  },
);
