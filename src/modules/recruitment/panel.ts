// Interview panel configuration (tenant settings kind `interview_panel`): the rounds every
// candidate goes through, their default interviewers, and the rating scale of feedback.
import { db } from "../../db/tenancy.ts";
import { invalidField } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { readSettingsDoc, writeSettingsDoc } from "../../platform/tenant-settings.ts";

export type Round = {
  name: string;
  sequence: number;
  duration_minutes: number;
  mode: "video" | "phone" | "in_person";
  interviewer_user_ids: string[];
};
export type Panel = { rounds: Round[]; rating_scale: 5 | 10; feedback_deadline_hours: number };

export const INTERVIEW_PANEL_DEFAULTS: Panel = {
  rounds: [
    { name: "HR screening", sequence: 1, duration_minutes: 30, mode: "phone", interviewer_user_ids: [] },
    { name: "Technical", sequence: 2, duration_minutes: 60, mode: "video", interviewer_user_ids: [] },
    { name: "Hiring manager", sequence: 3, duration_minutes: 45, mode: "in_person", interviewer_user_ids: [] },
  ],
  rating_scale: 5,
  feedback_deadline_hours: 48,
};

export function readPanel() {
  return readSettingsDoc("interview_panel", INTERVIEW_PANEL_DEFAULTS);
}

/** Changes the panel (rounds sorted by sequence, their interviewers members of the company); returns it as it is now. */
export async function configurePanel(auth: AuthContext, body: RequestBody<"updateInterviewPanel">) {
  const rounds = await validateRounds(body.rounds);
  const patch = { ...body, ...(rounds ? { rounds } : {}) };
  return writeSettingsDoc("interview_panel", INTERVIEW_PANEL_DEFAULTS, patch, auth.userId);
}

async function validateRounds(rounds: Round[] | undefined): Promise<Round[] | undefined> {
  if (!rounds) return undefined;
  const seen = new Set<number>();
  rounds.forEach((r, i) => {
    if (seen.has(r.sequence)) throw invalidField(`body.rounds.${i}.sequence`, `duplicates sequence ${r.sequence}`);
    seen.add(r.sequence);
  });
  const ids = [...new Set(rounds.flatMap((r) => r.interviewer_user_ids))];
  if (ids.length) {
    const members = new Set(
      (await db.membership.findMany({ where: { user_id: { in: ids } }, select: { user_id: true } })).map((m) => m.user_id),
    );
    for (const [i, r] of rounds.entries())
      for (const [j, u] of r.interviewer_user_ids.entries())
        if (!members.has(u)) throw invalidField(`body.rounds.${i}.interviewer_user_ids.${j}`, "is not a member of the company");
  }
  return [...rounds].sort((a, b) => a.sequence - b.sequence);
}
