// The company's privacy notice (DPDP Act 2023 s.5, DPDP Rules 2025 r.3; UAE PDPL art.13): versioned,
// the newest shown; version 0 is the built-in notice a company has until it publishes its own.
// Acknowledgements record who was shown which version where (signup, invitation, the app, a
// candidate's page).
import type { components } from "../../../generated/api-types.ts";
import type { PrivacyNotice } from "../../../generated/prisma/client.ts";
import { db, tenantTx } from "../../db/tenancy.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { audit } from "../../platform/audit.ts";
import { conflict } from "../../platform/errors.ts";
import * as clock from "../../lib/clock.ts";
import { privacySettings } from "./settings.ts";

type NoticeJson = components["schemas"]["PrivacyNotice"];
type Purpose = components["schemas"]["PrivacyNoticePurpose"];

export const DEFAULT_PURPOSES: Purpose[] = [
  { record_class: "employee_profile", purpose: "Employing you: your contract, role, reporting line and contact", basis: "legitimate_use" },
  {
    record_class: "payslips",
    purpose: "Paying your salary and the statutory contributions (PF, ESI, tax) and keeping the wage records the law requires",
    basis: "legal_obligation",
  },
  {
    record_class: "attendance",
    purpose: "Recording attendance and leave for pay and the registers the law requires",
    basis: "legal_obligation",
  },
  {
    record_class: "documents",
    purpose: "Keeping the documents of your employment (identity, education, experience)",
    basis: "legitimate_use",
  },
  { record_class: "candidates", purpose: "Considering your application for a job", basis: "legitimate_use" },
  {
    record_class: "candidates",
    purpose: "Screening your CV with an AI helper: only with your consent, which you may withdraw at any time",
    basis: "consent",
  },
  { record_class: "activity_log", purpose: "Keeping a log of changes for security and to answer the Board", basis: "legal_obligation" },
];

const DEFAULT_TEXT = [
  "We process your personal data to employ you (or to consider your application), to pay you and to keep the records the law requires.",
  "The purposes, by kind of record, are listed below; processing that needs your consent is " +
    "marked so, and you may withdraw that consent as easily as you gave it.",
  "You may ask for a summary of the data we hold about you and whom it was shared with, for " +
    "its correction, completion or erasure (we keep what a law requires us to keep, until its " +
    "period ends), nominate a person to act for you, and complain to our grievance officer.",
  "If we do not resolve your complaint you may complain to the Data Protection Board of India (or, in the UAE, the UAE Data Office).",
].join(" ");

/** The built-in notice (version 0) as a company about to be created has it (no grievance officer yet). */
export const builtInNotice = (): NoticeJson => ({
  version: 0,
  text: DEFAULT_TEXT,
  purposes: DEFAULT_PURPOSES,
  grievance_officer: null,
  published_at: null,
});

async function noticeJson(n: PrivacyNotice | null): Promise<NoticeJson> {
  const s = await privacySettings();
  const officer =
    s.grievance_officer_name && s.grievance_officer_email ? { name: s.grievance_officer_name, email: s.grievance_officer_email } : null;
  if (!n) return { version: 0, text: DEFAULT_TEXT, purposes: DEFAULT_PURPOSES, grievance_officer: officer, published_at: null };
  return {
    version: n.version,
    text: n.text,
    purposes: n.purposes as Purpose[],
    grievance_officer: officer,
    published_at: n.published_at.toISOString(),
  };
}

const latest = () => db.privacyNotice.findFirst({ orderBy: { version: "desc" } });

export async function currentNotice(): Promise<{ row: PrivacyNotice | null; json: NoticeJson }> {
  const row = await latest();
  return { row, json: await noticeJson(row) };
}

export async function noticeVersions(): Promise<NoticeJson[]> {
  const rows = await db.privacyNotice.findMany({ orderBy: { version: "desc" } });
  return rows.length ? Promise.all(rows.map(noticeJson)) : [await noticeJson(null)];
}

export async function publishNotice(auth: AuthContext, input: RequestBody<"publishPrivacyNotice">): Promise<NoticeJson> {
  const n = await tenantTx(async (tx) => {
    const prev = await tx.privacyNotice.findFirst({ orderBy: { version: "desc" }, select: { version: true } });
    const version = (prev?.version ?? 0) + 1;
    const n = await tx.privacyNotice.create({
      data: { version, text: input.text, purposes: input.purposes, published_by: auth.userId, published_at: clock.now() },
    });
    await audit({ action: "privacy_notice.published", entity_type: "privacy_notice", entity_id: n.id, changes: { version } }, tx);
    return n;
  });
  return noticeJson(n);
}

/** The notice row of `version`, creating the built-in version 0's row the first time it is acknowledged. */
async function noticeRowFor(version: number): Promise<PrivacyNotice> {
  const { row, json } = await currentNotice();
  if (version !== json.version)
    throw conflict(`Version ${version} is not the current privacy notice (version ${json.version}); show the current one`);
  if (row) return row;
  await db.privacyNotice.createMany({
    data: [{ version: 0, text: DEFAULT_TEXT, purposes: DEFAULT_PURPOSES, published_at: clock.now() }],
    skipDuplicates: true,
  });
  return (await db.privacyNotice.findFirst({ where: { version: 0 } }))!;
}

type Who = { user_id: string } | { candidate_id: string };

export async function acknowledgementOf(who: Who, version: number) {
  const a = await db.privacyNoticeAcknowledgement.findFirst({
    where: { ...who, notice: { version } },
    orderBy: { acknowledged_at: "asc" },
  });
  return a?.acknowledged_at ?? null;
}

/** Records that `who` acknowledged `version` (the current one) in `context`; once per version. */
export async function acknowledge(who: Who, version: number, context: string): Promise<void> {
  const notice = await noticeRowFor(version);
  if (await acknowledgementOf(who, version)) return;
  await tenantTx(async (tx) => {
    const a = await tx.privacyNoticeAcknowledgement.create({
      data: { ...who, notice_id: notice.id, context, acknowledged_at: clock.now() },
    });
    await audit(
      {
        action: "privacy_notice.acknowledged",
        entity_type: "privacy_notice",
        entity_id: notice.id,
        changes: { version, context, acknowledgement_id: a.id },
      },
      tx,
    );
  });
}

export async function noticeStatus(auth: AuthContext) {
  const { json } = await currentNotice();
  const at = await acknowledgementOf({ user_id: auth.userId }, json.version);
  return { notice: json, acknowledged: at !== null, acknowledged_at: at?.toISOString() ?? null };
}

export async function acknowledgeNotice(auth: AuthContext, input: RequestBody<"acknowledgePrivacyNotice">) {
  await acknowledge({ user_id: auth.userId }, input.version, input.context);
  return noticeStatus(auth);
}
