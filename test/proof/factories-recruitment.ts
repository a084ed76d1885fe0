// Proof-harness factories of the recruitment area (merged into test/proof/factories.ts; see its header
// for what a factory, a scope, `decidedByOthers` and `requests` mean).
//
// The records are walked through the API as a recruiter would: requisition (draft → pending
// approval → approved) → posting (open) → candidate (applied → screening → interview) → interview /
// session / offer (draft → sent; accepted by the candidate through the mailed link) → hired. The
// candidate's link tokens are read from the mail in the outbox (only their hash is stored).
//
// States chosen so that most operations of a resource get a 2xx from its factory's record:
//  - requisitions are drafts raised by the holder (managers reach only those they raised);
//  - postings and candidates are in the holder's department (managers see their department's);
//  - interviews have the holder as interviewer (managers see and complete only those) and have
//    already started (scheduled in the future through the API, then moved 90 minutes back: the
//    outcome is recorded only once an interview has started);
//  - candidates are hired (accepted offer): convert-to-employee is reachable (201); their stage is
//    final, so their update is a field change, and deleting them is a 409 by design;
//  - offers are drafts: update/delete/send answer 2xx; send-appointment is a 409 (accepted offers
//    only - proven with the public appointment link's factory, which sends it).
import {
  call,
  DAY,
  employeeOf,
  fromToday,
  rowOf,
  token,
  type Factory,
  type FactoryContext,
  type Holder,
  type RequestInput,
  type Scope,
} from "./factory-kit.ts";
import * as clock from "../../src/lib/clock.ts";

type Ctx = Omit<FactoryContext, "parents">;

const RECRUITERS = ["owner", "admin", "hr"];
const recruiting = (why: string): Scope => ({ tenant: `recruitment records: run by owner/admin/hr${why}; no employee operation` });
const candidateLink: Scope = { tenant: "a candidate's personal link: the token, not a session, picks the company and the offer" };

/** A unique candidate address (the link mails are found by it). */
const candidateEmail = () => `proof.candidate.${token("").toLowerCase()}@example.test`;
const inDays = (days: number) => new Date(clock.nowMs() + days * DAY).toISOString();

async function roleOf(ctx: Ctx, h: Holder): Promise<string | undefined> {
  return (
    await ctx.t.query<{ role: string }>(`SELECT role FROM memberships WHERE tenant_id = $1 AND user_id = $2`, [h.tenantId, h.userId])
  )[0]?.role;
}

/** The department of the holder's employee record (managers see the postings and candidates of theirs). */
async function departmentOf(ctx: Ctx): Promise<string> {
  const employeeId = await employeeOf(ctx);
  return (
    (await ctx.t.query<{ department: string | null }>(`SELECT department FROM employees WHERE id = $1`, [employeeId]))[0]?.department ??
    "Engineering"
  );
}

/** An approved requisition (raised and approved by the owner) with a posting in `department`. */
async function newPosting(ctx: Ctx, department: string) {
  const a = ctx.owner.agent;
  const req = await call(a, "createJobRequisition", {
    body: {
      title: `Proof ${token("")}`,
      department,
      positions: 2,
      employment_type: "full_time",
      status: "pending_approval",
    },
  });
  await call(a, "updateJobRequisition", {
    params: { id: req.id },
    body: { status: "approved", decision_notes: "Proof: budget confirmed" },
  });
  return call(a, "createJobPosting", {
    body: {
      requisition_id: req.id,
      description: "Build and run the proof platform.",
      requirements: "4+ years with TypeScript and PostgreSQL.",
      skills: ["typescript", "postgresql"],
      status: "open",
    },
  });
}

const openPostings = new Map<string, Promise<string>>(); // tenant:department -> posting id
/** An open posting of the holder's department, shared by the candidates of a tenant (created again when it was closed). */
async function openPostingOf(ctx: Ctx): Promise<string> {
  const department = await departmentOf(ctx);
  const key = `${ctx.owner.tenantId}:${department}`;
  const known = await openPostings.get(key)?.catch(() => undefined);
  if (known && (await ctx.t.query(`SELECT 1 FROM job_postings WHERE id = $1 AND status = 'open' AND deleted_at IS NULL`, [known])).length)
    return known;
  const created = newPosting(ctx, department).then((p) => p.id as string);
  openPostings.set(key, created);
  return created;
}

