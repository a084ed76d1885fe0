// Interview panel configuration: defaults, validation of rounds and interviewers, roles.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectDetails, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";

const t = useTestApp();
let owner: TenantSession;

beforeAll(async () => {
  owner = await signupTenant(t);
  await api(owner.agent)
    .op("updateCompanySettings", { body: { modules: ["recruitment"] } })
    .expect(200);
});

describe("getInterviewPanel, updateInterviewPanel: interview panel", () => {
  it("starts with the default rounds and accepts a new panel of members", async () => {
    const d = await api(owner.agent).op("getInterviewPanel").expect(200);
    expect(d.body.data.rounds.map((r) => r.name)).toEqual(["HR screening", "Technical", "Hiring manager"]);
    expect(d.body.data).toMatchObject({ rating_scale: 5, feedback_deadline_hours: 48, updated_at: null });
    const hr = await addMember(t, owner, "hr");
    const mgr = await addMember(t, owner, "manager");
    const rounds = [
      { name: "Case study", sequence: 2, duration_minutes: 90, mode: "video" as const, interviewer_user_ids: [mgr.userId] },
      { name: "Culture fit", sequence: 1, duration_minutes: 30, mode: "phone" as const, interviewer_user_ids: [hr.userId] },
    ];
    const u = await api(hr.agent)
      .op("updateInterviewPanel", { body: { rounds, rating_scale: 10 } })
      .expect(200);
    expect(u.body.data.rounds.map((r) => r.name)).toEqual(["Culture fit", "Case study"]);
    expect(u.body.data).toMatchObject({ rating_scale: 10, feedback_deadline_hours: 48 });
    const read = await api(mgr.agent).op("getInterviewPanel").expect(200);
    expect(read.body.data.rounds[0].interviewer_user_ids).toEqual([hr.userId]);
    expectError(await api(mgr.agent).op("updateInterviewPanel", { body: { rating_scale: 5 } }), 403, "forbidden");
  });

  it("refuses duplicate sequences and interviewers who are not members", async () => {
    const outsider = await signupTenant(t);
    const bad = expectDetails(
      await api(owner.agent).op("updateInterviewPanel", {
        body: { rounds: [{ name: "A", sequence: 1, duration_minutes: 30, mode: "phone", interviewer_user_ids: [outsider.userId] }] },
      }),
      400,
      "validation_failed",
    );
    expect(bad.details[0].path).toBe("body.rounds.0.interviewer_user_ids.0");
    const dup = expectDetails(
      await api(owner.agent).op("updateInterviewPanel", {
        body: {
          rounds: [
            { name: "A", sequence: 1, duration_minutes: 30, mode: "phone", interviewer_user_ids: [] },
            { name: "B", sequence: 1, duration_minutes: 30, mode: "phone", interviewer_user_ids: [] },
          ],
        },
      }),
      400,
      "validation_failed",
    );
    expect(dup.details[0].path).toBe("body.rounds.1.sequence");
    const emp = await addMember(t, owner, "employee");
    expectError(await api(emp.agent).op("getInterviewPanel"), 403, "forbidden");
  });
});
