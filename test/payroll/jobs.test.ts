// Large payroll runs in the background: above PAYROLL_SYNC_LIMIT employees, create / recalculate /
// process answer 202 with the run `calculating` / `processing`, the `payroll.runs` job does the
// work in one transaction (progress on the run meanwhile) and the run ends `draft` / `processed`,
// or `failed` with nothing saved. Most tests run the job in this process (`jobs.runNow`, as a
// worker would: deterministic); the last one lets a real pg-boss worker pick it up.
// Here the limit is 0 (every run is queued) and batches are 2 employees, so 6 employees give 3
// batches and a progress in between; the file's second app (`syncApp`, limit 1000) calculates
// and processes runs within the request.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { PAYROLL_RUNS_JOB } from "../../src/modules/payroll/jobs.ts";
import { appWith, expectError, type OtherApp, useTestApp, type TenantSession } from "../support/app.ts";
import { memberFor, payrollEmployee, payrollWorld, type PayrollWorld, unpaidLeave2027 } from "./fixtures.ts";
import { PAYROLL_FIGURES_DAY, useClock } from "../support/clock.ts";
import type { components } from "../../generated/api-types.ts";

// the months below (loans, runs) are worked out by hand from this day
useClock(PAYROLL_FIGURES_DAY);
const t = useTestApp({ config: { payrollSyncLimit: 0, payrollBatchSize: 2 } });
let w: PayrollWorld;
let hr: TenantSession["agent"];
const ids: string[] = [];
let aUser: TenantSession;
let loanId: string;
let claimId: string;
/** The same database and sessions on an app whose runs (up to 1000 employees) are done within the request. */
let syncApp: OtherApp;

const runJob = () => jobs.runNow(PAYROLL_RUNS_JOB, t.config);
const getRun = async (id: string) => (await api(hr).op("getPayrollRun", { params: { id } }).expect(200)).body.data;
/** Every employee's result in a run, without what differs between two calculations (ids, numbering, status, so the version). */
async function slipsOf(runId: string) {
  const summaries = (
    await api(hr)
      .op("getPayrollRunBreakdown", { params: { id: runId }, query: { limit: 100 } })
      .expect(200)
  ).body.data.employees;
  const details = await Promise.all(
    ids.map(
      async (e) =>
        (
          await api(hr)
            .op("getPayrollRunEmployee", { params: { id: runId, employeeId: e } })
            .expect(200)
        ).body.data,
    ),
  );
  const strip = ({ id: _i, run_id: _r, slip_number: _n, run_status: _s, version: _v, ...rest }: Record<string, unknown>) => rest;
  return { summaries: summaries.map(strip), details: details.map(strip) };
}
const totalsOf = (run: components["schemas"]["PayrollRun"]) => ({
  employee_count: run.employee_count,
  total_gross: run.total_gross,
  total_deductions: run.total_deductions,
  total_net: run.total_net,
  totals: run.totals,
});
async function actions(runId: string): Promise<string[]> {
  const log = await api(w.owner.agent)
    .op("listActivityLog", { query: { entity_id: runId, limit: 100 } })
    .expect(200);
  return log.body.data.map((e) => e.action).reverse();
}
async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Makes the INSERT of employee P-005's slip (the third batch) wait until `release()`. */
async function holdThirdBatch(): Promise<{ release: () => Promise<void> }> {
  const holder = new pg.Client({ connectionString: t.url });
  await holder.connect();
  await holder.query(`SELECT pg_advisory_lock(4242)`);
  await t.query(
    `CREATE FUNCTION payroll_test_hold() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM ` +
      `pg_advisory_lock_shared(4242); PERFORM pg_advisory_unlock_shared(4242); RETURN NEW; END $$`,
  );
  await t.query(
    `CREATE TRIGGER payroll_test_hold BEFORE INSERT ON payroll_slips FOR EACH ` +
      `ROW WHEN (NEW.employee_code = 'P-005') EXECUTE FUNCTION payroll_test_hold()`,
  );
  return {
    async release() {
      await holder.query(`SELECT pg_advisory_unlock(4242)`);
      await holder.end();
      await t.query(`DROP TRIGGER payroll_test_hold ON payroll_slips`);
      await t.query(`DROP FUNCTION payroll_test_hold()`);
    },
  };
}

