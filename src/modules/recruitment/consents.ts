// Candidates' consents. The AI screening of a CV is not needed to consider an application, so it runs only
// while the candidate's consent stands (DPDP Act 2023 s.6; UAE PDPL art.4). Erasure pseudonymises the
// candidate; the row stays for the records that refer to it.
import type { ScopedTx } from "../../db/tenancy.ts";
import { byId, db, tenantTx } from "../../db/tenancy.ts";
import { audit } from "../../platform/audit.ts";
import { conflict } from "../../platform/errors.ts";
import * as clock from "../../lib/clock.ts";

export type ConsentPurpose = "ai_screening";
export const CONSENT_PURPOSES: readonly ConsentPurpose[] = ["ai_screening"];
/** The e-mail an erased candidate is left with (unique per row; the address of no one). */
export const erasedEmail = (id: string) => `erased-${id}@erased.invalid`;
export const ERASED_SUFFIX = "@erased.invalid";

export async function consentsOf(candidateId: string) {
  const rows = await db.candidateConsent.findMany({ where: { candidate_id: candidateId } });
  return CONSENT_PURPOSES.map((purpose) => {
    const r = rows.find((x) => x.purpose === purpose);
    return {
      purpose,
      granted: Boolean(r && !r.withdrawn_at),
      given_at: r?.given_at.toISOString() ?? null,
      withdrawn_at: r?.withdrawn_at?.toISOString() ?? null,
    };
  });
}

/** Gives (`granted`) or withdraws the candidate's consent to `purpose`, audited when it changes. */
export async function setCandidateConsent(candidateId: string, purpose: ConsentPurpose, granted: boolean, noticeVersion: number) {
  const now = clock.now();
  const current = await db.candidateConsent.findFirst({ where: { candidate_id: candidateId, purpose } });
  const was = Boolean(current && !current.withdrawn_at);
  if (was === granted) return;
  await tenantTx(async (tx) => {
    if (current)
      await tx.candidateConsent.update({
        where: byId(current.id),
        data: granted ? { given_at: now, withdrawn_at: null, notice_version: noticeVersion } : { withdrawn_at: now },
      });
    else await tx.candidateConsent.create({ data: { candidate_id: candidateId, purpose, given_at: now, notice_version: noticeVersion } });
    await audit(
      {
        action: granted ? "candidate.consent_given" : "candidate.consent_withdrawn",
        entity_type: "candidate",
        entity_id: candidateId,
        changes: { purpose, notice_version: noticeVersion },
      },
      tx,
    );
  });
}

/** 409 unless the candidate's consent to `purpose` stands now. */
export async function assertConsent(candidateId: string, purpose: ConsentPurpose): Promise<void> {
  const c = await db.candidateConsent.findFirst({ where: { candidate_id: candidateId, purpose, withdrawn_at: null } });
  if (!c)
    throw conflict(
      "The candidate has not consented to the AI screening of their CV (or withdrew it); it is not needed to consider the " +
        "application, so it runs only with their consent, given on their privacy page",
    );
}

/** A candidate's name, e-mail, stage and when it last changed (deleted ones too), or null. */
export async function candidateForPrivacy(id: string) {
  const c = await db.candidate.findFirst({
    where: { id },
    select: {
      id: true,
      first_name: true,
      last_name: true,
      email: true,
      phone: true,
      stage: true,
      stage_changed_at: true,
      current_company: true,
      current_title: true,
      experience_years: true,
      expected_salary: true,
      skills: true,
      source: true,
      screening_score: true,
      created_at: true,
      deleted_at: true,
      employee_id: true,
    },
  });
  if (!c) return null;
  return { ...c, name: `${c.first_name} ${c.last_name}`.trim(), erased: c.email.endsWith(ERASED_SUFFIX) };
}

/**
 * Pseudonymises a candidate: name, contact, CV, notes and screening replaced or cleared, talent
 * pool entries and consents removed; the row stays (soft-deleted) for the records that refer to it.
 */
export async function pseudonymiseCandidateIn(tx: ScopedTx, id: string): Promise<void> {
  const now = clock.now();
  const c = await tx.candidate.findFirst({ where: { id }, select: { deleted_at: true } });
  if (!c) return;
  await tx.candidate.update({
    where: byId(id),
    data: {
      first_name: "Erased",
      last_name: "candidate",
      email: erasedEmail(id),
      phone: null,
      current_company: null,
      current_title: null,
      expected_salary: null,
      skills: [],
      resume_file_id: null,
      resume_text: null,
      notes: null,
      rejection_reason: null,
      screening_score: null,
      deleted_at: c.deleted_at ?? now,
    },
  });
  await tx.talentPoolCandidate.deleteMany({ where: { candidate_id: id } });
  await tx.candidateConsent.deleteMany({ where: { candidate_id: id } });
  await audit({ action: "candidate.pseudonymised", entity_type: "candidate", entity_id: id, changes: null }, tx);
}

/** Candidates not hired (rejected or withdrawn) whose stage last changed before `before`, not yet erased. */
export async function notHiredCandidatesBefore(before: Date, take = 500): Promise<string[]> {
  const rows = await db.candidate.findMany({
    where: { stage: { in: ["rejected", "withdrawn"] }, stage_changed_at: { lt: before }, NOT: { email: { endsWith: ERASED_SUFFIX } } },
    select: { id: true },
    orderBy: { id: "asc" },
    take,
  });
  return rows.map((r) => r.id);
}
