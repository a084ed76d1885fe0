// Uploaded files: storing an upload, and which stored file the caller may download (hr/admin/owner
// any of the company's, others their own uploads).
import { db } from "../../db/tenancy.ts";
import { notFound } from "../../http/errors.ts";
import type { AuthContext, UploadedFile } from "../../http/types.ts";
import { fileJson, storeUpload } from "../../storage/files.ts";
import { isHr } from "../shared/access.ts";

export async function saveUpload(auth: AuthContext, file: UploadedFile | undefined, purpose?: string) {
  return fileJson(await storeUpload(file, { purpose, uploadedBy: auth.userId }));
}

/** The stored file the caller asks for, if they may download it. */
export async function downloadableFile(auth: AuthContext, fileId: string) {
  const f = await db.storedFile.findFirst({ where: { id: fileId, ...(isHr(auth) ? {} : { uploaded_by: auth.userId }) } });
  if (!f) throw notFound("File");
  return f;
}