beforeAll(async () => {
  registerAllJobs();
  syncApp = appWith(t, { payrollSyncLimit: 1000 });
  w = await payrollWorld(t);
  hr = w.hr.agent;
  for (let i = 1; i <= 6; i++)
    ids.push(
      await payrollEmployee(t, w, `${20000 + i * 5000}.00`, {
        first_name: `Emp${i}`,
        last_name: "Queue",
        employee_code: `P-00${i}`,
        gender: i % 2 ? "male" : "female",
      }),
    );
  aUser = await memberFor(t, w, ids[0]);
  const tenant = w.owner.tenantId;
  const { periodId, lwpId } = await unpaidLeave2027(t, tenant);
  await t.query(
    `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, ` +
      `to_date, days, status) VALUES ($1, $2, $3, $4, '2027-01-12', '2027-01-13', 2.0, 'approved')`,
    [tenant, ids[2], lwpId, periodId],
  );
  const type = await api(hr)
    .op("createLoanType", { body: { name: "Advance", max_amount: "50000.00", max_installments: 12 } })
    .expect(201);
  const loan = await api(aUser.agent)
    .op("createLoanAdvance", { body: { loan_type_id: type.body.data.id, amount: "6000.00", installments: 3, start_month: "2027-01" } })
    .expect(201);
  loanId = loan.body.data.id;
  await api(hr)
    .op("updateLoanAdvance", { params: { id: loanId }, body: { status: "approved" } })
    .expect(200);
  const cat = await api(hr)
    .op("createExpenseCategory", { body: { name: "Travel", max_claim_amount: "5000.00", requires_receipt: false } })
    .expect(201);
  const claim = await api(aUser.agent)
    .op("createExpenseClaim", {
      body: { category_id: cat.body.data.id, amount: "700.00", expense_date: "2026-11-02", description: "Taxi" },
    })
    .expect(201);
  claimId = claim.body.data.id;
  await api(hr)
    .op("updateExpenseClaim", { params: { id: claimId }, body: { status: "approved" } })
    .expect(200);
});
afterAll(async () => {
  await jobs.stop();
});

