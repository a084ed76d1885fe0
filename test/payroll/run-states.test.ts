// The payroll run's state machine (src/modules/payroll/run-states.ts).
import { describe, expect, it } from "vitest";
import { assertChangeable, checkRunMove, isBusy, RUN_MOVES, type RunStatus } from "../../src/modules/payroll/run-states.ts";

const ALL: RunStatus[] = ["draft", "calculating", "processing", "processed", "failed"];

describe("payroll run states", () => {
  it("allows exactly the listed moves; processed is final; a job's statuses are busy", () => {
    for (const from of ALL)
      for (const to of ALL)
        if (from === to || RUN_MOVES[from].includes(to)) expect(() => checkRunMove(from, to)).not.toThrow();
        else expect(() => checkRunMove(from, to)).toThrow(`A payroll run cannot go from ${from} to ${to}`);
    expect(RUN_MOVES.processed).toEqual([]);
    expect(ALL.filter(isBusy)).toEqual(["calculating", "processing"]);
  });

  it("refuses changes to a processed run in the operation's words, and to a busy one", () => {
    expect(() => assertChangeable("processed", "The run is already processed")).toThrow("The run is already processed");
    expect(() => assertChangeable("calculating", "x")).toThrow("The run is being calculated; wait until the calculation has finished");
    expect(() => assertChangeable("processing", "x")).toThrow("The run is being processed; wait until it is processed or failed");
    expect(() => assertChangeable("draft", "x")).not.toThrow();
    expect(() => assertChangeable("failed", "x")).not.toThrow();
  });
});
