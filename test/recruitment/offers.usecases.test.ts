// Offer state transitions and candidate conversion called as use cases, without HTTP: draft →
// sent → accepted / declined / withdrawn / expired, and a hired candidate becoming an employee.
// Records are walked to their starting point through the API (helpers.ts); the rules then run
// inside withTenant as an operation would (the candidate's links without a tenant, as in public).
import { beforeAll, describe, expect, it } from "vitest";
import { authOf } from "../support/auth-context.ts";
import { withTenant } from "../../src/db/tenancy.ts";
import type { AuthContext } from "../../src/http/types.ts";
import { changeCandidate } from "../../src/modules/recruitment/candidates.ts";
import { convertToEmployee } from "../../src/modules/recruitment/conversion.ts";
import { expireDueOffers } from "../../src/modules/recruitment/offer-expiry.ts";
import { sendAppointment, sendOffer } from "../../src/modules/recruitment/offer-sending.ts";
import { changeOffer } from "../../src/modules/recruitment/offers.ts";
import { addAppointmentDocument, answerPublicOffer, publicOffer } from "../../src/modules/recruitment/public.ts";
import { useTestApp, type AuditChanges } from "../support/app.ts";
import { uploadedFile } from "../support/uploads.ts";
import { type Company, dateIn, draftOffer, recruitingCompany } from "./fixtures.ts";

const t = useTestApp();
let c: Company;
let hr: AuthContext;

const inCompany = <T>(fn: () => Promise<T>) => withTenant(c.owner.tenantId, fn);

async function rejection(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { status: number; message: string };
  }
  throw new Error("expected the use case to fail");
}

/** The personal link's token from the last mail queued for `to`. */
async function mailedToken(to: string, kind: "offers" | "appointment"): Promise<string> {
  const [m] = await t.query<{ text_body: string }>(
    `SELECT text_body FROM email_outbox WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1`,
    [to],
  );
  const token = new RegExp(`/api/public/${kind}/([A-Za-z0-9_-]+)`).exec(m.text_body)?.[1];
  if (!token) throw new Error(`no ${kind} link in the mail to ${to}`);
  return token;
}

const offerRow = async (id: string) =>
  (await t.query(`SELECT status, responded_at, decline_reason FROM job_offers WHERE id = $1`, [id]))[0];

beforeAll(async () => {
  c = await recruitingCompany(t);
  hr = authOf(c.hr, "hr", { name: "Hema HR" });
});

describe("sendJobOffer / acceptPublicOffer / declinePublicOffer: offer state transitions", () => {
  it("draft → sent (mailed with a personal link) → accepted by the candidate, once; an accepted offer is final", async () => {
    const { candidate, offer } = await draftOffer(c.hr.agent);
    expect(offer.status).toBe("draft");
    expect((await rejection(inCompany(() => sendAppointment(offer.id)))).status).toBe(409);
    const sent = await inCompany(() => sendOffer(offer.id));
    expect(sent).toMatchObject({ status: "sent", link_expires_at: expect.any(String) });
    expect((await rejection(inCompany(() => changeOffer(offer.id, { salary: "1.00" })))).message).toBe(
      "The offer is sent; only a draft offer can be changed",
    );
    const token = await mailedToken(candidate.email, "offers");
    expect(await publicOffer(token)).toMatchObject({ status: "sent", can_respond: true });
    const accepted = await answerPublicOffer(token, "accepted");
    expect(accepted).toMatchObject({ status: "accepted", can_respond: false });
    const twice = await rejection(answerPublicOffer(token, "declined", "changed my mind"));
    expect(twice.status).toBe(409);
    expect(twice.message).toBe("You already accepted this offer");
    expect((await offerRow(offer.id)).status).toBe("accepted");
    expect((await rejection(inCompany(() => changeOffer(offer.id, { status: "withdrawn" })))).message).toBe(
      "A offer cannot go from accepted to withdrawn (accepted is final)",
    );
    // two changes of status: sent by hr, then accepted by the candidate
    const entries = await t.query<{ changes: AuditChanges }>(
      `SELECT changes FROM audit_logs WHERE entity_id = $1 AND action = 'recruitment.offer_status_changed' ORDER BY created_at, id`,
      [offer.id],
    );
    expect(entries.map((e) => e.changes.status)).toEqual([
      { from: "draft", to: "sent" },
      { from: "sent", to: "accepted" },
    ]);
    expect(entries[1].changes).toMatchObject({ by: `candidate ${candidate.email}` });
  });

  it("a candidate declines with a reason; the recruiters cannot move an offer to sent or accepted by hand", async () => {
    const { candidate, offer } = await draftOffer(c.hr.agent);
    expect((await rejection(inCompany(() => changeOffer(offer.id, { status: "sent" })))).message).toBe(
      "Send an offer with POST /api/recruitment/offers/{id}/send",
    );
    expect((await rejection(inCompany(() => changeOffer(offer.id, { status: "accepted" })))).status).toBe(409);
    expect((await rejection(inCompany(() => changeOffer(offer.id, { status: "expired" })))).message).toBe(
      "A offer cannot go from draft to expired (from draft it can go to sent, withdrawn)",
    );
    await inCompany(() => sendOffer(offer.id));
    await answerPublicOffer(await mailedToken(candidate.email, "offers"), "declined", "  Counter-offer  ");
    expect(await offerRow(offer.id)).toMatchObject({ status: "declined", decline_reason: "Counter-offer" });
  });

  it("withdrawing a sent offer tells the candidate and closes the link (410)", async () => {
    const { candidate, offer } = await draftOffer(c.hr.agent);
    await inCompany(() => sendOffer(offer.id));
    const token = await mailedToken(candidate.email, "offers");
    expect((await inCompany(() => changeOffer(offer.id, { status: "withdrawn" }))).status).toBe("withdrawn");
    const [m] = await t.query(`SELECT subject FROM email_outbox WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1`, [candidate.email]);
    expect(m.subject).toMatch(/^Offer withdrawn: /);
    const gone = await rejection(publicOffer(token));
    expect(gone).toMatchObject({ status: 410, message: "This offer was withdrawn" });
  });

  it("a sent offer unanswered after its last day expires, once", async () => {
    const { offer } = await draftOffer(c.hr.agent);
    await inCompany(() => sendOffer(offer.id));
    await t.query(`UPDATE job_offers SET expires_on = $2 WHERE id = $1`, [offer.id, dateIn(-2)]);
    expect(await inCompany(() => expireDueOffers(dateIn(-2)))).toBe(0); // the last day itself
    expect(await inCompany(() => expireDueOffers(dateIn(0)))).toBe(1);
    expect(await inCompany(() => expireDueOffers(dateIn(0)))).toBe(0);
    expect((await offerRow(offer.id)).status).toBe("expired");
    const [note] = await t.query(`SELECT kind FROM notifications WHERE user_id = $1 AND kind = 'recruitment.offer_expired'`, [c.hr.userId]);
    expect(note.kind).toBe("recruitment.offer_expired");
  });
});

