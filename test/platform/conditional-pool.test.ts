// Conditional writes on a small pool (src/http/conditional.ts, src/db/primitives.ts onOneConnection):
// the If-Match check, the write and the new tag run on one connection, so more concurrent
// conditional writes than the pool has connections all complete - none waits for a second
// connection while holding one (which ended in 503s once every connection was held that way).
import { describe, expect, it } from "vitest";
import { signupTenant, useTestApp } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";
import { api } from "../support/api.ts";

const POOL = 3;
const t = useTestApp({ db: { max: POOL } });

describe("conditional writes on a pool of three connections", () => {
  it("nine If-Match PUTs of nine employees at once: all written, each answer with its new tag", async () => {
    const owner = await signupTenant(t);
    const people: { id: string }[] = [];
    for (let i = 0; i < POOL * 3; i++) people.push(await createEmployee(owner, { designation: "Engineer" }));
    const tags: string[] = [];
    for (const e of people)
      tags.push(
        (
          await api(owner.agent)
            .op("getEmployee", { params: { employeeId: e.id } })
            .expect(200)
        ).headers.etag,
      );
    const answers = await Promise.all(
      people.map((e, i) =>
        api(owner.agent).op("updateEmployee", {
          params: { employeeId: e.id },
          body: { designation: `Lead ${i}` },
          headers: { "If-Match": tags[i] },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(people.map(() => 200));
    const rows = await t.query<{ id: string; designation: string }>("SELECT id, designation FROM employees WHERE id = ANY($1::uuid[])", [
      people.map((e) => e.id),
    ]);
    expect(new Map(rows.map((r) => [r.id, r.designation]))).toEqual(new Map(people.map((e, i) => [e.id, `Lead ${i}`])));
    for (const [i, e] of people.entries()) {
      const now = (
        await api(owner.agent)
          .op("getEmployee", { params: { employeeId: e.id } })
          .expect(200)
      ).headers.etag;
      expect(answers[i].headers.etag).toBe(now);
    }
  });

  it("a conditional write that fails is undone whole: a stale tag among fresh ones changes nothing of its own", async () => {
    const owner = await signupTenant(t);
    const people: { id: string }[] = [];
    for (let i = 0; i < POOL * 2; i++) people.push(await createEmployee(owner, { designation: "Engineer" }));
    const tags: string[] = [];
    for (const e of people)
      tags.push(
        (
          await api(owner.agent)
            .op("getEmployee", { params: { employeeId: e.id } })
            .expect(200)
        ).headers.etag,
      );
    tags[0] = '"stale0000000000000000000"';
    const answers = await Promise.all(
      people.map((e, i) =>
        api(owner.agent).op("updateEmployee", {
          params: { employeeId: e.id },
          body: { designation: `Lead ${i}` },
          headers: { "If-Match": tags[i] },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(people.map((_, i) => (i === 0 ? 412 : 200)));
    const first = await t.query<{ designation: string }>("SELECT designation FROM employees WHERE id = $1", [people[0].id]);
    expect(first[0].designation).toBe("Engineer");
  });
});