/** A candidate of an open posting of the holder's department, moved on to `stage`. */
async function newCandidate(ctx: Ctx, stage: "applied" | "screening" | "interview" = "applied") {
  const a = ctx.owner.agent;
  const c = await call(a, "createCandidate", {
    body: {
      posting_id: await openPostingOf(ctx),
      first_name: "Proof",
      last_name: `Candidate ${token("")}`,
      email: candidateEmail(),
      phone: "+91 98765 43210",
      resume_text: "Backend engineer with 6 years of TypeScript, Node.js and PostgreSQL.",
      skills: ["typescript", "postgresql"],
    },
  });
  const order = ["applied", "screening", "interview"] as const;
  for (const s of order.slice(1, order.indexOf(stage) + 1)) await call(a, "updateCandidate", { params: { id: c.id }, body: { stage: s } });
  return c as { id: string; email: string };
}

/** A draft offer to a candidate in interview (who moves to `offer`). */
async function draftOffer(ctx: Ctx) {
  const candidate = await newCandidate(ctx, "interview");
  const offer = await call(ctx.owner.agent, "createJobOffer", {
    body: {
      candidate_id: candidate.id,
      salary: "2400000.00",
      joining_date: fromToday(40),
      expires_on: fromToday(14),
      terms: "Proof: includes a joining bonus.",
    },
  });
  return { candidate, offer: offer as { id: string } };
}

/** The token of the newest link of `kind` mailed to `email` (the outbox keeps the mail; the database only its hash). */
async function mailedToken(ctx: Ctx, email: string, kind: "offers" | "appointment"): Promise<string> {
  const [mail] = await ctx.t.query<{ text_body: string }>(
    `SELECT text_body FROM email_outbox WHERE to_address = $1 AND text_body LIKE $2 ORDER BY created_at DESC LIMIT 1`,
    [email, `%/api/public/${kind}/%`],
  );
  const m = new RegExp(`/api/public/${kind}/([A-Za-z0-9_-]+)`).exec(mail?.text_body ?? "");
  if (!m) throw new Error(`no ${kind} link mailed to ${email}`);
  return m[1];
}

/** A sent offer and the token of its link. */
async function sentOffer(ctx: Ctx) {
  const d = await draftOffer(ctx);
  await call(ctx.owner.agent, "sendJobOffer", { params: { id: d.offer.id } });
  return { ...d, token: await mailedToken(ctx, d.candidate.email, "offers") };
}

/** An offer the candidate accepted through their link (without a session). */
async function acceptedOffer(ctx: Ctx) {
  const s = await sentOffer(ctx);
  await call(ctx.t.request(), "acceptPublicOffer", { params: { token: s.token } });
  return s;
}