describe("a run above the limit is calculated in the background", () => {
  let runId: string;
  let inRequest: Awaited<ReturnType<typeof slipsOf>>;
  let inRequestTotals: ReturnType<typeof totalsOf>;

  it(
    "create: 202 with the run calculating, nothing calculated yet; " +
      "the job makes it a draft identical to a calculation within the request",
    async () => {
      const res = await api(hr)
        .op("createPayrollRun", { body: { period: "2027-01", notes: "Jan" } })
        .expect(202);
      runId = res.body.data.id;
      expect(res.body.data).toMatchObject({
        status: "calculating",
        progress: { processed: 0, total: 6 },
        failure_reason: null,
        employee_count: 0,
        totals: null,
        calculated_at: null,
      });
      expect(res.body.data.queued_at).toBeTruthy();
      const bd = (
        await api(hr)
          .op("getPayrollRunBreakdown", { params: { id: runId } })
          .expect(200)
      ).body.data;
      expect(bd).toMatchObject({ employees: [], totals: { employee_count: 0, net_pay: "0.00", components: [] } });
      expectError(await api(hr).op("createPayrollRun", { body: { period: "2027-01" } }), 409, "conflict");

      await runJob();
      const run = await getRun(runId);
      expect(run).toMatchObject({ status: "draft", progress: { processed: 6, total: 6 }, failure_reason: null, employee_count: 6 });
      expect(run.calculated_at).toBeTruthy();
      const queued = await slipsOf(runId);
      expect(queued.summaries).toHaveLength(6);

      // the same run recalculated within the request (limit back up) gives the very same slips and totals
      const again = await api(syncApp.as(hr))
        .op("updatePayrollRun", { params: { id: runId }, body: {} })
        .expect(200);
      inRequest = await slipsOf(runId);
      inRequestTotals = totalsOf(again.body.data);
      expect(queued).toEqual(inRequest);
      expect(totalsOf(run)).toEqual(inRequestTotals);
      expect(inRequest.details[0]).toMatchObject({ loan_deduction: "2000.00", reimbursements: "700.00" });
      expect(inRequest.details[2].lop_days).toBe("2.0");
      expect(await actions(runId)).toEqual(["payroll_run.created", "payroll_run.calculated", "payroll_run.recalculated"]);
    },
  );

  it(
    "recalculate: 202, progress visible while the job runs, " +
      "the previous slips readable until the new ones replace them; busy run is a 409 to every change",
    async () => {
      const before = await getRun(runId);
      const res = await api(hr)
        .op("updatePayrollRun", { params: { id: runId }, body: { notes: "Jan, again" } })
        .expect(202);
      expect(res.body.data).toMatchObject({ status: "calculating", notes: "Jan, again", progress: { processed: 0, total: 6 } });

      const hold = await holdThirdBatch();
      let job: Promise<void> | undefined;
      try {
        job = runJob();
        const during = await until("two batches written", async () => {
          const r = await getRun(runId);
          return r.progress.processed === 4 ? r : undefined;
        });
        expect(during).toMatchObject({
          status: "calculating",
          progress: { processed: 4, total: 6 },
          employee_count: 6,
          calculated_at: before.calculated_at,
        });
        // nothing of the running calculation is visible: the previous one is still complete
        expect(
          (
            await api(hr)
              .op("getPayrollRunBreakdown", { params: { id: runId }, query: { limit: 100 } })
              .expect(200)
          ).body.data.employees,
        ).toHaveLength(6);
        const [x, y, z] = await Promise.all([
          api(hr).op("updatePayrollRun", { params: { id: runId }, body: {} }),
          api(hr).op("processPayrollRun", { params: { id: runId } }),
          api(hr).op("deletePayrollRun", { params: { id: runId } }),
        ]);
        for (const r of [x, y, z]) expect(expectError(r, 409, "conflict").error).toMatch(/being calculated/);
      } finally {
        await hold.release();
        await job;
      }
      const after = await getRun(runId);
      expect(after).toMatchObject({ status: "draft", notes: "Jan, again", progress: { processed: 6, total: 6 } });
      expect(after.calculated_at! > before.calculated_at!).toBe(true);
      expect(await slipsOf(runId)).toEqual(inRequest);
      expect((await actions(runId)).slice(-2)).toEqual(["payroll_run.recalculation_queued", "payroll_run.calculated"]);
    },
  );

  it(
    "process: two concurrent calls are a 202 and a 409; " +
      "the job processes it with the same slips, numbered, loan and claim paid; then 409s",
    async () => {
      const [x, y] = await Promise.all([
        api(hr).op("processPayrollRun", { params: { id: runId } }),
        api(w.owner.agent).op("processPayrollRun", { params: { id: runId } }),
      ]);
      expect([x.status, y.status].sort()).toEqual([202, 409]);
      const accepted = x.status === 202 ? x : y;
      expect(accepted.body.data).toMatchObject({ status: "processing", progress: { processed: 0, total: 6 }, processed_at: null });
      expect(expectError(await api(hr).op("processPayrollRun", { params: { id: runId } }), 409, "conflict").error).toMatch(
        /being processed/,
      );
      expectError(await api(hr).op("updatePayrollRun", { params: { id: runId }, body: {} }), 409, "conflict");
      expectError(await api(hr).op("deletePayrollRun", { params: { id: runId } }), 409, "conflict");
      // nothing is paid before the job ran
      expect(
        (
          await api(aUser.agent)
            .op("getLoanAdvance", { params: { id: loanId } })
            .expect(200)
        ).body.data.status,
      ).toBe("approved");
      expectError(await api(aUser.agent).op("getMySalarySlip", { params: { draftId: runId } }), 404, "not_found");

      await runJob();
      const run = await getRun(runId);
      expect(run).toMatchObject({ status: "processed", progress: { processed: 6, total: 6 }, failure_reason: null });
      expect(run.processed_at).toBeTruthy();
      expect([w.hr.userId, w.owner.userId]).toContain(run.processed_by);
      expect(totalsOf(run)).toEqual(inRequestTotals);
      expect(await slipsOf(runId)).toEqual(inRequest);
      const numbers = (
        await api(hr)
          .op("getPayrollRunBreakdown", { params: { id: runId }, query: { limit: 100 } })
          .expect(200)
      ).body.data.employees.map((s) => [s.employee_code, s.slip_number, s.run_status]);
      expect(numbers).toEqual([1, 2, 3, 4, 5, 6].map((i) => [`P-00${i}`, `PS-202701-0000${i}`, "processed"]));
      expect(
        (
          await api(aUser.agent)
            .op("getLoanAdvance", { params: { id: loanId } })
            .expect(200)
        ).body.data,
      ).toMatchObject({
        status: "active",
        repaid_amount: "2000.00",
      });
      expect(
        (
          await api(aUser.agent)
            .op("getExpenseClaim", { params: { id: claimId } })
            .expect(200)
        ).body.data,
      ).toMatchObject({
        status: "paid",
        paid_run_id: runId,
      });
      expect(
        (
          await api(aUser.agent)
            .op("getMySalarySlip", { params: { draftId: runId } })
            .expect(200)
        ).body.data,
      ).toMatchObject({
        slip_number: "PS-202701-00001",
        net_pay: inRequest.details[0].net_pay,
      });
      // getMySalarySlip, downloadMySalarySlip: the list item's own `id` names the same slip as its `run_id`
      const [item] = (await api(aUser.agent).op("listMySalary").expect(200)).body.data;
      expect(item).toMatchObject({ run_id: runId, slip_number: "PS-202701-00001" });
      expect(
        (
          await api(aUser.agent)
            .op("getMySalarySlip", { params: { draftId: item.id } })
            .expect(200)
        ).body.data,
      ).toMatchObject({
        id: item.id,
        slip_number: "PS-202701-00001",
      });
      await aUser.agent.get(`/api/payroll/my-salary/${item.id}/pdf`).expect(200).expect("Content-Type", /pdf/);
      const log = (
        await api(w.owner.agent)
          .op("listActivityLog", { query: { entity_id: runId, limit: 100 } })
          .expect(200)
      ).body.data;
      const processed = log.find((e) => e.action === "payroll_run.processed");
      expect(processed).toMatchObject({
        actor_user_id: run.processed_by,
        changes: { status: { from: "processing", to: "processed" }, employees: 6, loan_installments_paid: 1, expense_claims_paid: 1 },
      });
      expect(log.map((e) => e.action)).toContain("payroll_run.process_queued");

      expect(expectError(await api(hr).op("processPayrollRun", { params: { id: runId } }), 409, "conflict").error).toMatch(
        /already processed/,
      );
      expectError(await api(hr).op("updatePayrollRun", { params: { id: runId }, body: {} }), 409, "conflict");
      expectError(await api(hr).op("deletePayrollRun", { params: { id: runId } }), 409, "conflict");
      await runJob(); // nothing left to do: a repeated sweep changes nothing
      expect(await getRun(runId)).toEqual(run);
    },
  );
});

