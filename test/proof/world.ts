// Shared set-up of the proof matrices: tenants with every module on, members of every role, the
// valid request of an operation (document sample + factories.ts adjustments), and sessions that
// are restored when an operation ended them (sign-out).
import type supertest from "supertest";
import { type Config, processConfig } from "../../src/config.ts";
import type { TenantSession, TestContext } from "../support/app.ts";
import { createResources, requests, resourcePrefixes, type FactoryContext } from "./factories.ts";
import { MODULES, sampleRequest, type Operation, type RequestInput } from "./openapi.ts";
import { api } from "../support/api.ts";
import { isErrorEnvelope } from "../support/recorder.ts";

export async function enableAllModules(s: TenantSession): Promise<void> {
  const res = await api(s.agent).op("updateCompanySettings", { body: { modules: [...MODULES] } });
  if (res.status !== 200) throw new Error(`enabling modules failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The valid request of `op` for these path ids. */
export function requestFor(op: Operation, ids: Record<string, string>): RequestInput {
  const base = sampleRequest(op, ids);
  const adj = requests[op.operationId]?.(ids) ?? {};
  return { ...base, ...adj, pathParams: { ...ids, ...(adj.pathParams ?? {}) } };
}

export type Resources = Awaited<ReturnType<typeof createResources>>;
/** Reads' resources by path id prefixes and holder, with their snapshots as JSON (resourcesFor). */
export type ReadCache = Map<string, Promise<Resources & { seen: string }>>;

/**
 * The resources of `op`'s path ids for a case. A read (GET) changes nothing, so the resources one
 * read was given serve every later read of the same resources (same path id prefixes, same
 * holder) as long as their snapshots are unchanged - what a fresh copy would be; a write always
 * gets resources of its own. One cache per test file (`new Map()`).
 */
export async function resourcesFor(cache: ReadCache, op: Operation, ctx: Omit<FactoryContext, "parents">): Promise<Resources> {
  if (op.method !== "get") return createResources(op, ctx);
  const key = `${resourcePrefixes(op)
    .map((p) => p.prefix)
    .join(" > ")} for ${ctx.holder.tenantId}/${ctx.holder.userId}`;
  const snapshots = async (r: Resources) => JSON.stringify(await Promise.all(r.created.map((c) => c.snapshot())));
  const kept = await cache.get(key)?.catch(() => undefined);
  if (kept && (await snapshots(kept)) === kept.seen) return kept;
  const fresh = createResources(op, ctx).then(async (r) => ({ ...r, seen: await snapshots(r) }));
  cache.set(key, fresh);
  return fresh;
}

/**
 * Signs the member in again (same tenant) when an operation ended their session; the session's
 * data when it was alive (undefined after a new sign-in).
 */
export async function ensureSession(t: TestContext, s: TenantSession) {
  const res = await api(s.agent).op("getSession");
  if (res.status === 200 && res.body.data.active_tenant_id === s.tenantId) return res.body.data;
  const agent: supertest.Agent = t.request();
  const signIn = await api(agent).op("signIn", { body: { email: s.email, password: s.password } });
  if (signIn.status !== 200) throw new Error(`re-sign-in of ${s.email} failed: ${signIn.status}`);
  if (signIn.body.data.active_tenant_id !== s.tenantId)
    await api(agent)
      .op("switchTenant", { body: { tenantId: s.tenantId } })
      .expect(200);
  s.agent = agent;
  return undefined;
}

/** Whether `res` is the error envelope (the recorder's rule), with `status` and one of `codes` where given. */
export function isEnvelope(res: { status: number; body: unknown }, status?: number, codes?: string[]): boolean {
  return (
    isErrorEnvelope(res.body, res.status) &&
    (status === undefined || res.status === status) &&
    (!codes || codes.includes((res.body as { code: string }).code))
  );
}

export function describeResponse(res: { status: number; body: unknown }): string {
  return `${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
}

/**
 * Forgets failed-attempt counts (sign-in, reset requests) so fuzzing a public operation cannot lock
 * the harness's own sign-ins out, and the hourly usage counts (uploads, AI helpers) so a long fuzz
 * run of one operation is not refused for the calls of the ones before it. Works whether the
 * counters live in memory or in the database.
 */
export async function resetAuthLimits(t: TestContext): Promise<void> {
  const modules = [await import("../../src/platform/identity/limiter.ts"), await import("../../src/modules/auth/handlers.ts")] as Record<
    string,
    unknown
  >[];
  for (const m of modules)
    for (const v of Object.values(m)) if (v && typeof (v as { reset?: unknown }).reset === "function") (v as { reset: () => void }).reset();
  await t.query("DELETE FROM auth_throttle").catch(() => {});
  await t.query("DELETE FROM usage_counters").catch(() => {});
}

/** Integrations an operation needs configured to be exercised (unset, they answer 503 by design): settings of the app. */
export const integrations: Partial<Config> = { billingWebhookSecret: processConfig.billingWebhookSecret ?? "proof-harness-webhook-secret" };
