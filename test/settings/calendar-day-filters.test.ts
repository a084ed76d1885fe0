// Lists filtered by calendar dates over instants (the activity log's `from`/`to`, encashments'
// `from_date`/`to_date` on their creation) take the dates as the company's days in its time zone
// (Asia/Kolkata, UTC+05:30), not as UTC days: 30 November 19:00 UTC is 1 December 00:30 there.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { useTestApp } from "../support/app.ts";
import { createType, grant, type LeaveWorld, leaveWorld } from "../leave/fixtures.ts";

const t = useTestApp();
let w: LeaveWorld;

// the last second of 30 November and the first half hour of 1 December in India
const LATE_30_NOV = "2026-11-30T18:29:59Z";
const EARLY_1_DEC = "2026-11-30T19:00:00Z";

beforeAll(async () => {
  w = await leaveWorld(t);
});

describe("listActivityLog: from and to are the company's days", () => {
  it("an entry at 00:30 on 1 December in India is on 1 December, one at 23:59 on 30 November on 30 November", async () => {
    await api(w.owner.agent)
      .op("updateCompanySettings", { body: { name: "Calendar Days Ltd" } })
      .expect(200);
    await api(w.owner.agent)
      .op("updateCompanySettings", { body: { name: "Calendar Days Pvt Ltd" } })
      .expect(200);
    const entries = await t.query<{ id: string }>(
      "SELECT id FROM audit_logs WHERE tenant_id = $1 AND action = 'settings.updated' ORDER BY created_at",
      [w.owner.tenantId],
    );
    expect(entries).toHaveLength(2);
    await t.query("UPDATE audit_logs SET created_at = $2 WHERE id = $1", [entries[0].id, LATE_30_NOV]);
    await t.query("UPDATE audit_logs SET created_at = $2 WHERE id = $1", [entries[1].id, EARLY_1_DEC]);
    const on = async (day: string) =>
      (
        await api(w.owner.agent)
          .op("listActivityLog", { query: { action: "settings.updated", from: day, to: day } })
          .expect(200)
      ).body.data.map((e) => e.id);
    expect(await on("2026-11-30")).toEqual([entries[0].id]);
    expect(await on("2026-12-01")).toEqual([entries[1].id]);
    expect(await on("2026-12-02")).toEqual([]);
  });
});

describe("listLeaveEncashments: from_date and to_date on the creation are the company's days", () => {
  it("an encashment asked at 00:30 on 1 December in India is listed on 1 December, not 30 November", async () => {
    const ty = await createType(w.hr.agent, { name: "Earned", code: "ENC", encashable: true, encashment_max_days: "10" });
    await grant(w.hr.agent, w.employeeId, ty.id, "10");
    const ask = async () =>
      (
        await api(w.hr.agent)
          .op("createLeaveEncashment", { body: { employee_id: w.employeeId, leave_type_id: ty.id, days: "1" } })
          .expect(201)
      ).body.data.id;
    const late = await ask();
    const early = await ask();
    await t.query("UPDATE leave_encashments SET created_at = $2 WHERE id = $1", [late, LATE_30_NOV]);
    await t.query("UPDATE leave_encashments SET created_at = $2 WHERE id = $1", [early, EARLY_1_DEC]);
    const on = async (day: string) =>
      (
        await api(w.hr.agent)
          .op("listLeaveEncashments", { query: { from_date: day, to_date: day } })
          .expect(200)
      ).body.data.map((e) => e.id);
    expect(await on("2026-11-30")).toEqual([late]);
    expect(await on("2026-12-01")).toEqual([early]);
  });
});
