// Subscription → enabled modules. Pure, so the mapping is testable without HTTP.
import type { ModuleName } from "../../platform/use-case.ts";

export const MODULES: readonly ModuleName[] = ["payroll", "recruitment", "helpdesk", "assets"];
const ACTIVE = new Set(["active", "trialing", "past_due"]);

interface SubscriptionLike {
  status?: string;
  metadata?: Record<string, string> | null;
  items?: { data?: { price?: { lookup_key?: string | null; metadata?: Record<string, string> | null } | null }[] } | null;
}

function moduleOf(name: string | null | undefined): ModuleName | null {
  const n = (name ?? "")
    .trim()
    .toLowerCase()
    .replace(/^hrms[_-]/, "");
  return (MODULES as readonly string[]).includes(n) ? (n as ModuleName) : null;
}

/** A subscription that grants its modules: active, trialing or past due. */
export function subscriptionIsLive(sub: Pick<SubscriptionLike, "status">): boolean {
  return ACTIVE.has(sub.status ?? "");
}

/** Modules a subscription grants; none unless it is live (active, trialing or past due) and not deleted. */
export function modulesFromSubscription(sub: SubscriptionLike, deleted = false): ModuleName[] {
  if (deleted || !subscriptionIsLive(sub)) return [];
  const out = new Set<ModuleName>();
  for (const item of sub.items?.data ?? []) {
    const m = moduleOf(item.price?.lookup_key);
    if (m) out.add(m);
    for (const x of (item.price?.metadata?.modules ?? "").split(",")) {
      const mm = moduleOf(x);
      if (mm) out.add(mm);
    }
  }
  for (const x of (sub.metadata?.modules ?? "").split(",")) {
    const m = moduleOf(x);
    if (m) out.add(m);
  }
  return MODULES.filter((m) => out.has(m));
}