describe("a failure in the middle of background processing", () => {
  it(
    "leaves nothing half-processed: the run is failed with a " + "reason and no slips, nothing is paid; it can be processed again",
    async () => {
      const draft = (
        await api(syncApp.as(hr))
          .op("createPayrollRun", { body: { period: "2027-02" } })
          .expect(201)
      ).body.data;
      expect(draft.employee_count).toBe(6);
      await t.query(`CREATE FUNCTION payroll_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$`);
      // processing writes every slip: the draft's own numbered (UPDATE), or calculated again (INSERT)
      await t.query(
        `CREATE TRIGGER payroll_test_fail BEFORE INSERT OR UPDATE ON payroll_slips FOR EACH ` +
          `ROW WHEN (NEW.employee_code = 'P-005') EXECUTE FUNCTION payroll_test_fail()`,
      );
      try {
        await api(hr)
          .op("processPayrollRun", { params: { id: draft.id } })
          .expect(202);
        await runJob();
      } finally {
        await t.query(`DROP TRIGGER payroll_test_fail ON payroll_slips`);
        await t.query(`DROP FUNCTION payroll_test_fail()`);
      }
      const failed = await getRun(draft.id);
      expect(failed).toMatchObject({
        status: "failed",
        progress: { processed: 0, total: 6 },
        employee_count: 0,
        total_net: "0.00",
        totals: null,
        processed_at: null,
      });
      expect(failed.failure_reason).toMatch(/^Processing failed because of an internal error\. Nothing was saved/);
      expect(failed.failure_reason).not.toMatch(/boom|payroll_slips|trigger/);
      const [slips] = await t.query(`SELECT count(*)::int AS n FROM payroll_slips WHERE run_id = $1`, [draft.id]);
      expect(slips.n).toBe(0);
      expect(
        (
          await api(hr)
            .op("getPayrollRunBreakdown", { params: { id: draft.id } })
            .expect(200)
        ).body.data,
      ).toMatchObject({
        employees: [],
        totals: { employee_count: 0 },
      });
      const [inst] = await t.query(`SELECT count(*)::int AS n FROM loan_installments WHERE loan_id = $1 AND status = 'paid'`, [loanId]);
      expect(inst.n).toBe(1); // January's only
      expectError(await api(aUser.agent).op("getMySalarySlip", { params: { draftId: draft.id } }), 404, "not_found");
      const [notes] = await t.query(`SELECT count(*)::int AS n FROM notifications WHERE link = $1`, [`/api/payroll/my-salary/${draft.id}`]);
      expect(notes.n).toBe(0);
      expect((await actions(draft.id)).slice(-2)).toEqual(["payroll_run.process_queued", "payroll_run.failed"]);

      // the cause gone, it is processed again
      await api(hr)
        .op("processPayrollRun", { params: { id: draft.id } })
        .expect(202);
      await runJob();
      const done = await getRun(draft.id);
      expect(done).toMatchObject({ status: "processed", failure_reason: null, employee_count: 6, progress: { processed: 6, total: 6 } });
      expect(
        (
          await api(aUser.agent)
            .op("getLoanAdvance", { params: { id: loanId } })
            .expect(200)
        ).body.data,
      ).toMatchObject({
        status: "active",
        repaid_amount: "4000.00",
      });
    },
  );

  it("a failed background calculation: failed, no slips; PUT recalculates it to a draft, DELETE removes it", async () => {
    await t.query(`CREATE FUNCTION payroll_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$`);
    await t.query(
      `CREATE TRIGGER payroll_test_fail BEFORE INSERT ON payroll_slips FOR EACH ` +
        `ROW WHEN (NEW.employee_code = 'P-003') EXECUTE FUNCTION payroll_test_fail()`,
    );
    let runId: string;
    try {
      runId = (
        await api(hr)
          .op("createPayrollRun", { body: { period: "2027-03" } })
          .expect(202)
      ).body.data.id;
      await runJob();
    } finally {
      await t.query(`DROP TRIGGER payroll_test_fail ON payroll_slips`);
      await t.query(`DROP FUNCTION payroll_test_fail()`);
    }
    const failed = await getRun(runId);
    expect(failed).toMatchObject({ status: "failed", employee_count: 0, totals: null });
    expect(failed.failure_reason).toMatch(/^The calculation failed because of an internal error/);
    expect(
      (
        await api(hr)
          .op("listPayrollRuns", { query: { status: "failed" } })
          .expect(200)
      ).body.data.map((r) => r.id),
    ).toEqual([runId]);
    const fixed = await api(syncApp.as(hr))
      .op("updatePayrollRun", { params: { id: runId }, body: {} })
      .expect(200);
    expect(fixed.body.data).toMatchObject({ status: "draft", failure_reason: null, employee_count: 6 });
    await api(hr)
      .op("deletePayrollRun", { params: { id: runId } })
      .expect(200);
  });
});