export const factories: Record<string, Factory> = {
  "/api/recruitment/job-requisitions/{id}": {
    scope: recruiting(", requisitions also by managers, who reach only those they raised (404 otherwise)"),
    async create(ctx) {
      // raised by the holder where they may raise one: a manager reaches only their own
      const agent =
        ctx.holder.agent && [...RECRUITERS, "manager"].includes((await roleOf(ctx, ctx.holder)) ?? "") ? ctx.holder.agent : ctx.owner.agent;
      const r = await call(agent, "createJobRequisition", {
        body: {
          title: `Proof ${token("")}`,
          department: await departmentOf(ctx),
          positions: 2,
          employment_type: "full_time",
          justification: "Proof: growth",
        },
      });
      return { id: r.id, snapshot: rowOf(ctx.t, "job_requisitions", r.id) };
    },
  },

  "/api/recruitment/job-postings/{id}": {
    scope: recruiting(", postings are read by managers of their department"),
    async create(ctx) {
      const p = await newPosting(ctx, await departmentOf(ctx));
      return { id: p.id, snapshot: rowOf(ctx.t, "job_postings", p.id) };
    },
  },

  "/api/recruitment/candidates/{id}": {
    scope: recruiting(", candidates are read by managers of their department's postings and by their interviewers"),
    async create(ctx) {
      // hired (an accepted offer): convert-to-employee is reachable
      const { candidate } = await acceptedOffer(ctx);
      await call(ctx.owner.agent, "updateCandidate", { params: { id: candidate.id }, body: { stage: "hired" } });
      return { id: candidate.id, snapshot: rowOf(ctx.t, "candidates", candidate.id) };
    },
  },

  "/api/recruitment/interviews/{id}": {
    scope: recruiting(", interviews are read and completed by managers who are on their panel"),
    async create(ctx) {
      const candidate = await newCandidate(ctx, "screening");
      // the holder is on the panel where they may interview (managers reach only such interviews)
      const interviewer = [...RECRUITERS, "manager"].includes((await roleOf(ctx, ctx.holder)) ?? "") ? ctx.holder.userId : ctx.owner.userId;
      const i = await call(ctx.owner.agent, "createInterview", {
        body: {
          candidate_id: candidate.id,
          round_name: "Technical",
          scheduled_at: inDays(2),
          duration_minutes: 60,
          mode: "video",
          meeting_url: "https://meet.example.com/proof-interview",
          interviewer_user_ids: [interviewer],
        },
      });
      // it has taken place: its outcome can be recorded (the API schedules in the future only)
      await ctx.t.query(`UPDATE interviews SET scheduled_at = $2 WHERE id = $1`, [i.id, new Date(clock.nowMs() - 90 * 60_000)]);
      return { id: i.id, snapshot: rowOf(ctx.t, "interviews", i.id) };
    },
  },

  "/api/recruitment/interview-management-sessions/{id}": {
    scope: recruiting(""),
    async create(ctx) {
      const candidate = await newCandidate(ctx);
      const s = await call(ctx.owner.agent, "createInterviewSession", {
        body: {
          candidate_id: candidate.id,
          title: `Proof ${token("")}`,
          scheduled_at: inDays(5),
          duration_minutes: 45,
          mode: "video",
          meeting_url: "https://meet.example.com/proof-session",
          instructions: "Proof: join five minutes early.",
        },
      });
      return { id: s.id, snapshot: rowOf(ctx.t, "interview_sessions", s.id) };
    },
  },

  "/api/recruitment/offers/{id}": {
    scope: recruiting(""),
    async create(ctx) {
      const { offer } = await draftOffer(ctx);
      return { id: offer.id, snapshot: rowOf(ctx.t, "job_offers", offer.id) };
    },
  },

  "/api/recruitment/talent-pool-candidates/{id}": {
    scope: recruiting(""),
    async create(ctx) {
      const e = await call(ctx.owner.agent, "createTalentPoolCandidate", {
        body: {
          first_name: "Proof",
          last_name: `Talent ${token("")}`,
          email: candidateEmail(),
          current_title: "Data Engineer",
          experience_years: 4,
          skills: ["python", "sql"],
          tags: ["proof"],
        },
      });
      return { id: e.id, snapshot: rowOf(ctx.t, "talent_pool_candidates", e.id) };
    },
  },

  // The candidate's links: the id is the raw token mailed to them, a fresh offer each time
  // (accepting or declining consumes it).
  "/api/public/offers/{token}": {
    scope: candidateLink,
    async create(ctx) {
      const { offer, token: link } = await sentOffer(ctx);
      return { id: link, snapshot: rowOf(ctx.t, "job_offers", offer.id) };
    },
  },

  "/api/public/appointment/{token}": {
    scope: candidateLink,
    async create(ctx) {
      const { offer, candidate } = await acceptedOffer(ctx);
      await call(ctx.owner.agent, "sendAppointmentLetter", { params: { id: offer.id } });
      const link = await mailedToken(ctx, candidate.email, "appointment");
      const row = rowOf(ctx.t, "job_offers", offer.id);
      return {
        id: link,
        snapshot: async () => ({
          offer: await row(),
          documents: await ctx.t.query(
            `SELECT id, document_type, title, file_id FROM appointment_documents WHERE offer_id = $1 ORDER BY id`,
            [offer.id],
          ),
        }),
      };
    },
  },
};

export const operationScopes: Record<string, Scope> = {};

export const decidedByOthers: string[] = [];

export const requests: Record<string, (ids: Record<string, string>) => Partial<RequestInput>> = {
  // the sample approves, which is for owner/admin/hr only (403 for managers by design); submitting
  // one's draft is what every role of x-roles may do
  updateJobRequisition: () => ({ body: { status: "pending_approval" } }),
  // the factory's candidate is hired (a final stage): a change of their details
  updateCandidate: () => ({ body: { notes: "Proof: joining documents checked", current_title: "Senior Engineer" } }),
  // the example's reports_to is no employee of the company (400)
  convertCandidateToEmployee: () => ({ body: { designation: "Proof Engineer" } }),
};
