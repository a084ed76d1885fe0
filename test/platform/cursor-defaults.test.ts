// A walk by cursor from a generated client that sends every query parameter's declared default
// (openapi-python-client sends `page=1`, `include_deleted=false` and `limit=20` when told nothing):
// a parameter at its default is the same request as one without it, for the walk's rules (`page`
// in a walk is a 400 only when it is another page) and for the cursor's binding (a cursor given to
// one client goes on in another that leaves the defaults out).
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { api, type RequestOf } from "../support/api.ts";
import { createEmployee } from "../support/employees.ts";

const t = useTestApp();
let owner: TenantSession;
const ids: string[] = [];

beforeAll(async () => {
  owner = await signupTenant(t);
  for (let i = 0; i < 5; i++) ids.push((await createEmployee(owner)).id);
});

type Query = NonNullable<RequestOf<"listEmployees">["query"]>;

async function get(query: Query) {
  return (await api(owner.agent).op("listEmployees", { query }).expect(200)).body;
}

describe("listEmployees: a walk with the declared defaults sent", () => {
  it("walks to the end with page=1 and include_deleted=false on every request, and the cursor goes on without them", async () => {
    const defaults = { page: 1, include_deleted: false, sort: "changed" } as const;
    const first = await get({ ...defaults, limit: 2 });
    expect(first.data).toHaveLength(2);
    const second = await get({ ...defaults, limit: 2, cursor: first.next_cursor! });
    // the same cursor in a client that leaves the defaults out: the same walk
    const same = await get({ sort: "changed", limit: 2, cursor: first.next_cursor! });
    expect(same.data.map((e) => e.id)).toEqual(second.data.map((e) => e.id));
    const rest = await get({ ...defaults, limit: 10, cursor: second.next_cursor! });
    expect([...first.data, ...second.data, ...rest.data].map((e) => e.id).sort()).toEqual([...ids].sort());
  });

  it("still refuses another page in a walk (400 naming query.page)", async () => {
    const first = await get({ sort: "changed", limit: 2 });
    const res = await api(owner.agent).op("listEmployees", { query: { sort: "changed", limit: 2, page: 2, cursor: first.next_cursor! } });
    expect(JSON.stringify(expectError(res, 400, "validation_failed").details)).toContain("query.page");
  });
});
