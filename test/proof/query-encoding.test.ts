// Every free-text query parameter of every operation, sent as each common client encodes it
// (test/proof/query-styles.ts: form `+`, encodeURIComponent, strict and lower-case percent
// encoding, a hand-written URL), is accepted and means the same value: the same status and the
// same answer in every style. Derived from generated/openapi.json, so a parameter added to the
// document is covered without a new test.
import { beforeAll, describe, expect, it } from "vitest";
import { signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";
import { markGeneric } from "../support/recorder.ts";
import { effective, operations, type Operation } from "./openapi.ts";
import { encodeQuery, QUERY_STYLES } from "./query-styles.ts";
import { enableAllModules } from "./world.ts";

markGeneric();
const t = useTestApp();

/** A value with every kind of character clients treat differently: spaces, sub-delimiters, `+ & = # %`, UTF-8. */
const TRICKY = "O'Brien (José) a!b*c ~ 50% +1 & x=y #2, Zoë 名前";

const freeText = (op: Operation) =>
  op.queryParams.filter((p) => {
    const s = effective(p.schema);
    return s.type === "string" && !s.enum && !s.format && !s.pattern;
  });

let owner: TenantSession;
beforeAll(async () => {
  owner = await signupTenant(t, { company: "Encoding Co" });
  await enableAllModules(owner);
});

describe("query strings as real clients send them", () => {
  it("listEmployees: a space as `+` or `%20`, apostrophes, parentheses and UTF-8 find the same person", async () => {
    const e = await createEmployee(owner, { first_name: "John", last_name: "O'Brien (Smith)" });
    const other = await createEmployee(owner, { first_name: "Johnny", last_name: "Walker" });
    for (const raw of [
      "search=John+O'Brien",
      "search=John%20O'Brien",
      "search=John%20O%27Brien",
      "search=john+o%27brien+(smith)",
      `search=${new URLSearchParams({ x: "O'Brien (Smith)" }).toString().slice(2)}`,
      "search=O'Brien+(Smith)",
    ]) {
      const res = await owner.agent.get(`/api/employees?${raw}`);
      expect(res.status, `${raw}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data.map((x: { id: string }) => x.id)).toEqual([e.id]);
    }
    const renamed = await createEmployee(owner, { first_name: "José", last_name: "Zoë" });
    for (const style of QUERY_STYLES) {
      const res = await owner.agent.get(`/api/employees?${encodeQuery({ search: "José Zoë" }, style)}`).expect(200);
      expect(
        res.body.data.map((x: { id: string }) => x.id),
        style,
      ).toEqual([renamed.id]);
    }
    expect(other.id).not.toBe(e.id);
  });

  const ops = operations().filter((op) => op.method === "get" && freeText(op).length);
  it(`every free-text query parameter (${ops.length} operations) gives the same answer in every client style`, async () => {
    expect(ops.length).toBeGreaterThan(10);
    for (const op of ops) {
      const path = op.path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
      for (const p of freeText(op)) {
        const value = TRICKY.slice(0, effective(p.schema).maxLength ?? TRICKY.length).trimEnd();
        const answers = new Map<string, string>();
        for (const style of QUERY_STYLES) {
          const res = await owner.agent.get(`${path}?${encodeQuery({ [p.name]: value }, style)}`);
          const where = `${op.operationId} ?${p.name} (${style}): ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
          expect(res.status, where).not.toBe(400);
          expect(res.status, where).toBeLessThan(500);
          answers.set(style, `${res.status} ${JSON.stringify(res.body.data ?? res.body.code)}`);
        }
        expect(new Set(answers.values()).size, `${op.operationId} ?${p.name}: ${JSON.stringify([...answers])}`).toBe(1);
      }
    }
  });
});
