// Uploaded files: storing an upload, and which stored file the caller may download (hr/admin/owner
// any of the company's, others their own uploads).
import { notFound } from "../../platform/errors.ts";
import type { AuthContext, UploadedFile } from "../../platform/use-case.ts";
import { fileJson, storeUpload, uploadOf } from "../../platform/storage/files.ts";
import { isHr } from "../shared/access.ts";

export async function saveUpload(auth: AuthContext, file: UploadedFile | undefined, purpose?: string) {
  return fileJson(await storeUpload(file, { purpose, uploadedBy: auth.userId }));
}

/** The stored file the caller asks for, if they may download it. */
export async function downloadableFile(auth: AuthContext, fileId: string) {
  const f = await uploadOf(fileId, isHr(auth) ? undefined : [auth.userId]);
  if (!f) throw notFound("File");
  return f;
}
