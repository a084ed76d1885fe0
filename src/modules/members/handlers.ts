// Members of the tenant: invitations (single-use token by email), role changes, removal. Each
// handler translates HTTP to one use case (members.ts, invitations.ts) and back.
import { ack, created, ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { sendInvitation } from "./invitations.ts";
import { changeMember, membersAndInvitations, revokeMembership } from "./members.ts";

export const handlers = {
  async listMembers() {
    return ok(await membersAndInvitations());
  },

  async inviteMember({ body, auth }) {
    return created(await sendInvitation(auth, body), "Invitation sent");
  },

  async updateMember({ params, body, auth }) {
    return ok(await changeMember(auth, params.userId, body), "Member updated");
  },

  async removeMember({ params, auth }) {
    await revokeMembership(auth, params.userId);
    return ack("Member removed");
  },
} satisfies Partial<AreaHandlers<"members">>;
