// Schemathesis's settings (scripts/sdks/schemathesis.ts): the deep run gives each phase a time budget of
// its own, so the fuzzing and stateful phases run however busy the machine is; the bounded run of make
// test stays a smoke test of the document's examples; the configuration file narrows only what docs/testing.md gives a reason for.
import { describe, expect, it } from "vitest";
import { CONFIG, STEPS } from "../../scripts/sdks/schemathesis.ts";

describe("Schemathesis's runs", () => {
  it("deep: every phase in an invocation of its own, with its own budget", () => {
    expect(STEPS.deep.map((s) => s.phases)).toEqual([["examples"], ["coverage"], ["fuzzing"], ["stateful"]]);
    for (const s of STEPS.deep) expect(s.maxTime).toBeGreaterThanOrEqual(120);
  });

  it("quick: one invocation of seconds, the examples phase with one case per example (bounded by its work)", () => {
    expect(STEPS.quick).toEqual([{ phases: ["examples"], maxTime: expect.any(Number), maxExamples: 1 }]);
    // a hang guard: the examples take about 11 s alone, and a time budget spent would leave operations out
    expect(STEPS.quick[0].maxTime).toBeLessThanOrEqual(90);
  });

  it("the configuration: no generated security parameters, every 4xx a rejection, the document's links only", () => {
    const settings = CONFIG.split("\n").filter((l) => l.trim() && !l.startsWith("#"));
    expect(settings).toEqual([
      "[generation]",
      "with-security-parameters = false",
      "[checks.negative_data_rejection]",
      'expected-statuses = ["4xx", "5xx"]',
      "[phases.stateful.inference]",
      "algorithms = []",
    ]);
  });
});
