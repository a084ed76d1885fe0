// Convert-to-employee: a hired candidate becomes a complete employee record - through the
// employees area's own creation rules (createEmployeeIn) - in one transaction with the link from
// the candidate, the copy of their joining documents, and both activity logs.
import { audit } from "../../platform/audit.ts";
import { tenantTx, byId } from "../../db/tenancy.ts";
import { conflict, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { toDateString } from "../../lib/dates.ts";
import { attachDocumentIn, createEmployeeIn, fullEmployeeJson, type EmployeeCreateInput } from "../employees/index.ts";
import { candidateInclude, candidateJson, visibleCandidate } from "./candidates.ts";
import { companyToday } from "./common.ts";
import { lockCandidate } from "./queries.ts";
import * as clock from "../../lib/clock.ts";

type Input = NonNullable<RequestBody<"convertCandidateToEmployee">>;

// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function convertToEmployee(auth: AuthContext, id: string, body: Input | undefined) {
  await visibleCandidate(auth, id);
  const today = await companyToday();
  const opts = body ?? {};
  const { candidate, employeeId, copied } = await tenantTx(async (tx) => {
    const stage = await lockCandidate(tx, id);
    if (!stage) throw notFound("Candidate");
    const c = await tx.candidate.findFirstOrThrow({ where: { id }, include: candidateInclude });
    if (c.employee_id) throw conflict("The candidate was already converted into an employee");
    if (stage !== "hired")
      throw conflict(
        `The candidate is ${stage}; only a hired candidate becomes an employee: move it to hired with PUT ` +
          "/api/recruitment/candidates/{id} and stage hired (updateCandidate)",
      );
    const offer = await tx.jobOffer.findFirst({
      where: { candidate_id: id, deleted_at: null, status: "accepted" },
      orderBy: { responded_at: "desc" },
      include: { documents: true },
    });
    const input: EmployeeCreateInput = {
      first_name: c.first_name,
      last_name: c.last_name,
      email: c.email,
      phone: opts.phone !== undefined ? opts.phone : c.phone,
      department: opts.department ?? offer?.department ?? c.posting.department,
      designation: opts.designation ?? offer?.job_title ?? c.posting.title,
      joining_date: opts.joining_date ?? (offer ? toDateString(offer.joining_date) : today),
      employment_type: opts.employment_type ?? ((offer?.employment_type as EmployeeCreateInput["employment_type"]) || undefined),
      status: "active",
      ...(opts.employee_code !== undefined ? { employee_code: opts.employee_code } : {}),
      ...(opts.date_of_birth !== undefined ? { date_of_birth: opts.date_of_birth } : {}),
      ...(opts.gender !== undefined ? { gender: opts.gender } : {}),
      ...(opts.reports_to !== undefined ? { reports_to: opts.reports_to } : {}),
      ...(opts.branch_id !== undefined ? { branch_id: opts.branch_id } : {}),
      ...(opts.work_location_id !== undefined ? { work_location_id: opts.work_location_id } : {}),
      ...(opts.state !== undefined ? { state: opts.state } : {}),
    };
    const employee = await createEmployeeIn(tx, input);
    const convertedAt = clock.now();
    const after = await tx.candidate.update({
      where: byId(id),
      data: { employee_id: employee.id, converted_at: convertedAt },
      include: candidateInclude,
    });
    let copied = 0;
    for (const d of offer?.documents ?? []) {
      await attachDocumentIn(tx, employee.id, {
        file_id: d.file_id,
        document_type: d.document_type,
        title: d.title,
        source: `appointment ${offer!.offer_number}`,
      });
      copied++;
    }
    await audit(
      {
        action: "recruitment.candidate_converted",
        event: "recruitment.candidate_converted",
        entity_type: "candidate",
        entity_id: id,
        changes: {
          employee_id: { from: null, to: employee.id },
          employee_code: employee.employee_code,
          offer_id: offer?.id ?? null,
          documents_copied: copied,
        },
      },
      tx,
    );
    await audit(
      {
        action: "employee.hired_from_candidate",
        entity_type: "employee",
        entity_id: employee.id,
        changes: { candidate_id: id, offer_number: offer?.offer_number ?? null },
      },
      tx,
    );
    return { candidate: after, employeeId: employee.id, copied };
  });
  return { candidate: candidateJson(candidate), employee: await fullEmployeeJson(employeeId), documents_copied: copied };
}
