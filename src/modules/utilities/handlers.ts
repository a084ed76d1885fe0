// Health, clock sync, file upload and download.
import { getHealthPool } from "../../db/client.ts";
import { db } from "../../db/tenancy.ts";
import { created, ok } from "../../http/envelope.ts";
import { notFound, RETRY_AFTER_DOWN_S, unavailable } from "../../http/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { fileJson, sendStoredFile, storeUpload } from "../../storage/files.ts";
import { isHr } from "../shared/access.ts";

const startedAt = Date.now();

/**
 * SELECT 1 with a short deadline: a stopped database must not make health hang. On connections of
 * its own (getHealthPool), so it does not wait behind an overload for one of the main pool.
 */
export async function databaseUp(timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      getHealthPool().query("SELECT 1"),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export const handlers = {
  async getHealth() {
    if (!(await databaseUp())) throw unavailable("Database unreachable", RETRY_AFTER_DOWN_S);
    return ok({ status: "ok" as const, database: "up" as const, uptime_seconds: Math.floor((Date.now() - startedAt) / 1000) });
  },

  async getServerTime() {
    const now = new Date();
    return ok({ now: now.toISOString(), epoch_ms: now.getTime() });
  },

  async uploadFile({ files, body, auth }) {
    const f = await storeUpload(files[0], { purpose: (body as { purpose?: string }).purpose, uploadedBy: auth.userId });
    return created(fileJson(f), "File uploaded");
  },

  async downloadFile({ params, auth, res }) {
    const privileged = isHr(auth);
    const f = await db.storedFile.findFirst({ where: { id: params.fileId, ...(privileged ? {} : { uploaded_by: auth.userId }) } });
    if (!f) throw notFound("File");
    await sendStoredFile(res, f);
    return { sent: true as const };
  },
} satisfies AreaHandlers<"utilities">;
