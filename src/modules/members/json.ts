// Members and invitations as API JSON.
import type { components } from "../../../generated/api-types.ts";
import type { Role } from "../../platform/use-case.ts";
import * as clock from "../../lib/clock.ts";

type S = components["schemas"];

export type MembershipWithUser = {
  user_id: string;
  role: string;
  employee_id: string | null;
  created_at: Date;
  user: { email: string; name: string };
};

export const memberJson = (m: MembershipWithUser): S["Member"] => ({
  user_id: m.user_id,
  email: m.user.email,
  name: m.user.name,
  role: m.role as Role,
  employee_id: m.employee_id,
  joined_at: m.created_at.toISOString(),
});

type InvitationStatus = S["Invitation"]["status"];

function invitationStatus(i: { expires_at: Date; accepted_at: Date | null; revoked_at: Date | null }): InvitationStatus {
  if (i.accepted_at) return "accepted";
  if (i.revoked_at) return "revoked";
  return i.expires_at <= clock.now() ? "expired" : "pending";
}

export function invitationJson(i: {
  id: string;
  email: string;
  role: string;
  employee_id: string | null;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}): S["Invitation"] {
  return {
    id: i.id,
    email: i.email,
    role: i.role as Role,
    employee_id: i.employee_id,
    expires_at: i.expires_at.toISOString(),
    status: invitationStatus(i),
    created_at: i.created_at.toISOString(),
  };
}
