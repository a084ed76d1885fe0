// File storage: bytes on local disk under UPLOAD_DIR, content-addressed by SHA-256
// (<dir>/<aa>/<bb>/<sha256>), metadata in the `files` table of the tenant.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync, createReadStream } from "node:fs";
import path from "node:path";
import type { Response } from "express";
import { config } from "../../config.ts";
import { db } from "../../db/tenancy.ts";
import { AppError } from "../errors.ts";

/** A file of a multipart upload, as the body parser hands it over. */
export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Accepted types, with the leading bytes their content must start with (when they have any). */
const ACCEPTED: Record<string, Buffer[] | null> = {
  "application/pdf": [Buffer.from("%PDF-")],
  "image/png": [Buffer.from([0x89, 0x50, 0x4e, 0x47])],
  "image/jpeg": [Buffer.from([0xff, 0xd8, 0xff])],
  "image/webp": [Buffer.from("RIFF")],
  "text/plain": null,
  "text/csv": null,
  "application/msword": [Buffer.from([0xd0, 0xcf, 0x11, 0xe0])],
  "application/vnd.ms-excel": [Buffer.from([0xd0, 0xcf, 0x11, 0xe0])],
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": [Buffer.from("PK")],
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": [Buffer.from("PK")],
};
export const ACCEPTED_TYPES = Object.keys(ACCEPTED);

export function checkUpload(file: UploadedFile | undefined): UploadedFile {
  if (!file) throw new AppError("validation_failed", "A file is required", [{ path: "body.file", message: "is required" }]);
  if (file.size > MAX_UPLOAD_BYTES) throw new AppError("payload_too_large", `File too large (max ${MAX_UPLOAD_BYTES / 1024 / 1024} MB)`);
  const type = file.mimetype.split(";")[0].trim().toLowerCase();
  if (!(type in ACCEPTED))
    throw new AppError(
      "unsupported_media_type",
      `Files of type ${type} are not accepted (accepted: PDF, PNG, JPEG, WebP, text, CSV, Word, Excel)`,
    );
  const magic = ACCEPTED[type];
  if (magic && !magic.some((m) => file.buffer.subarray(0, m.length).equals(m)))
    throw new AppError("unsupported_media_type", `The file content is not a valid ${type} file`);
  if (file.size === 0) throw new AppError("validation_failed", "The file is empty", [{ path: "body.file", message: "is empty" }]);
  return { ...file, mimetype: type };
}

function pathFor(sha256: string): string {
  return path.join(config().uploadDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
}

/** Writes the bytes (once per content) and returns sha256; call before the metadata row is created. */
export function writeContent(file: UploadedFile): string {
  const sha256 = createHash("sha256").update(file.buffer).digest("hex");
  const target = pathFor(sha256);
  if (!existsSync(target)) {
    mkdirSync(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, file.buffer);
    renameSync(tmp, target);
  }
  return sha256;
}

type FileClient = { storedFile: { create: (args: any) => Promise<any> } };

/** Validates, stores the bytes and creates the metadata row (with the given client, e.g. a transaction). */
export async function storeUpload(
  file: UploadedFile | undefined,
  opts: { purpose?: string; uploadedBy?: string | null },
  client: FileClient = db,
) {
  const f = checkUpload(file);
  const sha256 = writeContent(f);
  return client.storedFile.create({
    data: {
      original_name: f.originalname.slice(0, 255) || "file",
      mime_type: f.mimetype,
      size_bytes: f.size,
      sha256,
      purpose: opts.purpose ?? "general",
      uploaded_by: opts.uploadedBy ?? null,
    },
  });
}

/**
 * The active tenant's stored file `id`, if it exists and - when `by` is given - one of those users
 * uploaded it (an upload of another member is not the caller's to download or to attach).
 */
export function uploadOf(id: string, by?: readonly string[]) {
  return db.storedFile.findFirst({ where: { id, ...(by ? { uploaded_by: { in: [...by] } } : {}) } });
}

export function fileJson(f: {
  id: string;
  original_name: string;
  mime_type: string;
  size_bytes: number;
  sha256: string;
  purpose: string;
  created_at: Date;
}) {
  return {
    id: f.id,
    original_name: f.original_name,
    mime_type: f.mime_type,
    size_bytes: f.size_bytes,
    sha256: f.sha256,
    purpose: f.purpose,
    created_at: f.created_at.toISOString(),
  };
}

/** Streams a stored file as a download. */
export function sendStoredFile(
  res: Response,
  f: { sha256: string; mime_type: string; original_name: string; size_bytes: number },
): Promise<void> {
  const p = pathFor(f.sha256);
  if (!existsSync(p)) throw new AppError("not_found", "File content not found");
  res.status(200);
  res.setHeader("Content-Type", f.mime_type);
  res.setHeader("Content-Length", String(f.size_bytes));
  res.setHeader("Content-Disposition", `attachment; filename*=UTF-8''${encodeURIComponent(f.original_name)}`);
  res.setHeader("X-Content-Type-Options", "nosniff");
  return new Promise((resolve, reject) => {
    const s = createReadStream(p);
    s.on("error", reject);
    s.on("end", () => resolve());
    s.pipe(res);
  });
}
