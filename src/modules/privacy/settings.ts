// The company's privacy settings (a settings document, src/platform/tenant-settings.ts): its
// jurisdiction and the grievance officer; and who decides persons' requests (owners, admins and
// the officer).
import { activeTenant } from "../../db/central.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { todayIn, type DateString } from "../../lib/dates.ts";
import { invalidField } from "../../platform/errors.ts";
import { readSettingsDoc, writeSettingsDoc } from "../../platform/tenant-settings.ts";
import { hrMemberIds, userNames } from "../shared/access.ts";
import type { Jurisdiction } from "./rules.ts";

interface Doc {
  jurisdiction: Jurisdiction | null;
  grievance_officer_user_id: string | null;
}
const DEFAULTS: Doc = { jurisdiction: null, grievance_officer_user_id: null };

/** A company paying in dirhams is in the UAE; every other one in India, until set. */
const defaultJurisdiction = (currency: string): Jurisdiction => (currency === "AED" ? "AE" : "IN");

export async function privacySettings() {
  const [doc, t] = await Promise.all([readSettingsDoc("privacy", DEFAULTS), activeTenant({ currency: true })]);
  const officer = doc.grievance_officer_user_id
    ? (await userNames([doc.grievance_officer_user_id])).get(doc.grievance_officer_user_id)
    : null;
  return {
    jurisdiction: doc.jurisdiction ?? defaultJurisdiction(t.currency),
    grievance_officer_user_id: officer ? doc.grievance_officer_user_id : null,
    grievance_officer_name: officer?.name ?? null,
    grievance_officer_email: officer?.email ?? null,
    updated_at: doc.updated_at,
  };
}
export type PrivacySettings = Awaited<ReturnType<typeof privacySettings>>;

export async function changePrivacySettings(auth: AuthContext, patch: RequestBody<"updatePrivacySettings">) {
  if (patch.grievance_officer_user_id && !(await hrMemberIds()).includes(patch.grievance_officer_user_id))
    throw invalidField("body.grievance_officer_user_id", "must be an owner, admin or hr member of the company");
  await writeSettingsDoc("privacy", DEFAULTS, patch as Partial<Doc>, auth.userId);
  return privacySettings();
}

/** Owners, admins and the grievance officer decide persons' requests and see all of them. */
export async function isDecider(auth: AuthContext, settings?: PrivacySettings): Promise<boolean> {
  if (auth.role === "owner" || auth.role === "admin") return true;
  return (settings ?? (await privacySettings())).grievance_officer_user_id === auth.userId;
}

/** The company's jurisdiction and today's date in its time zone. */
export async function jurisdictionToday(): Promise<{ jurisdiction: Jurisdiction; today: DateString; timezone: string }> {
  const [s, t] = await Promise.all([privacySettings(), activeTenant({ timezone: true })]);
  return { jurisdiction: s.jurisdiction as Jurisdiction, today: todayIn(t.timezone), timezone: t.timezone };
}

/** The user ids of the owners, admins and the grievance officer (who are told of requests and breaches). */
export async function deciderIds(tx: ScopedTx, settings: PrivacySettings): Promise<string[]> {
  const ms = await tx.membership.findMany({ where: { role: { in: ["owner", "admin"] } }, select: { user_id: true } });
  const ids = new Set(ms.map((m) => m.user_id));
  if (settings.grievance_officer_user_id) ids.add(settings.grievance_officer_user_id);
  return [...ids];
}
