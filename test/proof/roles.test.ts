// Role matrix, derived from the `x-roles`, `x-module` and `x-public` of every operation in
// generated/openapi.json, in a tenant with every module on and a member of each role:
//   - without a session: 401 `unauthenticated` (non-public operations);
//   - every role outside `x-roles`: 403 `forbidden`, always - the generic guard refuses the role
//     before the operation looks at its ids, so nothing (a 404 for an id, a 409 for a state) can
//     stand in for it; with a valid request, so validation cannot mask the guard either;
//   - every role inside `x-roles`: not 401/403, with a resource of its own where the path has ids;
//   - module operations in a tenant without the module: 403 `module_disabled`;
//   - self-service: for every operation open to employees whose resource belongs to one member
//     (factory scope "own"), an employee cannot reach a colleague's record (403/404, unchanged).
// The file's own database serves as a read replica too (src/db/replica.ts; its connections are
// read-only): every operation marked x-read-replica runs there, and one that writes is a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withConfig } from "../../src/config.ts";
import { useReplica } from "../../src/db/client.ts";
import { sessionCookieName } from "../../src/platform/identity/session.ts";
import { probeReplica } from "../../src/db/replica.ts";
import { addMember, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { markGeneric } from "../support/recorder.ts";
import { decidedByOthers, factoryFor, missingFactories, reportOf, resourcePrefixes, scopeOf } from "./factories.ts";
import { matrixOperations, ROLES, sample, send, type Operation, type Role } from "./openapi.ts";
import {
  describeResponse,
  enableAllModules,
  ensureSession,
  integrations,
  isEnvelope,
  requestFor,
  resourcesFor,
  type ReadCache,
} from "./world.ts";

markGeneric();
const t = useTestApp({ config: integrations });

const guarded = matrixOperations().filter((o) => !o.public);
const publicOps = matrixOperations().filter((o) => o.public);
const hasFactories = (op: Operation) => resourcePrefixes(op).every(({ prefix, param }) => factoryFor(prefix, param));
const selfServiceOps = guarded.filter(
  (o) => o.roles.includes("employee") && o.pathParams.length > 0 && hasFactories(o) && scopeOf(o) === "own",
);

let owner: TenantSession;
let bare: TenantSession;
const as = {} as Record<Role, TenantSession>;
let colleague: TenantSession;
let checks = 0;
/** a read's resources, reused by the later reads of the same resources and holder (world.ts) */
const reads: ReadCache = new Map();

beforeAll(async () => {
  useReplica(t.url, { max: 3 });
  await probeReplica();
  owner = await signupTenant(t, { company: "Role matrix Co" });
  await enableAllModules(owner);
  as.owner = owner;
  for (const r of ["admin", "hr", "manager", "employee"] as const) as[r] = await addMember(t, owner, r, { name: `${r} matrix` });
  colleague = await addMember(t, owner, "employee", { name: "colleague matrix" });
  bare = await signupTenant(t, { company: "No modules Co" });
});

afterAll(() => {
  const modular = guarded.filter((o) => o.module).length;
  console.log(
    `[roles] ${guarded.length} guarded operations × (${ROLES.length} roles + anonymous) ` +
      `+ ${modular} module gates + ${selfServiceOps.length} self-service + ${publicOps.length} public ` +
      `= ${guarded.length * (ROLES.length + 1) + modular + selfServiceOps.length + publicOps.length} cases (${checks} checked)`,
  );
});

/** Whether the answer sets or clears the session cookie (not another one: a write sets the replica's read-your-writes cookie). */
function touchesSession(res: { headers: Record<string, unknown> }): boolean {
  const name = withConfig(t.config, sessionCookieName);
  return ([res.headers["set-cookie"] ?? []].flat() as string[]).some((c) => c.startsWith(`${name}=`));
}

/**
 * Sends `op` as `s`. An operation that ends its caller's session (sign-out, a new sign-in) answers
 * with the session cookie set or cleared, and the caller is then signed in again at once (below);
 * one that ends it on the server only shows on the member's next call, a 401: then the member signs
 * in again and the call is sent again (a 401 for a live session stays a 401).
 */
async function sendAs(s: TenantSession, op: Operation, input: ReturnType<typeof requestFor>) {
  const res = await send(s.agent, op, input);
  if (res.status !== 401) return res;
  const before = s.agent;
  await ensureSession(t, s);
  return s.agent === before ? res : send(s.agent, op, input);
}

function ghostIds(op: Operation): Record<string, string> {
  return Object.fromEntries(op.pathParams.map((p) => [p.name, String(sample(p.schema))]));
}

describe("role matrix", () => {
  it("covers every id-taking operation of the document (each has a factory)", () => {
    const missing = missingFactories(guarded.filter((o) => o.pathParams.length > 0));
    expect(missing, `id-taking operations without a factory:\n${missing.join("\n")}`).toEqual([]);
  });

  for (const op of publicOps)
    it(`${op.operationId}: public, answers without a session (never 401/403 for lack of one)`, async () => {
      const res = await send(t.request(), op, requestFor(op, ghostIds(op)));
      checks++;
      expect(res.status !== 403 && res.status < 500, `${op.operationId} anonymous: ${describeResponse(res)}`).toBe(true);
      if (res.status === 401)
        expect(res.body.error, `${op.operationId}: a 401 here must be about credentials, not the session`).not.toMatch(
          /Authentication required/,
        );
    });

  for (const op of guarded)
    it.skipIf(op.pathParams.length > 0 && !hasFactories(op))(
      `${op.operationId}: x-roles [${op.roles.join(", ")}]${op.module ? `, module ${op.module}` : ""}`,
      async () => {
        const anon = await send(t.request(), op, requestFor(op, ghostIds(op)));
        checks++;
        expect(isEnvelope(anon, 401, ["unauthenticated"]), `${op.operationId} without a session: ${describeResponse(anon)}`).toBe(true);

        if (op.module) {
          const res = await send(bare.agent, op, requestFor(op, ghostIds(op)));
          checks++;
          expect(
            isEnvelope(res, 403, ["module_disabled"]),
            `${op.operationId} with module ${op.module} off: ${describeResponse(res)}`,
          ).toBe(true);
          // (refused by the module guard before any handler ran: the session is as it was)
        }

        for (const role of ROLES) {
          const caller = as[role];
          // approvals: nobody decides their own record - the resource belongs to a direct report of the caller
          const allowed = op.roles.includes(role);
          const holder = decidedByOthers.has(op.operationId) && allowed ? await reportOf({ t, owner, holder: caller }, caller) : caller;
          // the role guard runs before the operation looks at its ids: a refused role needs no resource
          const ids = allowed ? (await resourcesFor(reads, op, { t, owner, holder })).ids : ghostIds(op);
          const res = await sendAs(caller, op, requestFor(op, ids));
          checks++;
          if (allowed)
            expect(res.status !== 401 && res.status !== 403, `${op.operationId} as ${role} (allowed): ${describeResponse(res)}`).toBe(true);
          else
            expect(isEnvelope(res, 403, ["forbidden"]), `${op.operationId} as ${role} (not in x-roles): ${describeResponse(res)}`).toBe(
              true,
            );
          // only a state-changing call that got past the guard can end a session (sign-out, a new sign-in, ...)
          if (op.method !== "get" && allowed && touchesSession(res)) await ensureSession(t, caller);
        }
      },
    );

  for (const op of selfServiceOps)
    it(`${op.operationId}: an employee cannot reach a colleague's record`, async () => {
      const { ids, created } = await resourcesFor(reads, op, { t, owner, holder: colleague });
      const before = await Promise.all(created.map((c) => c.snapshot()));
      const res = await sendAs(as.employee, op, requestFor(op, ids));
      checks++;
      expect(
        isEnvelope(res, 404, ["not_found"]) || isEnvelope(res, 403, ["forbidden"]),
        `${op.operationId} on a colleague's record: ${describeResponse(res)}`,
      ).toBe(true);
      expect(await Promise.all(created.map((c) => c.snapshot()))).toEqual(before);
      // (a refused call cannot have ended the employee's session)
    });
});
