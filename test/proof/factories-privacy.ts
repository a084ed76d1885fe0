// Proof-harness factories of the privacy area (merged into test/proof/factories.ts; see its header
// for what a factory, a scope, `decidedByOthers` and `requests` mean).
//
//  - a request is the holder's own (about the employee record linked to them), an access request
//    logged by the owner on their behalf: the holder reads and withdraws it; an hr holder is made
//    the company's grievance officer, so that deciding is reachable for every role of x-roles;
//  - legal holds and breaches are the company's (owner/admin);
//  - a candidate's privacy link is mailed to a candidate of the recruitment factory; the id is the
//    raw token read from the outbox (only its hash is stored).
import { call, employeeOf, type Factory, type FactoryContext, rowOf, type RequestInput, type Scope } from "./factory-kit.ts";
import { factories as recruitment } from "./factories-recruitment.ts";
import * as clock from "../../src/lib/clock.ts";

type Ctx = Omit<FactoryContext, "parents">;

const company = (what: string): Scope => ({ tenant: `${what}: the company's privacy records, run by owners and admins` });

async function candidate(ctx: FactoryContext): Promise<string> {
  return (await recruitment["/api/recruitment/candidates/{id}"].create(ctx)).id;
}

async function roleOf(ctx: Ctx): Promise<string | undefined> {
  return (
    await ctx.t.query<{ role: string }>(`SELECT role FROM memberships WHERE tenant_id = $1 AND user_id = $2`, [
      ctx.holder.tenantId,
      ctx.holder.userId,
    ])
  )[0]?.role;
}

export const factories: Record<string, Factory> = {
  "/api/privacy/requests/{id}": {
    scope: "own",
    async create(ctx) {
      const employeeId = await employeeOf(ctx);
      if ((await roleOf(ctx)) === "hr")
        await call(ctx.owner.agent, "updatePrivacySettings", { body: { grievance_officer_user_id: ctx.holder.userId } });
      // one open request of a type per person: earlier ones of the proof are closed first
      await ctx.t.query(
        `UPDATE privacy_requests SET status = 'withdrawn' WHERE employee_id = $1 AND status IN ('received', 'in_progress')`,
        [employeeId],
      );
      const r = await call(ctx.owner.agent, "createPrivacyRequest", {
        body: {
          type: "access",
          employee_id: employeeId,
          description: "Proof: what do you hold about me?",
        },
      });
      await ctx.t.query(`UPDATE privacy_requests SET requested_by = $2 WHERE id = $1`, [r.id, ctx.holder.userId]);
      return { id: r.id, snapshot: rowOf(ctx.t, "privacy_requests", r.id) };
    },
  },

  "/api/privacy/legal-holds/{id}": {
    scope: company("legal holds"),
    async create(ctx) {
      const h = await call(ctx.owner.agent, "createLegalHold", {
        body: {
          employee_id: await employeeOf(ctx),
          reason: "Proof: inspection",
        },
      });
      return { id: h.id, snapshot: rowOf(ctx.t, "legal_holds", h.id) };
    },
  },

  "/api/privacy/breaches/{id}": {
    scope: company("the breach register"),
    async create(ctx) {
      const b = await call(ctx.owner.agent, "createPrivacyBreach", {
        body: {
          title: "Proof breach",
          description: "Proof: a laptop with an export was lost.",
          nature: "confidentiality",
          data_categories: ["contact details"],
          affected_employee_ids: [await employeeOf(ctx)],
          became_aware_at: new Date(clock.nowMs() - 3_600_000).toISOString(), // an hour ago by the server's clock
          likely_impact: "Proof: disclosure of contact details.",
        },
      });
      return { id: b.id, snapshot: rowOf(ctx.t, "privacy_breaches", b.id) };
    },
  },

  "/api/privacy/candidates/{candidateId}": {
    scope: { tenant: "recruitment records: a candidate's privacy link is mailed by owner/admin/hr" },
    async create(ctx) {
      const id = await candidate({ ...ctx, parents: {} });
      return { id, snapshot: rowOf(ctx.t, "candidates", id) };
    },
  },

  "/api/public/privacy/{token}": {
    scope: { tenant: "a candidate's personal link: the token, not a session, picks the company and the candidate" },
    async create(ctx) {
      const id = await candidate({ ...ctx, parents: {} });
      await call(ctx.owner.agent, "sendCandidatePrivacyLink", { params: { candidateId: id } });
      const [mail] = await ctx.t.query<{ text_body: string }>(
        `SELECT c.email, o.text_body FROM candidates c JOIN email_outbox o ON o.to_address = c.email::text
          WHERE c.id = $1 AND o.text_body LIKE '%/api/public/privacy/%' ORDER BY o.created_at DESC LIMIT 1`,
        [id],
      );
      const m = /\/api\/public\/privacy\/([A-Za-z0-9_-]+)/.exec(mail?.text_body ?? "");
      if (!m) throw new Error("no privacy link mailed");
      const row = rowOf(ctx.t, "candidates", id);
      return {
        id: m[1],
        snapshot: async () => ({
          candidate: await row(),
          consents: await ctx.t.query(`SELECT purpose, withdrawn_at FROM candidate_consents WHERE candidate_id = $1`, [id]),
          requests: await ctx.t.query(`SELECT id, status FROM privacy_requests WHERE candidate_id = $1 ORDER BY id`, [id]),
        }),
      };
    },
  },
};

export const operationScopes: Record<string, Scope> = {};

export const decidedByOthers: string[] = [];

export const requests: Record<string, (ids: Record<string, string>) => Partial<RequestInput>> = {
  // the example's version 0 is the built-in notice: acknowledged in the app
  acknowledgePrivacyNotice: () => ({ body: { version: 0, context: "app" } }),
  acknowledgePublicPrivacyNotice: () => ({ body: { version: 0 } }),
  // a member's own request (the example's corrections need a correction of their record)
  createPrivacyRequest: () => ({ body: { type: "grievance", description: "Proof: a complaint" } }),
  // acknowledging is what every decider may do on any request
  decidePrivacyRequest: () => ({ body: { status: "in_progress" } }),
};
