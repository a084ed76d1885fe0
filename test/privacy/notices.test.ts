// The privacy notice and candidates' privacy pages (src/modules/privacy/notices.ts, public.ts): a
// versioned notice acknowledged by members (at signup, on accepting an invitation, in the app) and
// by candidates on their page; the candidate's consent to the AI screening of their CV, given and
// withdrawn there, gating the screening; a candidate's own erasure request.
import { describe, expect, it } from "vitest";
import { expectError, signupTenant, uniqueEmail, useTestApp } from "../support/app.ts";
import { signupToken } from "../support/signup.ts";
import { addCandidate, draftOffer, openPosting, recruitingCompany } from "../recruitment/fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

describe("getPrivacyNotice, acknowledgePrivacyNotice, publishPrivacyNotice, listPrivacyNotices", () => {
  it("a new company shows the built-in notice (version 0); a published version must be acknowledged again", async () => {
    const owner = await signupTenant(t);
    const first = (await api(owner.agent).op("getPrivacyNotice").expect(200)).body.data;
    expect(first).toMatchObject({ acknowledged: false, acknowledged_at: null, notice: { version: 0, published_at: null } });
    expect(first.notice.purposes).toContainEqual(expect.objectContaining({ record_class: "candidates", basis: "consent" }));
    const acked = (
      await api(owner.agent)
        .op("acknowledgePrivacyNotice", { body: { version: 0, context: "signup" } })
        .expect(200)
    ).body.data;
    expect(acked.acknowledged).toBe(true);
    await api(owner.agent)
      .op("acknowledgePrivacyNotice", { body: { version: 0, context: "app" } })
      .expect(200); // once per version

    const v1 = (
      await api(owner.agent)
        .op("publishPrivacyNotice", {
          body: {
            text: "We process your data to employ and pay you; ask our grievance officer about your rights.",
            purposes: [{ record_class: "payslips", purpose: "Pay", basis: "legal_obligation" }],
          },
        })
        .expect(201)
    ).body.data;
    expect(v1.version).toBe(1);
    expect((await api(owner.agent).op("getPrivacyNotice").expect(200)).body.data).toMatchObject({
      acknowledged: false,
      notice: { version: 1 },
    });
    expectError(await api(owner.agent).op("acknowledgePrivacyNotice", { body: { version: 0, context: "app" } }), 409, "conflict");
    await api(owner.agent)
      .op("acknowledgePrivacyNotice", { body: { version: 1, context: "invitation" } })
      .expect(200);
    const versions = (await api(owner.agent).op("listPrivacyNotices").expect(200)).body.data;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([1, 0]);
    const acks = await t.query(`SELECT context FROM privacy_notice_acknowledgements WHERE user_id = $1 ORDER BY acknowledged_at`, [
      owner.userId,
    ]);
    expect(acks.map((a) => a.context)).toEqual(["signup", "invitation"]);
  });
});

