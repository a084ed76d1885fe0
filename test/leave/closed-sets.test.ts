// Closed sets are enums: a leave type's applicable genders and employment types take
// only the values of the Gender and EmploymentType enums (`["martian"]` used to be stored, and the
// type then applied to nobody), and the migration that introduced the enums cleaned older rows
// without opening a type that applied to nobody to everyone.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectDetails, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const MIGRATION = path.resolve(import.meta.dirname, "../../prisma/migrations/20261125164553_leave_type_closed_sets/migration.sql");

describe("createLeaveType, updateLeaveType: applicable genders and employment types are enums", () => {
  it("refuses values outside the sets, naming the item", async () => {
    const o = await signupTenant(t);
    const bad = expectDetails(
      await o.agent.post("/api/leave-types").send({ name: "Maternity", code: "ML", applicable_genders: ["martian"] }),
      400,
      "validation_failed",
    );
    expect(bad.details[0].path).toBe("body.applicable_genders.0");
    expectError(await o.agent.post("/api/leave-types").send({ name: "X", code: "X1", applicable_employment_types: ["freelance"] }), 400);
    const ok = await api(o.agent)
      .op("createLeaveType", {
        body: { name: "Maternity", code: "ML", applicable_genders: ["female"], applicable_employment_types: ["full_time", "fixed_term"] },
      })
      .expect(201);
    expect(ok.body.data).toMatchObject({ applicable_genders: ["female"], applicable_employment_types: ["full_time", "fixed_term"] });
    expectError(await o.agent.put(`/api/leave-types/${ok.body.data.id}`).send({ applicable_genders: ["Female"] }), 400);
  });

  it("the migration lower-cases known values, drops unknown ones and deactivates a type that applied to nobody", async () => {
    const o = await signupTenant(t);
    const make = async (code: string) =>
      (
        await api(o.agent)
          .op("createLeaveType", { body: { name: code, code } })
          .expect(201)
      ).body.data.id;
    const [mixed, nobody, open] = [await make("MX"), await make("NB"), await make("OP")];
    // rows as the old API stored them
    await t.query("UPDATE leave_types SET applicable_genders = $2, applicable_employment_types = $3 WHERE id = $1", [
      mixed,
      ["Female", " female", "martian"],
      ["Full_Time", "intern"],
    ]);
    await t.query("UPDATE leave_types SET applicable_genders = $2 WHERE id = $1", [nobody, ["martian"]]);
    await t.query(readFileSync(MIGRATION, "utf8"));
    const rows = await t.query(
      "SELECT id, applicable_genders AS g, applicable_employment_types AS e, active FROM leave_types WHERE id = ANY($1) ORDER BY code",
      [[mixed, nobody, open]],
    );
    expect(rows).toEqual([
      { id: mixed, g: ["female"], e: ["full_time", "intern"], active: true },
      { id: nobody, g: [], e: [], active: false },
      { id: open, g: [], e: [], active: true },
    ]);
    // and the API reads every row back under the enums
    await api(o.agent).op("listLeaveTypes").expect(200);
  });
});
