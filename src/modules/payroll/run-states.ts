// The state machine of a payroll run in one place: its statuses, the moves between them (any other is a
// 409), the statuses a job is working on, and the refusals of a change to a processed or busy run.
import { conflict } from "../../platform/errors.ts";

export type RunStatus = "draft" | "calculating" | "processing" | "processed" | "failed";

export const RUN_MOVES: Record<RunStatus, RunStatus[]> = {
  // recalculated or processed in the background, or processed at once
  draft: ["calculating", "processing", "processed"],
  // a failed run is calculated again (at once: draft; or queued), or processed
  failed: ["draft", "calculating", "processing", "processed"],
  // a job's outcome
  calculating: ["draft", "failed"],
  processing: ["processed", "failed"],
  processed: [],
};

/** The statuses of a run that a background job is working on. */
export const BUSY_STATUSES = ["calculating", "processing"] as const;
export const isBusy = (status: string) => (BUSY_STATUSES as readonly string[]).includes(status);

/** 409 unless `from → to` is a move of a run (staying in the same status is none). */
export function checkRunMove(from: string, to: RunStatus): void {
  if (from !== to && !RUN_MOVES[from as RunStatus]?.includes(to)) throw conflict(`A payroll run cannot go from ${from} to ${to}`);
}

export const busyConflict = (status: string) =>
  conflict(
    status === "processing"
      ? "The run is being processed; wait until it is processed or failed"
      : "The run is being calculated; wait until the calculation has finished",
  );

/** 409 for a processed run (with the operation's own words) or one a job is working on. */
export function assertChangeable(status: string, processedMessage: string) {
  if (status === "processed") throw conflict(processedMessage);
  if (isBusy(status)) throw busyConflict(status);
}
