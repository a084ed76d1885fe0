// What completing a privacy request does, by its type, in the decision's transaction.
import type { PrivacyRequest } from "../../../generated/prisma/client.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { conflict } from "../../platform/errors.ts";
import { changeEmployee } from "../employees/index.ts";
import { eraseSubject } from "./erasure.ts";

export async function fulfil(tx: ScopedTx, auth: AuthContext, r: PrivacyRequest): Promise<Record<string, unknown>> {
  switch (r.type) {
    case "access":
      return { bundle_url: `/api/privacy/requests/${r.id}/bundle` };
    case "correction": {
      if (!r.employee_id) throw conflict("A candidate's data is corrected by the recruiters on the candidate record");
      const fields = Object.keys(r.corrections as object);
      await changeEmployee(auth, r.employee_id, r.corrections as RequestBody<"updateEmployee">);
      return { corrected: fields };
    }
    case "erasure":
      return eraseSubject(tx, { employee_id: r.employee_id, candidate_id: r.candidate_id }, r.id);
    case "nomination":
      return { nominee: r.nominee };
    default:
      return {};
  }
}
