// Talent pool (SkillZone): people kept for future roles, found again by skills, tags and text.
import type { Prisma, TalentPoolCandidate } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { db, tenantTx, type ScopedTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../platform/use-case.ts";
import { conflict, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { referencedCandidate } from "./candidates.ts";
import type { CandidateSource } from "./states.ts";
import { checkFile, fullName, givenFields, normalizeTerms, numberOut, requireNames, trimOrNull } from "./common.ts";
import * as clock from "../../lib/clock.ts";

type CreateInput = RequestBody<"createTalentPoolCandidate">;
type UpdateInput = RequestBody<"updateTalentPoolCandidate">;

export function talentJson(t: TalentPoolCandidate) {
  return {
    id: t.id,
    candidate_id: t.candidate_id,
    first_name: t.first_name,
    last_name: t.last_name,
    full_name: fullName(t),
    email: t.email,
    phone: t.phone,
    current_title: t.current_title,
    experience_years: numberOut(t.experience_years),
    location: t.location,
    skills: t.skills,
    tags: t.tags,
    notes: t.notes,
    source: t.source as CandidateSource,
    resume_file_id: t.resume_file_id,
    added_by_user_id: t.added_by,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}

async function findEntry(id: string): Promise<TalentPoolCandidate> {
  const t = await db.talentPoolCandidate.findFirst({ where: { id, deleted_at: null } });
  if (!t) throw notFound("Talent pool entry");
  return t;
}

export async function talentPage(query: PageQuery & { search?: string; skills?: string; tag?: string; min_experience_years?: number }) {
  const page = pageOf(query);
  const where: Prisma.TalentPoolCandidateWhereInput = { deleted_at: null };
  const skills = query.skills ? normalizeTerms(query.skills.split(",")) : undefined;
  if (skills?.length) where.skills = { hasEvery: skills };
  if (query.tag) where.tags = { has: query.tag.trim().toLowerCase() };
  if (query.min_experience_years !== undefined) where.experience_years = { gte: query.min_experience_years };
  if (query.search) {
    const s = query.search.trim();
    const words = s.split(/\s+/);
    where.OR = [
      { email: { contains: s, mode: "insensitive" } },
      { current_title: { contains: s, mode: "insensitive" } },
      { location: { contains: s, mode: "insensitive" } },
      { notes: { contains: s, mode: "insensitive" } },
      words.length > 1
        ? {
            AND: [
              { first_name: { contains: words[0], mode: "insensitive" } },
              { last_name: { contains: words.slice(1).join(" "), mode: "insensitive" } },
            ],
          }
        : { OR: [{ first_name: { contains: s, mode: "insensitive" } }, { last_name: { contains: s, mode: "insensitive" } }] },
    ];
  }
  const [rows, total] = await Promise.all([
    db.talentPoolCandidate.findMany({
      where,
      orderBy: [{ last_name: "asc" }, { first_name: "asc" }, { id: "asc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.talentPoolCandidate.count({ where }),
  ]);
  return { rows: rows.map(talentJson), page, total };
}

export async function talentById(id: string) {
  return talentJson(await findEntry(id));
}

const FIELDS = [
  "first_name",
  "last_name",
  "email",
  "phone",
  "current_title",
  "experience_years",
  "location",
  "skills",
  "tags",
  "notes",
  "source",
  "resume_file_id",
] as const;

type Fields = Partial<Pick<UpdateInput, (typeof FIELDS)[number]>>;
const TEXT = ["phone", "current_title", "location", "notes", "resume_file_id"] as const;

/** The given fields, cleaned: names and email trimmed (email lower-cased), skills and tags normalized, blank text null. */
function fieldData(body: Fields): Fields {
  const data = givenFields(body, FIELDS);
  if (data.skills) data.skills = normalizeTerms(data.skills);
  if (data.tags) data.tags = normalizeTerms(data.tags);
  if (data.email !== undefined) data.email = data.email.trim().toLowerCase();
  if (data.first_name !== undefined) data.first_name = data.first_name.trim();
  if (data.last_name !== undefined) data.last_name = data.last_name.trim();
  for (const f of TEXT) if (data[f] !== undefined) data[f] = trimOrNull(data[f]);
  return data;
}

async function checkEmailFree(tx: ScopedTx, email: string, exceptId?: string) {
  const other = await tx.talentPoolCandidate.findFirst({
    where: { email, deleted_at: null, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  if (other) throw conflict(`${email} is already in the talent pool`);
}

export async function addTalent(auth: AuthContext, body: CreateInput) {
  const t = await tenantTx(async (tx) => {
    let data: Partial<Pick<Prisma.TalentPoolCandidateUncheckedCreateInput, (typeof FIELDS)[number]>> = fieldData(body);
    if (body.candidate_id) {
      const c = await referencedCandidate(tx, body.candidate_id);
      data = {
        first_name: c.first_name,
        last_name: c.last_name,
        email: c.email.toLowerCase(),
        phone: c.phone,
        current_title: c.current_title,
        experience_years: c.experience_years,
        skills: c.skills,
        resume_file_id: c.resume_file_id,
        source: c.source,
        ...data,
      };
    }
    const named = requireNames(data, "candidate_id");
    await checkFile(tx, named.resume_file_id, "body.resume_file_id");
    await checkEmailFree(tx, named.email);
    const created = await tx.talentPoolCandidate.create({
      data: { ...named, candidate_id: body.candidate_id ?? null, added_by: auth.userId },
    });
    await audit(
      {
        action: "recruitment.talent_added",
        entity_type: "talent_pool_candidate",
        entity_id: created.id,
        changes: {
          name: fullName(created),
          email: created.email,
          skills: created.skills,
          tags: created.tags,
          candidate_id: created.candidate_id,
        },
      },
      tx,
    );
    return created;
  });
  return talentJson(t);
}

export async function changeTalent(id: string, body: UpdateInput) {
  await findEntry(id);
  const fields = fieldData(body);
  const t = await tenantTx(async (tx) => {
    const before = await tx.talentPoolCandidate.findFirst({ where: { id, deleted_at: null } });
    if (!before) throw notFound("Talent pool entry");
    if (fields.email && fields.email !== before.email.toLowerCase()) await checkEmailFree(tx, fields.email, id);
    await checkFile(tx, fields.resume_file_id, "body.resume_file_id");
    const after = await tx.talentPoolCandidate.update({ where: byId(id), data: fields });
    const changes = diff(talentJson(before), talentJson(after), Object.keys(fields));
    if (Object.keys(changes).length)
      await audit({ action: "recruitment.talent_updated", entity_type: "talent_pool_candidate", entity_id: id, changes }, tx);
    return after;
  });
  return talentJson(t);
}

export async function removeTalent(id: string) {
  const t = await findEntry(id);
  await tenantTx(async (tx) => {
    await tx.talentPoolCandidate.update({ where: byId(id), data: { deleted_at: clock.now() } });
    await audit(
      {
        action: "recruitment.talent_removed",
        entity_type: "talent_pool_candidate",
        entity_id: id,
        changes: { name: fullName(t), email: t.email },
      },
      tx,
    );
  });
}
