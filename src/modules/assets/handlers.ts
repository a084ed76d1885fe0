// Assets (module `assets`): handlers translate HTTP to one use case and back; the rules live in
// categories.ts, register.ts (the asset master), assignments.ts, returns.ts and damage.ts, the
// JSON shapes in views.ts, the row locks' SQL in queries.ts.
import { ack, created, listed, ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { assignAsset, assignmentPage } from "./assignments.ts";
import { addCategory, removeCategory, categoryById, categoryPage, changeCategory } from "./categories.ts";
import { damageReportPage, reportDamage, resolveDamage } from "./damage.ts";
import { assetById, editAsset, assetList, registerAsset, removeAsset } from "./register.ts";
import { decideReturn, returnRequestPage, requestReturn } from "./returns.ts";

export const handlers = {
  async listAssetCategories({ operationId, query }) {
    const { rows, page, total } = await categoryPage(query);
    return listed(operationId, { rows, page, total });
  },
  async createAssetCategory({ body }) {
    return created(await addCategory(body), "Asset category created");
  },
  async getAssetCategory({ params }) {
    return ok(await categoryById(params.id));
  },
  async updateAssetCategory({ params, body }) {
    return ok(await changeCategory(params.id, body), "Asset category updated");
  },
  async deleteAssetCategory({ params }) {
    await removeCategory(params.id);
    return ack("Asset category deleted");
  },

  async listAssets({ operationId, query, walk }) {
    return listed(operationId, await assetList(query, walk));
  },
  async createAsset({ body, auth }) {
    return created(await registerAsset(auth, body), "Asset added to the register");
  },
  async getAsset({ params }) {
    return ok(await assetById(params.assetId));
  },
  async updateAsset({ params, body }) {
    return ok(await editAsset(params.assetId, body), "Asset updated");
  },
  async deleteAsset({ params }) {
    await removeAsset(params.assetId);
    return ack("Asset deleted");
  },

  async listAssetAssignments({ operationId, query, auth }) {
    const { rows, page, total } = await assignmentPage(auth, query);
    return listed(operationId, { rows, page, total });
  },
  async createAssetAssignment({ body, auth }) {
    return created(await assignAsset(auth, body), "Asset assigned");
  },

  async listAssetReturnRequests({ operationId, query, auth }) {
    const { rows, page, total } = await returnRequestPage(auth, query);
    return listed(operationId, { rows, page, total });
  },
  async createAssetReturnRequest({ body, auth }) {
    return created(await requestReturn(auth, body), "Return requested");
  },
  async decideAssetReturnRequest({ params, body, auth }) {
    const r = await decideReturn(auth, params.id, body);
    return ok(r, r.status === "approved" ? "Return approved" : "Return rejected");
  },

  async listAssetDamageReports({ operationId, query, auth }) {
    const { rows, page, total } = await damageReportPage(auth, query);
    return listed(operationId, { rows, page, total });
  },
  async createAssetDamageReport({ body, auth }) {
    return created(await reportDamage(auth, body), "Damage reported");
  },
  async resolveAssetDamageReport({ params, body, auth }) {
    return ok(await resolveDamage(auth, params.id, body), "Damage report resolved");
  },
} satisfies Partial<AreaHandlers<"assets">>;