const candidateOps = "sendCandidatePrivacyLink, getPublicPrivacyPage, acknowledgePublicPrivacyNotice, setPublicPrivacyConsent";
describe(`${candidateOps}, createPublicPrivacyRequest`, () => {
  it("a candidate reads and acknowledges the notice, consents to the AI screening and withdraws it, and asks for erasure", async () => {
    const c = await recruitingCompany(t);
    const posting = await openPosting(c.hr.agent);
    const cand = await addCandidate(c.hr.agent, posting.id);
    const screen = () => api(c.hr.agent).op("screenResume", { body: { candidate_id: cand.id } });
    expect(expectError(await screen(), 409, "conflict").error).toMatch(/not consented to the AI screening/);

    await api(c.hr.agent)
      .op("sendCandidatePrivacyLink", { params: { candidateId: cand.id } })
      .expect(200);
    const [mail] = await t.query<{ text_body: string; to_address: string }>(
      `SELECT text_body, to_address FROM email_outbox WHERE to_address = $1 AND subject LIKE 'Your personal data%'`,
      [cand.email],
    );
    const token = /\/api\/public\/privacy\/([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];
    const page = (await api(t.request()).op("getPublicPrivacyPage", { params: { token } }).expect(200)).body.data;
    expect(page).toMatchObject({ candidate_name: `${cand.first_name} ${cand.last_name}`, acknowledged: false, notice: { version: 0 } });
    expect(page.consents).toEqual([{ purpose: "ai_screening", granted: false, given_at: null, withdrawn_at: null }]);
    expect(
      (
        await api(t.request())
          .op("acknowledgePublicPrivacyNotice", { params: { token }, body: { version: 0 } })
          .expect(200)
      ).body.data.acknowledged,
    ).toBe(true);

    const given = (
      await api(t.request())
        .op("setPublicPrivacyConsent", { params: { token }, body: { purpose: "ai_screening", granted: true } })
        .expect(200)
    ).body.data;
    expect(given.consents[0]).toMatchObject({ granted: true, withdrawn_at: null });
    await screen().expect(200);
    const withdrawn = (
      await api(t.request())
        .op("setPublicPrivacyConsent", { params: { token }, body: { purpose: "ai_screening", granted: false } })
        .expect(200)
    ).body.data;
    expect(withdrawn.consents[0]).toMatchObject({ granted: false, withdrawn_at: expect.any(String) });
    expectError(await screen(), 409, "conflict"); // the processing stops with the consent

    const asked = (
      await api(t.request())
        .op("createPublicPrivacyRequest", { params: { token }, body: { type: "erasure", description: "Erase my application" } })
        .expect(201)
    ).body.data;
    expect(asked.requests).toEqual([expect.objectContaining({ type: "erasure", status: "received" })]);
    expectError(
      await api(t.request()).op("createPublicPrivacyRequest", { params: { token }, body: { type: "erasure", description: "again" } }),
      409,
    );
    const list = (
      await api(c.owner.agent)
        .op("listPrivacyRequests", { query: { type: "erasure" } })
        .expect(200)
    ).body.data;
    expect(list[0]).toMatchObject({ subject: "candidate", candidate_id: cand.id, channel: "candidate_link" });
    await api(c.owner.agent)
      .op("decidePrivacyRequest", { params: { id: list[0].id }, body: { status: "completed" } })
      .expect(200);
    const [row] = await t.query(`SELECT first_name, email, resume_text FROM candidates WHERE id = $1`, [cand.id]);
    expect(row).toEqual({ first_name: "Erased", email: `erased-${cand.id}@erased.invalid`, resume_text: null });
    expectError(await api(t.request()).op("getPublicPrivacyPage", { params: { token } }), 410, "invalid_token");
    expectError(await api(t.request()).op("getPublicPrivacyPage", { params: { token: "x".repeat(40) } }), 404, "not_found");
  });
});

describe("getPublicPrivacyNotice, confirmSignup and acceptInvite with privacy_notice_version", () => {
  it("the owner acknowledges the built-in notice with the signup's confirmation, a member the company's with the invitation", async () => {
    const shown = (await api(t.request()).op("getPublicPrivacyNotice").expect(200)).body.data;
    expect(shown).toMatchObject({ version: 0, grievance_officer: null });
    const email = uniqueEmail("notice.owner");
    const agent = t.request();
    await api(agent)
      .op("signup", { body: { name: "Nina Owner", email, password: "nina-owner-granite-7", company_name: "Notice Co" } })
      .expect(202);
    const token = await signupToken(t.query, email);
    expectError(
      await api(agent).op("confirmSignup", { body: { token, password: "nina-owner-granite-7", privacy_notice_version: 3 } }),
      400,
    );
    await api(agent)
      .op("confirmSignup", { body: { token, password: "nina-owner-granite-7", privacy_notice_version: 0 } })
      .expect(201);
    expect((await api(agent).op("getPrivacyNotice").expect(200)).body.data).toMatchObject({ acknowledged: true, notice: { version: 0 } });

    await api(agent)
      .op("publishPrivacyNotice", {
        body: {
          text: "Notice Co processes your data to employ and pay you.",
          purposes: [{ record_class: "payslips", purpose: "Pay", basis: "legal_obligation" }],
        },
      })
      .expect(201);
    const invitee = uniqueEmail("notice.member");
    await api(agent)
      .op("inviteMember", { body: { email: invitee, role: "employee" } })
      .expect(201);
    const [mail] = await t.query<{ text_body: string }>(`SELECT text_body FROM email_outbox WHERE to_address = $1`, [invitee]);
    const invitation = /Invitation token: ([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];
    const notice = (
      await api(t.request())
        .op("getPublicPrivacyNotice", { query: { invitation_token: invitation } })
        .expect(200)
    ).body.data;
    expect(notice).toMatchObject({ version: 1, text: "Notice Co processes your data to employ and pay you." });
    const member = t.request();
    const accept = { token: invitation, name: "Manu Member", password: "manu-member-otter-9" };
    expectError(await api(member).op("acceptInvite", { body: { ...accept, privacy_notice_version: 0 } }), 400);
    await api(member)
      .op("acceptInvite", { body: { ...accept, privacy_notice_version: 1 } })
      .expect(200);
    expect((await api(member).op("getPrivacyNotice").expect(200)).body.data).toMatchObject({ acknowledged: true, notice: { version: 1 } });
    const acks = await t.query(
      `SELECT a.context, n.version FROM privacy_notice_acknowledgements a
        JOIN privacy_notices n ON n.tenant_id = a.tenant_id AND n.id = a.notice_id
        JOIN users u ON u.id = a.user_id WHERE u.email = ANY($1) ORDER BY a.acknowledged_at`,
      [[email, invitee]],
    );
    expect(acks).toEqual([
      { context: "signup", version: 0 },
      { context: "invitation", version: 1 },
    ]);
    expectError(await api(t.request()).op("getPublicPrivacyNotice", { query: { invitation_token: invitation } }), 404, "not_found"); // used
  });

  it("with offer_token: the offering company's current notice, for the candidate's offer page", async () => {
    const c = await recruitingCompany(t, { company: "Offering Co" });
    const text = "Offering Co keeps your application data only to decide on it and to employ you.";
    const purposes = [{ record_class: "candidates", purpose: "Deciding on your application", basis: "legitimate_use" as const }];
    await api(c.owner.agent).op("publishPrivacyNotice", { body: { text, purposes } }).expect(201);
    const { offer, candidate } = await draftOffer(c.hr.agent, {});
    await api(c.hr.agent)
      .op("sendJobOffer", { params: { id: offer.id } })
      .expect(200);
    const [mail] = await t.query<{ text_body: string }>(
      "SELECT text_body FROM email_outbox WHERE to_address = $1 AND text_body LIKE '%/api/public/offers/%' " +
        "ORDER BY created_at DESC LIMIT 1",
      [candidate.email.toLowerCase()],
    );
    const token = /\/api\/public\/offers\/([^\s/?]+)/.exec(mail.text_body)?.[1] as string;
    const shown = (
      await api(t.request())
        .op("getPublicPrivacyNotice", { query: { offer_token: token } })
        .expect(200)
    ).body.data;
    expect(shown).toMatchObject({ version: 1, text, purposes });
    expectError(await api(t.request()).op("getPublicPrivacyNotice", { query: { offer_token: "no-such-offer-link" } }), 404, "not_found");
    const both = await api(t.request()).op("getPublicPrivacyNotice", { query: { offer_token: token, invitation_token: token } });
    expectError(both, 400, "validation_failed");
  });
});
