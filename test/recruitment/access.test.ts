// Access to every recruitment operation, read from the generated registry so that a new operation
// is covered automatically: the module gate (403 module_disabled), roles (employees are kept out,
// managers only where the document lets them in), sessions (401), and another company's ids (404
// on every operation that takes an id).
import { beforeAll, describe, expect, it } from "vitest";
import { operationTable, type OperationId } from "../../generated/registry.ts";
import { expectDetails, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { addCandidate, advance, dateIn, draftOffer, isoIn, recruitingCompany, type Company } from "./fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const NIL = "00000000-0000-4000-8000-000000000000";

const ops = (Object.keys(operationTable) as OperationId[]).filter(
  (id) => operationTable[id].area === "recruitment" && !operationTable[id].public,
);

/** A body that passes the document's validation for each operation taking one. */
const BODIES: Partial<Record<OperationId, object>> = {
  updateInterviewPanel: { rating_scale: 5 },
  createJobRequisition: { title: "Role", department: "Engineering" },
  updateJobRequisition: { positions: 2 },
  createJobPosting: { requisition_id: NIL, description: "x" },
  updateJobPosting: { title: "New title" },
  createCandidate: { posting_id: NIL, first_name: "A", last_name: "B", email: "a.b@example.test" },
  updateCandidate: { notes: "x" },
  convertCandidateToEmployee: {},
  createInterview: { candidate_id: NIL, scheduled_at: isoIn(3) },
  updateInterview: { duration_minutes: 30 },
  createInterviewSession: { candidate_id: NIL },
  updateInterviewSession: { title: "x" },
  createJobOffer: { candidate_id: NIL, salary: "100.00", joining_date: dateIn(30), expires_on: dateIn(5) },
  updateJobOffer: { terms: "x" },
  createTalentPoolCandidate: { first_name: "A", last_name: "B", email: "a.b@example.test" },
  updateTalentPoolCandidate: { notes: "x" },
  previewDocumentTemplatePdf: { template: "Hello" },
  generateJobDescription: { title: "Engineer", department: "Engineering", requirements: "TypeScript" },
  screenResume: { resume_text: "TypeScript", job_requirements: "TypeScript" },
  generateInterviewQuestions: { requirements: "TypeScript" },
  generateRecruitmentContent: { type: "job_post" },
};

function call(agent: TenantSession["agent"], id: OperationId, params: Record<string, string> = {}) {
  const meta = operationTable[id];
  const path = meta.path.replace(/\{(\w+)\}/g, (_, name) => params[name] ?? NIL);
  const req = agent[meta.method](path);
  const body = BODIES[id];
  return body ? req.send(body) : req;
}

let c: Company;
let off: TenantSession;

beforeAll(async () => {
  c = await recruitingCompany(t);
  off = await signupTenant(t); // recruitment module not enabled
});

describe("recruitment access", () => {
  it("covers every operation of the area with a body that validates", () => {
    expect(ops.length).toBeGreaterThanOrEqual(45);
    for (const id of ops) {
      const m = operationTable[id];
      if (m.method === "post" || m.method === "put")
        expect(BODIES[id] !== undefined || ["sendJobOffer", "sendAppointmentLetter", "sendInterviewSession"].includes(id), id).toBe(true);
    }
  });

  it("answers 403 module_disabled while the company has not enabled recruitment", async () => {
    for (const id of ops) expectError(await call(off.agent, id), 403, "module_disabled");
  });

  it("answers 401 without a session", async () => {
    for (const id of ops) expectError(await call(t.request(), id), 401, "unauthenticated");
  });

  it("keeps employees out of the whole module and managers out of what is not theirs", async () => {
    for (const id of ops) {
      expect(operationTable[id].roles, id).not.toContain("employee");
      expectError(await call(c.employee.agent, id), 403, "forbidden");
    }
    const notForManagers = ops.filter((id) => !(operationTable[id].roles as readonly string[]).includes("manager"));
    expect(notForManagers).toEqual(
      expect.arrayContaining([
        "createJobPosting",
        "createCandidate",
        "listJobOffers",
        "sendJobOffer",
        "convertCandidateToEmployee",
        "listTalentPoolCandidates",
        "listInterviewSessions",
        "previewDocumentTemplatePdf",
      ]),
    );
    for (const id of notForManagers) expectError(await call(c.manager.agent, id), 403, "forbidden");
  });

  it("answers 404 for another company's ids on every operation that takes one", async () => {
    // Company A's records, one of each kind.
    const { posting, candidate, offer } = await draftOffer(c.hr.agent);
    const screened = await addCandidate(c.hr.agent, posting.id);
    await advance(c.hr.agent, screened.id, "screening");
    const interview = (
      await api(c.hr.agent)
        .op("createInterview", {
          body: {
            candidate_id: screened.id,
            round_name: "Tech",
            scheduled_at: isoIn(2),
            mode: "phone",
            interviewer_user_ids: [c.hr.userId],
          },
        })
        .expect(201)
    ).body.data;
    const session = (
      await api(c.hr.agent)
        .op("createInterviewSession", { body: { candidate_id: screened.id, interview_id: interview.id } })
        .expect(201)
    ).body.data;
    const talent = (
      await api(c.hr.agent)
        .op("createTalentPoolCandidate", { body: { first_name: "T", last_name: "P", email: "t.p@example.test" } })
        .expect(201)
    ).body.data;
    const ids: Record<string, string> = {
      "/api/recruitment/job-requisitions/{id}": posting.requisition_id,
      "/api/recruitment/job-postings/{id}": posting.id,
      "/api/recruitment/candidates/{id}": candidate.id,
      "/api/recruitment/candidates/{id}/convert-to-employee": candidate.id,
      "/api/recruitment/interviews/{id}": interview.id,
      "/api/recruitment/interview-management-sessions/{id}": session.id,
      "/api/recruitment/interview-management-sessions/{id}/send": session.id,
      "/api/recruitment/offers/{id}": offer.id,
      "/api/recruitment/offers/{id}/send": offer.id,
      "/api/recruitment/offers/{id}/send-appointment": offer.id,
      "/api/recruitment/offers/{id}/pdf": offer.id,
      "/api/recruitment/talent-pool-candidates/{id}": talent.id,
    };
    const withId = ops.filter((id) => operationTable[id].path.includes("{id}"));
    expect(withId.length).toBe(26); // 7 resources × GET/PUT/DELETE + convert + 3 sends + the offer's PDF
    const b = await recruitingCompany(t);
    for (const id of withId) {
      const own = ids[operationTable[id].path];
      expect(own, operationTable[id].path).toBeDefined();
      expectError(await call(b.owner.agent, id, { id: own }), 404, "not_found");
    }
    // Nothing of company A changed.
    const [o] = await t.query(`SELECT status, terms FROM job_offers WHERE id = $1`, [offer.id]);
    expect(o).toMatchObject({ status: "draft", terms: null });
    expect((await t.query(`SELECT deleted_at FROM candidates WHERE id = $1`, [candidate.id]))[0].deleted_at).toBeNull();
    // References in bodies to another company's records are invalid input.
    expect(
      expectDetails(
        await api(b.hr.agent).op("createJobPosting", { body: { requisition_id: posting.requisition_id, description: "x" } }),
        400,
      ).details[0].path,
    ).toBe("body.requisition_id");
    expect(
      expectDetails(
        await api(b.hr.agent).op("createCandidate", {
          body: { posting_id: posting.id, first_name: "A", last_name: "B", email: "x@y.test" },
        }),
        400,
      ).details[0].path,
    ).toBe("body.posting_id");
    expect(
      expectDetails(
        await api(b.hr.agent).op("createJobOffer", {
          body: { candidate_id: candidate.id, salary: "1.00", joining_date: dateIn(30), expires_on: dateIn(5) },
        }),
        400,
      ).details[0].path,
    ).toBe("body.candidate_id");
    expect(
      expectDetails(
        await api(b.hr.agent).op("createInterview", {
          body: { candidate_id: screened.id, round_name: "X", scheduled_at: isoIn(2), mode: "phone", interviewer_user_ids: [b.hr.userId] },
        }),
        400,
      ).details[0].path,
    ).toBe("body.candidate_id");
    expect(
      expectDetails(
        await api(b.hr.agent).op("createInterviewSession", { body: { candidate_id: screened.id, scheduled_at: isoIn(2), mode: "phone" } }),
        400,
      ).details[0].path,
    ).toBe("body.candidate_id");
    expect(
      expectDetails(await api(b.hr.agent).op("createTalentPoolCandidate", { body: { candidate_id: candidate.id } }), 400).details[0].path,
    ).toBe("body.candidate_id");
    expect(
      expectDetails(await api(b.hr.agent).op("previewDocumentTemplatePdf", { body: { template: "x", offer_id: offer.id } }), 400).details[0]
        .path,
    ).toBe("body.offer_id");
    expect(expectDetails(await api(b.hr.agent).op("screenResume", { body: { candidate_id: candidate.id } }), 400).details[0].path).toBe(
      "body.candidate_id",
    );
    expect(
      expectDetails(
        await api(b.hr.agent).op("createInterview", {
          body: { candidate_id: NIL, round_name: "X", scheduled_at: isoIn(2), mode: "phone", interviewer_user_ids: [c.hr.userId] },
        }),
        400,
      ).details[0].path,
    ).toBe("body.candidate_id");
    // Lists never show another company's records.
    for (const path of [
      "job-requisitions",
      "job-postings",
      "candidates",
      "interviews",
      "interview-management-sessions",
      "offers",
      "talent-pool-candidates",
    ])
      expect((await b.owner.agent.get(`/api/recruitment/${path}`).expect(200)).body.data, path).toEqual([]);
  });
});
