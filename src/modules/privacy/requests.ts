// Persons' requests about their data: `due_at` from the jurisdiction's clocks (rules.ts), decided through
// the state machine (views.ts REQUEST_MOVES), each step audited; completing one: fulfil.ts.
import type { Prisma, PrivacyRequest } from "../../../generated/prisma/client.ts";
import { byId, db, type ScopedTx, sharedTenantTx, tenantTx } from "../../db/tenancy.ts";
import { type Page, pageOf } from "../../platform/use-case.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { parseDate } from "../../lib/dates.ts";
import { audit } from "../../platform/audit.ts";
import { conflict, forbidden, invalidField, notFound } from "../../platform/errors.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import { notify } from "../../platform/notify.ts";
import { nextNumber } from "../../platform/sequences.ts";
import * as clock from "../../lib/clock.ts";
import { candidateForPrivacy } from "../recruitment/index.ts";
import { employeeForPrivacy } from "../employees/index.ts";
import { isOwnRecord } from "../shared/access.ts";
import { fulfil } from "./fulfil.ts";
import { lockRequest } from "./queries.ts";
import { type RequestType, requestClock } from "./rules.ts";
import { deciderIds, isDecider, jurisdictionToday, privacySettings } from "./settings.ts";
import { OPEN_STATUSES, REQUEST_MOVES, requestJson } from "./views.ts";

export interface Subject {
  employee_id?: string | null;
  candidate_id?: string | null;
}

/** Whether the request is about the caller's own data (an employee record of theirs). */
const isOwn = (auth: AuthContext, r: Pick<PrivacyRequest, "employee_id" | "requested_by">) =>
  r.requested_by === auth.userId || (r.employee_id !== null && isOwnRecord(auth, r.employee_id));

