// What interviewers are told when an interview is scheduled, changed or cancelled.
import type { ScopedTx } from "../../db/tenancy.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { type NotificationKind, notify } from "../../platform/notify.ts";
import { formatInstant, userNames } from "./common.ts";

/** One line about the interview for its interviewers, the time in the company's time zone. */
export function describe(
  i: {
    round_name: string;
    scheduled_at: Date;
    duration_minutes: number;
    mode: string;
    location: string | null;
    meeting_url: string | null;
  },
  candidate: string,
  tz: string,
) {
  const where =
    i.mode === "video"
      ? `Video call: ${i.meeting_url ?? "link to follow"}`
      : i.mode === "phone"
        ? "Phone call"
        : `In person${i.location ? `: ${i.location}` : ""}`;
  return (
    `${i.round_name} interview ` +
    `with ${candidate} on ${formatInstant(i.scheduled_at, tz)} (${tz}), ${i.duration_minutes} minutes. ${where}.`
  );
}

/** Tells the interviewers (in the app and by mail), except the member who made the change. */
export async function tellInterviewers(
  tx: ScopedTx,
  auth: AuthContext,
  userIds: string[],
  kind: NotificationKind,
  title: string,
  body: string,
  link: string,
) {
  const people = await userNames(userIds);
  for (const u of userIds) if (u !== auth.userId) await notify(tx, { userId: u, email: people.get(u)?.email, kind, title, body, link });
}
