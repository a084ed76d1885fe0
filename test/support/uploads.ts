// An upload as the multipart body parser hands it to a use case: the bytes in a temporary file of
// the upload folder (src/platform/storage/files.ts), for use-case tests that call storeUpload.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type UploadedFile, uploadTempDir } from "../../src/platform/storage/files.ts";

export function uploadedFile(bytes: Buffer, originalname: string, mimetype: string): UploadedFile {
  const dir = uploadTempDir();
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, randomBytes(16).toString("hex"));
  writeFileSync(file, bytes);
  return { fieldname: "file", originalname, mimetype, size: bytes.length, path: file };
}