export async function requestPage(auth: AuthContext, q: QueryParams<"listPrivacyRequests">) {
  const page: Page = pageOf(q);
  const all = await isDecider(auth);
  const own = [auth.employeeId, ...(auth.ownEmployeeIds ?? [])].filter((x): x is string => Boolean(x));
  const where: Prisma.PrivacyRequestWhereInput = {
    ...(all ? {} : { OR: [{ requested_by: auth.userId }, ...(own.length ? [{ employee_id: { in: own } }] : [])] }),
    ...(q.status ? { status: q.status } : {}),
    ...(q.type ? { type: q.type } : {}),
  };
  const [rows, total, { today }] = await Promise.all([
    db.privacyRequest.findMany({ where, orderBy: [{ due_at: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.privacyRequest.count({ where }),
    jurisdictionToday(),
  ]);
  return { rows: rows.map((r) => requestJson(r, today)), total, page };
}

/** The request if the caller may see it: the deciders all, others their own. */
export async function visibleRequest(auth: AuthContext, id: string): Promise<PrivacyRequest> {
  const r = await db.privacyRequest.findFirst({ where: { id } });
  if (!r || !((await isDecider(auth)) || isOwn(auth, r))) throw notFound("Request");
  return r;
}

export async function requestById(auth: AuthContext, id: string) {
  const [r, { today }] = await Promise.all([visibleRequest(auth, id), jurisdictionToday()]);
  return requestJson(r, today);
}

type Input = RequestBody<"createPrivacyRequest">;

function checkPayload(input: Pick<Input, "type" | "corrections" | "nominee">, subject: Subject) {
  if (input.type === "correction" && !input.corrections) throw invalidField("body.corrections", "is required for a correction");
  if (input.type !== "correction" && input.corrections) throw invalidField("body.corrections", "is only for a correction");
  if (input.type === "correction" && subject.candidate_id)
    throw invalidField("body.corrections", "corrects an employee record; a candidate's data is corrected by the recruiters");
  if (input.type === "nomination" && !input.nominee) throw invalidField("body.nominee", "is required for a nomination");
  if (input.type !== "nomination" && input.nominee) throw invalidField("body.nominee", "is only for a nomination");
}

/** A member's own request, or one logged by a decider for an employee or a candidate. */
export async function receiveRequest(auth: AuthContext, input: Input) {
  let subject: Subject;
  let channel: "app" | "on_behalf";
  if (input.employee_id || input.candidate_id) {
    if (input.employee_id && input.candidate_id) throw invalidField("body.candidate_id", "give either employee_id or candidate_id");
    const own = input.employee_id && isOwnRecord(auth, input.employee_id);
    if (!own && !(await isDecider(auth))) throw forbidden("Only owners, admins and the grievance officer log requests for others");
    subject = input.employee_id ? { employee_id: input.employee_id } : { candidate_id: input.candidate_id };
    channel = own ? "app" : "on_behalf";
  } else {
    if (!auth.employeeId) throw forbidden("Your account is not linked to an employee record; ask the company to log the request for you");
    subject = { employee_id: auth.employeeId };
    channel = "app";
  }
  checkPayload(input, subject);
  return openRequest(subject, channel, auth.userId, input);
}

/** Opens a request about `subject` (409 while one of the type is open for them); the deciders are told. */
export async function openRequest(
  subject: Subject,
  channel: "app" | "on_behalf" | "candidate_link",
  requestedBy: string | null,
  input: Pick<Input, "type" | "description" | "corrections" | "nominee">,
): Promise<PrivacyRequest> {
  const person = subject.employee_id ? await employeeForPrivacy(subject.employee_id) : await candidateForPrivacy(subject.candidate_id!);
  if (!person) throw invalidField(subject.employee_id ? "body.employee_id" : "body.candidate_id", "is not a record of this company");
  const { jurisdiction, today } = await jurisdictionToday();
  const { clock: c, due } = requestClock(jurisdiction, input.type as RequestType, today);
  const settings = await privacySettings();
  return tenantTx(async (tx) => {
    const open = await tx.privacyRequest.findFirst({
      where: { ...subjectWhere(subject), type: input.type, status: { in: [...OPEN_STATUSES] } },
      select: { request_number: true },
    });
    if (open) throw conflict(`Request ${open.request_number} of this type is still open for this person`);
    const request_number = await nextNumber(tx, "privacy_request", "DPR-");
    const r = await tx.privacyRequest.create({
      data: {
        request_number,
        type: input.type,
        employee_id: subject.employee_id ?? null,
        candidate_id: subject.candidate_id ?? null,
        subject_name: person.name,
        requested_by: requestedBy,
        channel,
        description: input.description.trim(),
        corrections: (input.corrections as Prisma.InputJsonObject | undefined) ?? undefined,
        nominee: (input.nominee as Prisma.InputJsonObject | undefined) ?? undefined,
        jurisdiction,
        received_on: parseDate(today),
        due_at: parseDate(due),
        clock: c as unknown as Prisma.InputJsonObject,
      },
    });
    await audit(
      {
        action: "privacy_request.received",
        event: "privacy_request.received",
        entity_type: "privacy_request",
        entity_id: r.id,
        changes: { request_number, type: input.type, channel, due_at: due, subject: subject.employee_id ? "employee" : "candidate" },
      },
      tx,
    );
    for (const userId of await deciderIds(tx, settings))
      if (userId !== requestedBy)
        await notify(tx, {
          userId,
          kind: "privacy.request_received",
          title: `Privacy request ${request_number} (${input.type}) for ${person.name}: due ${due}`,
          link: `/api/privacy/requests/${r.id}`,
        });
    return r;
  });
}

export const subjectWhere = (s: Subject): Prisma.PrivacyRequestWhereInput =>
  s.employee_id ? { employee_id: s.employee_id } : { candidate_id: s.candidate_id };

function checkMove(from: string, to: string) {
  if (!REQUEST_MOVES[from]?.includes(to)) throw conflict(`A request cannot go from ${from} to ${to}`);
}

/** Acknowledge, complete (fulfil.ts) or reject, by a decider. */
export async function decideRequest(auth: AuthContext, id: string, input: RequestBody<"decidePrivacyRequest">) {
  if (!(await isDecider(auth))) throw forbidden("Only owners, admins and the grievance officer decide privacy requests");
  const r = await visibleRequest(auth, id);
  if (input.status === "rejected" && !input.resolution?.trim())
    throw invalidField("body.resolution", "is required to reject: the reason told to the person");
  checkMove(r.status, input.status);
  const { today } = await jurisdictionToday();
  const address = await personAddress(r); // before an erasure takes it
  // one transaction with what completing it does (a correction through the employee record's own use case)
  const updated = await sharedTenantTx(async (tx) => {
    const from = await lockRequest(tx, r.id);
    if (from === null) throw notFound("Request");
    checkMove(from, input.status);
    const outcome = input.status === "completed" ? await fulfil(tx, auth, r) : null;
    const row = await tx.privacyRequest.update({
      where: byId(r.id),
      data: {
        status: input.status,
        ...(input.resolution ? { resolution: input.resolution.trim() } : {}),
        ...(input.status !== "in_progress" ? { decided_by: auth.userId, decided_at: clock.now() } : {}),
        ...(outcome ? { outcome: outcome as Prisma.InputJsonObject } : {}),
      },
    });
    const closed = input.status !== "in_progress";
    await audit(
      {
        action: closed ? "privacy_request.completed" : "privacy_request.acknowledged",
        event: closed ? "privacy_request.completed" : undefined,
        entity_type: "privacy_request",
        entity_id: r.id,
        changes: { status: { from, to: input.status }, type: r.type, ...(outcome ? { outcome } : {}) },
      },
      tx,
    );
    await tellPerson(tx, row, address);
    return row;
  });
  return requestJson(updated, today);
}

/** The person withdraws their own open request. */
export async function withdrawRequest(auth: AuthContext, id: string) {
  const r = await visibleRequest(auth, id);
  if (!isOwn(auth, r)) throw forbidden("Only the person who made the request may withdraw it");
  return withdrawIn(r.id);
}

export async function withdrawIn(id: string) {
  const { today } = await jurisdictionToday();
  const row = await tenantTx(async (tx) => {
    const from = await lockRequest(tx, id);
    if (from === null) throw notFound("Request");
    checkMove(from, "withdrawn");
    const row = await tx.privacyRequest.update({ where: byId(id), data: { status: "withdrawn" } });
    await audit(
      {
        action: "privacy_request.withdrawn",
        entity_type: "privacy_request",
        entity_id: id,
        changes: { status: { from, to: "withdrawn" } },
      },
      tx,
    );
    return row;
  });
  return requestJson(row, today);
}

/** The e-mail of the person a request is about (null once erased). */
async function personAddress(r: PrivacyRequest): Promise<string | null> {
  const person = r.employee_id
    ? await employeeForPrivacy(r.employee_id)
    : r.candidate_id
      ? await candidateForPrivacy(r.candidate_id)
      : null;
  return person && !person.email.endsWith("@erased.invalid") ? person.email : null;
}

/** Tells the person how their request moved: in the app when they made it there, else by mail. */
async function tellPerson(tx: ScopedTx, r: PrivacyRequest, address: string | null) {
  const text =
    r.status === "in_progress"
      ? `Your request ${r.request_number} (${r.type}) is being handled; it is due by ${r.due_at.toISOString().slice(0, 10)}.`
      : `Your request ${r.request_number} (${r.type}) was ${r.status}.${r.resolution ? ` ${r.resolution}` : ""}`;
  const title = `Privacy request ${r.request_number}: ${r.status.replace("_", " ")}`;
  if (r.requested_by && r.channel === "app")
    await notify(tx, {
      userId: r.requested_by,
      email: address,
      kind: "privacy.request_decided",
      title,
      body: text,
      link: `/api/privacy/requests/${r.id}`,
    });
  else if (address) await queueEmail(tx, { to: address, subject: title, text });
}
