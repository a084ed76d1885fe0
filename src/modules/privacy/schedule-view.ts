// The retention schedule as the API shows it: the rules in force today for a jurisdiction.
import type { Jurisdiction } from "./rules.ts";
import { retentionSchedule } from "./rules.ts";
import { jurisdictionToday } from "./settings.ts";

export async function retentionRules(jurisdiction?: Jurisdiction) {
  const here = await jurisdictionToday();
  return retentionSchedule(jurisdiction ?? here.jurisdiction, here.today).map((r) => ({ ...r }));
}
