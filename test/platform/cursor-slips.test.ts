// The salary slips walked by cursor (cursor-lists.test.ts has the other lists): a
// slip shows in its employee's walk once its run is processed - not while the run is a draft - since
// processing writes the run's slips in its transaction.
import { beforeAll, describe, expect, it } from "vitest";
import { type TenantSession, useTestApp } from "../support/app.ts";
import { PAYROLL_FIGURES_DAY, useClock } from "../support/clock.ts";
import { eventually } from "../support/eventually.ts";
import { memberFor, payrollEmployee, payrollWorld, type PayrollWorld } from "../payroll/fixtures.ts";
import { api, type RequestOf } from "../support/api.ts";

// the run's month is worked out from this day (as in the payroll tests)
useClock(PAYROLL_FIGURES_DAY);
const t = useTestApp();
let w: PayrollWorld;
let emp: TenantSession;

beforeAll(async () => {
  w = await payrollWorld(t);
  const empId = await payrollEmployee(t, w, "30000.00", { first_name: "Eli", last_name: "Employee" });
  emp = await memberFor(t, w, empId);
});

async function walkFrom(cursor: string | null, query: NonNullable<RequestOf<"listMySalary">["query"]> = { sort: "changed" }) {
  const res = await api(emp.agent)
    .op("listMySalary", { query: { ...query, limit: 10, ...(cursor ? { cursor } : {}) } })
    .expect(200);
  return res.body;
}

describe("listMySalary walked by cursor", () => {
  it("gives a slip once its run is processed, from the kept cursor and by updated_since", async () => {
    const start = await walkFrom(null);
    expect(start.data).toEqual([]);
    const [{ now }] = await t.query<{ now: Date }>(
      "SELECT date_trunc('milliseconds', clock_timestamp()) + interval '1 millisecond' AS now",
    );
    await t.query("SELECT pg_sleep(0.002)");
    const run = (
      await api(w.hr.agent)
        .op("createPayrollRun", { body: { period: "2026-10" } })
        .expect(201)
    ).body.data;
    // a draft's slips are not the employee's yet
    expect((await walkFrom(start.next_cursor)).data).toEqual([]);
    await api(w.hr.agent)
      .op("processPayrollRun", { params: { id: run.id } })
      .expect(200);
    const since = { updated_since: new Date(now).toISOString() };
    let got: { run_id: string }[] = [];
    const ok = await eventually(async () => {
      got = (await walkFrom(start.next_cursor)).data;
      return got.length === 1;
    });
    expect(ok).toBe(true);
    expect(got.map((s) => s.run_id)).toEqual([run.id]);
    expect((await walkFrom(null, since)).data.map((s) => s.run_id)).toEqual([run.id]);
  });
});
