// The answer to an access request: what is held about the person, class by class (the bulk exports' own
// readers where they cover it), and who it was shared with; built when read, so it is what is held now.
import type { components } from "../../../generated/api-types.ts";
import { db } from "../../db/tenancy.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { audit } from "../../platform/audit.ts";
import { conflict } from "../../platform/errors.ts";
import * as clock from "../../lib/clock.ts";
import { exportAll } from "../bulk/index.ts";
import { employeeDocumentsOf, employeeForPrivacy } from "../employees/index.ts";
import { credentialsThatTouched, endpointsThatReceived } from "../integrations/index.ts";
import { slipsOfEmployee } from "../payroll/index.ts";
import { candidateForPrivacy, consentsOf } from "../recruitment/index.ts";
import { visibleRequest } from "./requests.ts";

type Bundle = components["schemas"]["PrivacyBundle"];
type Rows = Record<string, unknown>[];

const plain = (rows: object[]): Rows => JSON.parse(JSON.stringify(rows)) as Rows;

async function employeeRecords(id: string): Promise<Record<string, Rows>> {
  const [profile, attendance, payslips, documents, requests, acks] = await Promise.all([
    exportAll("employees", { id }),
    exportAll("attendance", { employee_id: id }),
    slipsOfEmployee(id),
    employeeDocumentsOf(id),
    db.privacyRequest.findMany({
      where: { employee_id: id },
      select: { request_number: true, type: true, status: true, received_on: true },
      orderBy: { created_at: "asc" },
    }),
    db.privacyNoticeAcknowledgement.findMany({
      where: { user_id: { in: await userIdsOf(id) } },
      include: { notice: { select: { version: true } } },
    }),
  ]);
  return {
    employee_profile: plain(profile),
    attendance: plain(attendance),
    payslips: plain(payslips),
    documents: plain(documents),
    privacy_requests: plain(requests),
    notice_acknowledgements: acks.map((a) => ({
      version: a.notice.version,
      context: a.context,
      acknowledged_at: a.acknowledged_at.toISOString(),
    })),
  };
}

async function userIdsOf(employeeId: string): Promise<string[]> {
  const ms = await db.membership.findMany({ where: { employee_id: employeeId }, select: { user_id: true } });
  return ms.map((m) => m.user_id);
}

export async function bundleOf(auth: AuthContext, requestId: string): Promise<Bundle> {
  const r = await visibleRequest(auth, requestId);
  if (r.type !== "access" || r.status !== "completed") throw conflict("The bundle answers a completed access request");
  let subject: Bundle["subject"];
  let records: Record<string, Rows>;
  if (r.employee_id) {
    const e = await employeeForPrivacy(r.employee_id);
    subject = { kind: "employee", id: r.employee_id, name: e?.name ?? r.subject_name };
    records = await employeeRecords(r.employee_id);
  } else {
    const c = await candidateForPrivacy(r.candidate_id!);
    subject = { kind: "candidate", id: r.candidate_id!, name: c?.name ?? r.subject_name };
    const { erased: _e, employee_id: _x, ...profile } = c ?? ({} as Record<string, unknown>);
    records = { candidate_profile: c ? plain([profile]) : [], consents: plain(await consentsOf(r.candidate_id!)) };
  }
  const ids = [subject.id];
  const [endpoints, credentials] = await Promise.all([endpointsThatReceived(ids), credentialsThatTouched(ids)]);
  await audit({
    action: "privacy_request.bundle_read",
    entity_type: "privacy_request",
    entity_id: r.id,
    changes: { subject: subject.kind },
  });
  return {
    subject,
    generated_at: clock.now().toISOString(),
    records,
    shared_with: {
      webhook_endpoints: endpoints.map((x) => ({ ...x, last_delivered_at: x.last_delivered_at?.toISOString() ?? null })),
      api_credentials: credentials.map((x) => ({ ...x, last_at: x.last_at?.toISOString() ?? null })),
    },
  };
}
