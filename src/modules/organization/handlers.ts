// Organization: branches and work locations.
import { ack, created, ok, pageOf, paginated } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import {
  branchEmployeeCounts,
  branchJson,
  createBranch,
  createWorkLocation,
  deleteBranch,
  listBranches,
  listWorkLocations,
  loadBranch,
  updateBranch,
  workLocationJson,
} from "./structure.ts";

async function withCount(b: Awaited<ReturnType<typeof loadBranch>>) {
  return branchJson(b, (await branchEmployeeCounts([b.id])).get(b.id) ?? 0);
}

export const handlers = {
  async listBranches({ query }) {
    const page = pageOf(query);
    const { rows, total, counts } = await listBranches(page);
    return paginated(rows.map((b) => branchJson(b, counts.get(b.id) ?? 0)), page, total);
  },

  async createBranch({ body }) {
    return created(branchJson(await createBranch(body), 0), "Branch created");
  },

  async getBranch({ params }) {
    return ok(await withCount(await loadBranch(params.branchId)));
  },

  async updateBranch({ params, body }) {
    return ok(await withCount(await updateBranch(params.branchId, body)), "Branch updated");
  },

  async deleteBranch({ params }) {
    await deleteBranch(params.branchId);
    return ack("Branch deleted");
  },

  async listWorkLocations({ query }) {
    const page = pageOf(query);
    const { rows, total } = await listWorkLocations(page, query.branch_id);
    return paginated(rows.map(workLocationJson), page, total);
  },

  async createWorkLocation({ body }) {
    return created(workLocationJson(await createWorkLocation(body)), "Work location created");
  },
} satisfies AreaHandlers<"organization">;
