// Organization: branches and work locations. Each handler translates HTTP to one use case
// (branches.ts, work-locations.ts) and back.
import { ack, created, listed, ok, pageOf } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { addBranch, branchById, branchPage, changeBranch, removeBranch } from "./branches.ts";
import { addWorkLocation, workLocationPage } from "./work-locations.ts";

export const handlers = {
  async listBranches({ operationId, query }) {
    const page = pageOf(query);
    const { rows, total } = await branchPage(page);
    return listed(operationId, { rows, page, total });
  },

  async createBranch({ body }) {
    return created(await addBranch(body), "Branch created");
  },

  async getBranch({ params }) {
    return ok(await branchById(params.branchId));
  },

  async updateBranch({ params, body }) {
    return ok(await changeBranch(params.branchId, body), "Branch updated");
  },

  async deleteBranch({ params }) {
    await removeBranch(params.branchId);
    return ack("Branch deleted");
  },

  async listWorkLocations({ operationId, query }) {
    const page = pageOf(query);
    const { rows, total } = await workLocationPage(page, query.branch_id);
    return listed(operationId, { rows, page, total });
  },

  async createWorkLocation({ body }) {
    return created(await addWorkLocation(body), "Work location created");
  },
} satisfies Partial<AreaHandlers<"organization">>;
