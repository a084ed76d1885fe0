// Branches and work locations as API JSON.
import type { Branch, WorkLocation } from "../../../generated/prisma/client.ts";

export function branchJson(b: Branch, employeeCount: number) {
  return {
    id: b.id,
    name: b.name,
    code: b.code,
    address: b.address,
    city: b.city,
    state: b.state,
    country: b.country,
    phone: b.phone,
    employee_count: employeeCount,
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
  };
}

export function workLocationJson(w: WorkLocation) {
  return {
    id: w.id,
    name: w.name,
    branch_id: w.branch_id,
    address: w.address,
    city: w.city,
    state: w.state,
    country: w.country,
    latitude: w.latitude === null ? null : Number(w.latitude),
    longitude: w.longitude === null ? null : Number(w.longitude),
    geofence_radius_m: w.geofence_radius_m,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}

/** The input with its strings trimmed. */
export function trimmed<T extends Record<string, unknown>>(input: T): T {
  const out: Record<string, unknown> = { ...input };
  for (const [k, v] of Object.entries(out)) if (typeof v === "string") out[k] = v.trim();
  return out as T;
}