describe("convertCandidateToEmployee: candidate conversion", () => {
  it(
    "only a hired candidate (with an accepted offer) becomes an " + "employee, once, with the offer's terms and joining documents",
    async () => {
      const { candidate, offer } = await draftOffer(
        c.hr.agent,
        { job_title: "Platform Engineer", department: "Platform" },
        { first_name: "Kavya", last_name: "Nair" },
      );
      await inCompany(() => sendOffer(offer.id));
      // hired needs an accepted offer
      expect((await rejection(inCompany(() => changeCandidate(hr, candidate.id, { stage: "hired" })))).message).toBe(
        "A candidate is hired only with an accepted offer: send one with POST /api/recruitment/offers/{id}/send (sendJobOffer); " +
          "the candidate accepts it through the offer link (acceptPublicOffer)",
      );
      await answerPublicOffer(await mailedToken(candidate.email, "offers"), "accepted");
      const notHired = await rejection(inCompany(() => convertToEmployee(hr, candidate.id, undefined)));
      expect(notHired).toMatchObject({
        status: 409,
        message:
          "The candidate is offer; only a hired candidate becomes an employee: " +
          "move it to hired with PUT /api/recruitment/candidates/{id} and stage hired (updateCandidate)",
      });
      await inCompany(() => sendAppointment(offer.id));
      const doc = await addAppointmentDocument(
        await mailedToken(candidate.email, "appointment"),
        uploadedFile(Buffer.from("%PDF-1.4 pan card"), "pan.pdf", "application/pdf"),
        { document_type: "id_proof", title: "PAN card" },
      );
      expect(doc).toMatchObject({ document_type: "id_proof", title: "PAN card", original_name: "pan.pdf" });
      expect((await inCompany(() => changeCandidate(hr, candidate.id, { stage: "hired" }))).stage).toBe("hired");

      const result = await inCompany(() => convertToEmployee(hr, candidate.id, { employee_code: "KN-1" }));
      expect(result.documents_copied).toBe(1);
      expect(result.employee).toMatchObject({
        employee_code: "KN-1",
        first_name: "Kavya",
        last_name: "Nair",
        email: candidate.email,
        department: "Platform",
        designation: "Platform Engineer",
        joining_date: dateIn(30),
        status: "active",
      });
      expect(result.candidate).toMatchObject({ employee_id: result.employee.id, stage: "hired" });
      const docs = await t.query(`SELECT document_type, title FROM employee_documents WHERE employee_id = $1`, [result.employee.id]);
      expect(docs).toEqual([{ document_type: "id_proof", title: "PAN card" }]);
      const again = await rejection(inCompany(() => convertToEmployee(hr, candidate.id, undefined)));
      expect(again).toMatchObject({ status: 409, message: "The candidate was already converted into an employee" });
      // the candidate's record is frozen; the joining link takes no more documents
      expect((await rejection(inCompany(() => changeCandidate(hr, candidate.id, { notes: "x" })))).status).toBe(409);
      const late = await rejection(
        addAppointmentDocument(
          await mailedToken(candidate.email, "appointment"),
          uploadedFile(Buffer.from("%PDF-1.4 x"), "more.pdf", "application/pdf"),
          { document_type: "education" },
        ),
      );
      expect(late).toMatchObject({ status: 409, message: "You have already joined; hand further documents to HR" });
    },
  );
});
