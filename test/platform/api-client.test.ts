// The typed test client (test/support/api.ts): calls an operation by its operationId with typed
// input, and types the response's body for the status the test expects - so a change of the contract
// breaks the tests that use it at compile time (`make typecheck` checks the @ts-expect-error lines).
import { describe, expect, it } from "vitest";
import { api, operationPath } from "../support/api.ts";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";

const t = useTestApp();

describe("api(agent).op(operationId, ...)", () => {
  it("puts the path parameters in (percent-encoded) and refuses a call without one", () => {
    expect(operationPath("getHelpdeskTicket", { id: "a/b c" })).toBe("/api/helpdesk/tickets/a%2Fb%20c");
    expect(() => operationPath("getHelpdeskTicket")).toThrow("getHelpdeskTicket: path parameter id missing");
  });

  it("returns the typed body of the expected status, throws with the body on another", async () => {
    const owner = await signupTenant(t);
    const me = await api(owner.agent).op("getSession").expect(200);
    const userId: string = me.body.data.user.id;
    expect(userId).toBe(owner.userId);
    await expect(
      api(owner.agent)
        .op("getEmployee", { params: { employeeId: "00000000-0000-4000-8000-000000000000" } })
        .expect(200),
    ).rejects.toThrow(/getEmployee: expected 200, got 404 .*"code":"not_found"/);
    // awaited as it is: supertest's response, for expectError and the like
    expectError(
      await api(owner.agent).op("getEmployee", { params: { employeeId: "00000000-0000-4000-8000-000000000000" } }),
      404,
      "not_found",
    );
  });

  it("types the input and the statuses from the document (compile-time checks)", () => {
    const calls = (agent: Parameters<typeof api>[0]) => {
      const getEmployee = api(agent).op("getEmployee", { params: { employeeId: "x" } });
      const ticket = { title: "t", description: "d", category: "it", priority: "low" } as const;
      return [
        // @ts-expect-error getEmployee needs its path parameter
        () => api(agent).op("getEmployee"),
        // @ts-expect-error createHelpdeskTicket's body has no field `nope`
        () => api(agent).op("createHelpdeskTicket", { body: { ...ticket, nope: 1 } }),
        // @ts-expect-error getEmployee declares no 418
        () => getEmployee.expect(418),
        () => api(agent).op("createHelpdeskTicket", { body: ticket }),
      ];
    };
    expect(calls).toBeTypeOf("function");
  });
});
