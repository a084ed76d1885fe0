// Health, clock sync, file upload and download. Each handler translates HTTP to one use case
// (health.ts, files.ts) and back; a download streams the file.
import { requestLoad } from "../../http/admission.ts";
import { created, ok } from "../../http/envelope.ts";
import { lifecycleOf } from "../../http/lifecycle.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { sendStoredFile } from "../../platform/storage/files.ts";
import { downloadableFile, saveUpload } from "./files.ts";
import { liveness, readiness, serverTime, serviceHealth } from "./health.ts";

export const handlers = {
  async getHealth({ req }) {
    return ok({ ...(await serviceHealth()), requests: requestLoad(req) });
  },

  async getLiveness() {
    return ok(liveness());
  },

  async getReadiness({ req }) {
    return ok(await readiness(lifecycleOf(req), requestLoad(req)));
  },

  async getServerTime() {
    return ok(serverTime());
  },

  async uploadFile({ files, body, auth }) {
    return created(await saveUpload(auth, files[0], (body as { purpose?: string }).purpose), "File uploaded");
  },

  async downloadFile({ params, auth, res }) {
    await sendStoredFile(res, await downloadableFile(auth, params.fileId));
    return { sent: true as const };
  },
} satisfies Partial<AreaHandlers<"utilities">>;
