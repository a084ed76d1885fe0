// Statutory payroll settings: statutory defaults, partial updates, validation and audit.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { payrollCompany } from "./fixtures.ts";
import { addMember, expectDetails, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";

const t = useTestApp();
let owner: TenantSession;

beforeAll(async () => {
  ({ owner } = await payrollCompany(t));
});

describe(
  "getPfSettings, updatePfSettings, getEsiSettings, updateEsiSettings, getProfessionalTaxSettings, " +
    "updateProfessionalTaxSettings, getGratuitySettings, updateGratuitySettings: statutory settings",
  () => {
    it("serves the statutory defaults for PF, ESI, professional tax and gratuity", async () => {
      const pf = (await api(owner.agent).op("getPfSettings").expect(200)).body.data;
      expect(pf).toMatchObject({
        employee_rate: "12.00",
        employer_rate: "12.00",
        eps_rate: "8.33",
        edli_rate: "0.50",
        admin_charge_minimum: "500.00",
        wage_ceiling: "15000.00",
        eps_age_limit: 58,
      });
      const esi = (await api(owner.agent).op("getEsiSettings").expect(200)).body.data;
      expect(esi).toMatchObject({
        employee_rate: "0.75",
        employer_rate: "3.25",
        wage_threshold: "21000.00",
        low_wage_daily_exemption: "176.00",
      });
      const pt = (await api(owner.agent).op("getProfessionalTaxSettings").expect(200)).body.data;
      const mh = pt.states.find((s) => s.state === "Maharashtra");
      expect(mh!.slabs).toContainEqual({
        gender: "male",
        min_salary: "10000.01",
        max_salary: null,
        monthly_amount: "200.00",
        february_amount: "300.00",
      });
      const ka = pt.states.find((s) => s.state === "Karnataka");
      expect(ka!.slabs).toContainEqual({
        gender: "any",
        min_salary: "25000.00",
        max_salary: null,
        monthly_amount: "200.00",
        february_amount: "300.00",
      });
      const gr = (await api(owner.agent).op("getGratuitySettings").expect(200)).body.data;
      expect(gr).toMatchObject({ days_per_year: 15, divisor: 26, min_years: 5, cap: "2000000.00", updated_at: null });
    });

    it("updates partially, keeps the rest, and audits from → to", async () => {
      const res = await api(owner.agent)
        .op("updateEsiSettings", { body: { wage_threshold: "25000.00" } })
        .expect(200);
      expect(res.body.data).toMatchObject({ wage_threshold: "25000.00", employee_rate: "0.75" });
      expect(res.body.data.updated_at).not.toBeNull();
      const log = await api(owner.agent)
        .op("listActivityLog", { query: { action: "settings.esi_updated" } })
        .expect(200);
      expect(log.body.data[0].changes).toEqual({ wage_threshold: { from: "21000.00", to: "25000.00" } });
      const gr = await api(owner.agent)
        .op("updateGratuitySettings", { body: { min_years: 4 } })
        .expect(200);
      expect(gr.body.data).toMatchObject({ min_years: 4, divisor: 26 });
    });

    it("replaces professional-tax states and refuses overlapping slabs or duplicate states", async () => {
      const tn = {
        state: "Tamil Nadu",
        slabs: [
          { gender: "any", min_salary: "0.00", max_salary: "21000.00", monthly_amount: "0.00", february_amount: "0.00" },
          { gender: "any", min_salary: "21000.01", max_salary: null, monthly_amount: "208.00", february_amount: "208.00" },
        ],
      };
      const ok = await owner.agent
        .post("/api/configuration/payroll/professional-tax")
        .send({ states: [tn] })
        .expect(200);
      expect(ok.body.data.states).toEqual([tn]);
      const overlap = {
        state: "Gujarat",
        slabs: [
          { gender: "any", min_salary: "0.00", max_salary: "12000.00", monthly_amount: "0.00", february_amount: "0.00" },
          { gender: "any", min_salary: "11999.00", max_salary: null, monthly_amount: "200.00", february_amount: "200.00" },
        ],
      };
      const bad = expectDetails(
        await owner.agent.post("/api/configuration/payroll/professional-tax").send({ states: [overlap] }),
        400,
        "validation_failed",
      );
      expect(bad.details[0].path).toBe("body.states.0.slabs.1.min_salary");
      expectError(
        await owner.agent.post("/api/configuration/payroll/professional-tax").send({ states: [tn, tn] }),
        400,
        "validation_failed",
      );
      expect((await api(owner.agent).op("getProfessionalTaxSettings").expect(200)).body.data.states).toEqual([tn]);
    });

    it("updatePfSettings stores a change, keeps the other defaults and audits it", async () => {
      const res = await api(owner.agent)
        .op("updatePfSettings", { body: { employee_rate: "10.00", restrict_to_ceiling: false } })
        .expect(200);
      expect(res.body.data).toMatchObject({
        employee_rate: "10.00",
        restrict_to_ceiling: false,
        employer_rate: "12.00",
        wage_ceiling: "15000.00",
      });
      const read = (await api(owner.agent).op("getPfSettings").expect(200)).body.data;
      expect(read).toMatchObject({ employee_rate: "10.00", restrict_to_ceiling: false, eps_rate: "8.33" });
      const [entry] = await t.query<{ changes: Record<string, unknown> }>(
        "SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'settings.pf_updated' ORDER BY created_at DESC LIMIT 1",
        [owner.tenantId],
      );
      expect(entry.changes).toMatchObject({
        employee_rate: { from: "12.00", to: "10.00" },
        restrict_to_ceiling: { from: true, to: false },
      });
      // back to the defaults for the tests that follow
      await api(owner.agent)
        .op("updatePfSettings", { body: { employee_rate: "12.00", restrict_to_ceiling: true } })
        .expect(200);
    });

    it("refuses malformed money and out-of-range rates, and roles other than owner/admin/hr", async () => {
      expectError(await api(owner.agent).op("updatePfSettings", { body: { wage_ceiling: "15000" } }), 400, "validation_failed");
      expectError(await api(owner.agent).op("updatePfSettings", { body: { employee_rate: "100.01" } }), 400, "validation_failed");
      expectError(await api(owner.agent).op("updatePfSettings", { body: {} }), 400, "validation_failed");
      const mgr = await addMember(t, owner, "manager");
      expectError(await api(mgr.agent).op("getGratuitySettings"), 403, "forbidden");
      const other = await signupTenant(t);
      await api(other.agent)
        .op("updateCompanySettings", { body: { modules: ["payroll"] } })
        .expect(200);
      const esi = (await api(other.agent).op("getEsiSettings").expect(200)).body.data;
      expect(esi.wage_threshold).toBe("21000.00"); // the first tenant's change is its own
    });
  },
);
