// An asset's status, in one place: what each move does to it and what a status forbids.
//
//   available --assign--> assigned --return (sound)--> available
//                                  --return (damaged, or a major report open)--> under_repair
//   available --major damage report--> under_repair --last report repaired--> available
//   any but assigned --write-off--> retired;  any but assigned --by hand (register.ts: those the document allows)--> that one
//   retired, lost: take no damage reports
import { conflict } from "../../platform/errors.ts";
import type { AssetStatus } from "./common.ts";

/** 409 unless the asset can be handed over: only an available one. */
export function assertAssignable(a: { asset_tag: string; status: string }): void {
  if (a.status !== "available") throw conflict(`Asset ${a.asset_tag} is not available (it is ${a.status.replace("_", " ")})`);
}

/** 409 while the asset is assigned: its return comes first (`refusal`: the rest of the message, in words). */
export function assertNotAssigned(a: { asset_tag: string; status: string }, refusal: string): void {
  if (a.status === "assigned") throw conflict(`Asset ${a.asset_tag} ${refusal}`);
}

/** 409 for an asset that takes no damage reports (retired or lost). */
export function assertTakesDamageReports(a: { asset_tag: string; status: string }): void {
  if (a.status === "retired" || a.status === "lost") throw conflict(`Asset ${a.asset_tag} is ${a.status}; it takes no damage reports`);
}

/** The status after a damage report: a major one takes an available asset to repair. */
export const statusAfterDamage = (status: AssetStatus, severity: string): AssetStatus =>
  severity === "major" && status === "available" ? "under_repair" : status;

/** The status once its last open damage report is repaired: back from repair. */
export const statusAfterRepair = (status: AssetStatus): AssetStatus => (status === "under_repair" ? "available" : status);

/** The status a written-off asset takes. */
export const WRITTEN_OFF: AssetStatus = "retired";

/** The status after a return: to repair when it came back damaged or a major report is open, else available. */
export const statusAfterReturn = (returnedDamaged: boolean, majorReportOpen: boolean): AssetStatus =>
  returnedDamaged || majorReportOpen ? "under_repair" : "available";
