// Legal holds: while one stands on a person, nothing of theirs is erased or purged (erasure.ts).
import type { LegalHold } from "../../../generated/prisma/client.ts";
import { byId, db, tenantTx } from "../../db/tenancy.ts";
import { pageOf } from "../../platform/use-case.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { audit } from "../../platform/audit.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import * as clock from "../../lib/clock.ts";
import { candidateForPrivacy } from "../recruitment/index.ts";
import { employeeForPrivacy } from "../employees/index.ts";
import { lockHold } from "./queries.ts";

const holdJson = (h: LegalHold) => ({
  id: h.id,
  employee_id: h.employee_id,
  candidate_id: h.candidate_id,
  reason: h.reason,
  placed_by: h.placed_by,
  placed_at: h.placed_at.toISOString(),
  released_by: h.released_by,
  released_at: h.released_at?.toISOString() ?? null,
  active: h.released_at === null,
});

export async function holdPage(q: QueryParams<"listLegalHolds">) {
  const page = pageOf(q);
  const where = q.active === undefined ? {} : q.active ? { released_at: null } : { NOT: { released_at: null } };
  const [rows, total] = await Promise.all([
    db.legalHold.findMany({ where, orderBy: [{ placed_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.legalHold.count({ where }),
  ]);
  return { rows: rows.map(holdJson), total, page };
}

export async function placeHold(auth: AuthContext, input: RequestBody<"createLegalHold">) {
  if (Boolean(input.employee_id) === Boolean(input.candidate_id))
    throw invalidField("body.employee_id", "give exactly one of employee_id and candidate_id");
  const found = input.employee_id ? await employeeForPrivacy(input.employee_id) : await candidateForPrivacy(input.candidate_id!);
  if (!found) throw invalidField(input.employee_id ? "body.employee_id" : "body.candidate_id", "is not a record of this company");
  const h = await tenantTx(async (tx) => {
    const h = await tx.legalHold.create({
      data: {
        employee_id: input.employee_id ?? null,
        candidate_id: input.candidate_id ?? null,
        reason: input.reason.trim(),
        placed_by: auth.userId,
        placed_at: clock.now(),
      },
    });
    await audit(
      {
        action: "legal_hold.placed",
        entity_type: "legal_hold",
        entity_id: h.id,
        changes: { reason: h.reason, employee_id: h.employee_id, candidate_id: h.candidate_id },
      },
      tx,
    );
    return h;
  });
  return holdJson(h);
}

export async function releaseHold(auth: AuthContext, id: string) {
  const h = await tenantTx(async (tx) => {
    const active = await lockHold(tx, id);
    if (active === null) throw notFound("Legal hold");
    if (!active) throw conflict("The legal hold was already released");
    const h = await tx.legalHold.update({ where: byId(id), data: { released_at: clock.now(), released_by: auth.userId } });
    await audit(
      {
        action: "legal_hold.released",
        entity_type: "legal_hold",
        entity_id: id,
        changes: { released_at: { from: null, to: h.released_at?.toISOString() } },
      },
      tx,
    );
    return h;
  });
  return holdJson(h);
}
