// Health, clock sync, file upload and download. Each handler translates HTTP to one use case
// (health.ts, files.ts) and back; a download streams the file.
import { requestLoad } from "../../http/admission.ts";
import { created, ok } from "../../http/envelope.ts";
import { lifecycleOf } from "../../http/lifecycle.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { sendStoredFile } from "../../platform/storage/files.ts";
import { downloadableFile, saveUpload } from "./files.ts";
import { liveness, notReady, readiness, serverTime, serviceHealth } from "./health.ts";

export const handlers = {
  async getHealth() {
    return ok(await serviceHealth());
  },

  async getLiveness() {
    return ok(liveness());
  },

  async getReadiness({ req }) {
    // the answer says ready or not, nothing of why or of the load: the details are the operators'
    // (GET /ready of the metrics listener)
    await readiness(lifecycleOf(req), requestLoad(req)).catch((err) => {
      throw notReady(err);
    });
    return ok({ status: "ready" as const });
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
