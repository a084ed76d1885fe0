// Health, clock sync, file upload and download. Each handler translates HTTP to one use case
// (health.ts, files.ts) and back; a download streams the file.
import { created, ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { sendStoredFile } from "../../storage/files.ts";
import { downloadableFile, saveUpload } from "./files.ts";
import { serverTime, serviceHealth } from "./health.ts";

export const handlers = {
  async getHealth() {
    return ok(await serviceHealth());
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
} satisfies AreaHandlers<"utilities">;
