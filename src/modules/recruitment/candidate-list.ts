// The candidates list: a page by number, or a page of a walk in the order of change (docs/integrations-sync.md),
// within what the caller may see (candidateScope).
import type { Prisma } from "../../../generated/prisma/client.ts";
import { db } from "../../db/tenancy.ts";
import { type Listing, pageOf, type PageQuery } from "../../platform/use-case.ts";
import { type Walk, walkPage, withDeletedAt } from "../../db/keyset.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { candidateKeys } from "./queries.ts";
import type { CandidateStage } from "./states.ts";
import { candidateInclude, candidateJson, candidateScope } from "./candidates.ts";

type Sort = "newest" | "oldest" | "name" | "screening_score";
const ORDER: Record<Sort, Prisma.CandidateOrderByWithRelationInput[]> = {
  newest: [{ created_at: "desc" }, { id: "desc" }],
  oldest: [{ created_at: "asc" }, { id: "asc" }],
  name: [{ last_name: "asc" }, { first_name: "asc" }, { id: "asc" }],
  screening_score: [{ screening_score: { sort: "desc", nulls: "last" } }, { created_at: "desc" }, { id: "desc" }],
};

type CandidateQuery = PageQuery & {
  posting_id?: string;
  stage?: CandidateStage;
  source?: string;
  skill?: string;
  search?: string;
  sort?: Sort | "changed";
};

/** The candidates: a page by number, or a page of a walk with tombstones (docs/integrations-sync.md). */
export async function candidateList(
  auth: AuthContext,
  query: CandidateQuery,
  walk: Walk | null,
): Promise<Listing<ReturnType<typeof candidateJson>>> {
  if (!walk) return findCandidates(auth, { ...query, sort: query.sort === "changed" ? undefined : query.sort });
  const where = await candidateFilter(auth, query, walk.includeDeleted);
  const { rows, last } = await walkPage(
    walk,
    (after, n) => candidateKeys(walk, after, n),
    (ids) => db.candidate.findMany({ where: { AND: [where, { id: { in: ids } }] }, include: candidateInclude }),
  );
  return { rows: rows.map((c) => withDeletedAt(candidateJson(c), c.deleted_at)), walk, last };
}

async function candidateFilter(auth: AuthContext, query: CandidateQuery, includeDeleted = false): Promise<Prisma.CandidateWhereInput> {
  const scope = await candidateScope(auth);
  if (includeDeleted) delete scope.deleted_at;
  const and: Prisma.CandidateWhereInput[] = [scope];
  if (query.posting_id) and.push({ posting_id: query.posting_id });
  if (query.stage) and.push({ stage: query.stage });
  if (query.source) and.push({ source: query.source });
  if (query.skill) and.push({ skills: { has: query.skill.trim().toLowerCase() } });
  if (query.search) {
    const s = query.search.trim();
    const words = s.split(/\s+/);
    and.push({
      OR: [
        { email: { contains: s, mode: "insensitive" } },
        { phone: { contains: s } },
        words.length > 1
          ? {
              AND: [
                { first_name: { contains: words[0], mode: "insensitive" } },
                { last_name: { contains: words.slice(1).join(" "), mode: "insensitive" } },
              ],
            }
          : { OR: [{ first_name: { contains: s, mode: "insensitive" } }, { last_name: { contains: s, mode: "insensitive" } }] },
      ],
    });
  }
  return { AND: and };
}

export async function findCandidates(
  auth: AuthContext,
  query: PageQuery & { posting_id?: string; stage?: CandidateStage; source?: string; skill?: string; search?: string; sort?: Sort },
) {
  const page = pageOf(query);
  const where = await candidateFilter(auth, query);
  const [rows, total] = await Promise.all([
    db.candidate.findMany({ where, include: candidateInclude, orderBy: ORDER[query.sort ?? "newest"], skip: page.skip, take: page.limit }),
    db.candidate.count({ where }),
  ]);
  return { rows: rows.map(candidateJson), page, total };
}