describe("several workers", () => {
  it("two sweeps at once execute a queued run once: one calculation, one processing, slips written once", async () => {
    const id = (
      await api(hr)
        .op("createPayrollRun", { body: { period: "2027-05" } })
        .expect(202)
    ).body.data.id;
    await Promise.all([runJob(), runJob()]);
    expect(await getRun(id)).toMatchObject({ status: "draft", employee_count: 6 });
    await api(hr).op("processPayrollRun", { params: { id } }).expect(202);
    await Promise.all([runJob(), runJob()]);
    expect(await getRun(id)).toMatchObject({ status: "processed", employee_count: 6 });
    expect(await actions(id)).toEqual([
      "payroll_run.created",
      "payroll_run.calculated",
      "payroll_run.process_queued",
      "payroll_run.processed",
    ]);
    const [slips] = await t.query(
      `SELECT count(*)::int AS n, count(DISTINCT slip_number)::int AS numbers FROM payroll_slips WHERE run_id = $1`,
      [id],
    );
    expect(slips).toEqual({ n: 6, numbers: 6 });
  });
});

describe("with a job worker running", () => {
  it("the queued work is picked up without anyone calling the job: calculating → draft, processing → processed", async () => {
    await jobs.start(t.url, t.config);
    const created = await api(hr)
      .op("createPayrollRun", { body: { period: "2027-06" } })
      .expect(202);
    const id = created.body.data.id;
    const seen = new Set<string>([created.body.data.status]);
    const draft = await until("the calculation", async () => {
      const r = await getRun(id);
      seen.add(r.status);
      return r.status === "draft" ? r : undefined;
    });
    expect(draft).toMatchObject({ employee_count: 6, progress: { processed: 6, total: 6 } });
    expect((await api(hr).op("processPayrollRun", { params: { id } }).expect(202)).body.data.status).toBe("processing");
    const done = await until("the processing", async () => {
      const r = await getRun(id);
      seen.add(r.status);
      return r.status === "processed" ? r : undefined;
    });
    expect(done.total_net).toBe(draft.total_net);
    expect([...seen]).toEqual(expect.arrayContaining(["calculating", "draft", "processing", "processed"]));
    expect(seen.has("failed")).toBe(false);
  });
});

describe("the document", () => {
  it("declares the background statuses, the progress fields and the 202 answers", async () => {
    const doc = (await t.request().get("/openapi.json").expect(200)).body;
    expect(doc.components.schemas.PayrollRunStatus.enum).toEqual(["draft", "calculating", "processing", "processed", "failed"]);
    const run = doc.components.schemas.PayrollRun;
    expect(run.required).toEqual(expect.arrayContaining(["progress", "failure_reason", "queued_at"]));
    expect(run.properties.progress.required).toEqual(["processed", "total"]);
    const paths = doc.paths;
    expect(Object.keys(paths["/api/payroll/draft-runs"].post.responses)).toEqual(expect.arrayContaining(["201", "202", "409"]));
    expect(Object.keys(paths["/api/payroll/draft-runs/{id}"].put.responses)).toEqual(expect.arrayContaining(["200", "202", "409"]));
    expect(Object.keys(paths["/api/payroll/draft-runs/{id}/process"].post.responses)).toEqual(
      expect.arrayContaining(["200", "202", "409"]),
    );
  });
});
