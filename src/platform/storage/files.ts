// File storage: bytes under UPLOAD_DIR, content-addressed by SHA-256 (<dir>/<aa>/<bb>/<sha256>),
// metadata in the tenant's `files` table. An upload is streamed to <dir>/.tmp (same file system: moving
// it is a rename), checked, hashed and counted against the quota (docs/operations.md, "Uploads and usage
// limits"); unreferenced files go after a grace period (src/modules/utilities/cleanup.ts).
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { mkdir, open, readdir, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Request, Response } from "express";
import multer from "multer";
import { config } from "../../config.ts";
import { systemDb } from "../../db/client.ts";
import { type Holder, lock, tenantLock } from "../../db/primitives.ts";
import { db, type ScopedTx, tenantTx } from "../../db/tenancy.ts";
import { AppError } from "../errors.ts";

/** A file of a multipart upload as the body parser hands it over: already on disk, at `path`. */
export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  /** the temporary file under <UPLOAD_DIR>/.tmp holding the bytes */
  path: string;
}

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Bytes a file's content must hold at given offsets (a file format's signature). */
type Signature = { at: number; bytes: Buffer }[];
const starts = (bytes: Buffer | string): Signature => [{ at: 0, bytes: Buffer.from(bytes) }];

/** Accepted types, with the signatures their content must match (any one of them), when they have any. */
const ACCEPTED: Record<string, Signature[] | null> = {
  "application/pdf": [starts("%PDF-")],
  "image/png": [starts(Buffer.from([0x89, 0x50, 0x4e, 0x47]))],
  "image/jpeg": [starts(Buffer.from([0xff, 0xd8, 0xff]))],
  // a RIFF container whose form type is WEBP (bytes 4-7 are its length): a WAV or AVI is RIFF too
  "image/webp": [[...starts("RIFF"), { at: 8, bytes: Buffer.from("WEBP") }]],
  "text/plain": null,
  "text/csv": null,
  "application/msword": [starts(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))],
  "application/vnd.ms-excel": [starts(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))],
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": [starts("PK")],
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": [starts("PK")],
};
export const ACCEPTED_TYPES = Object.keys(ACCEPTED);

/** The first `n` bytes of a file. */
async function leadingBytes(file: string, n: number): Promise<Buffer> {
  const h = await open(file, "r");
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await h.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await h.close();
  }
}

export async function checkUpload(file: UploadedFile | undefined): Promise<UploadedFile> {
  if (!file) throw new AppError("validation_failed", "A file is required", [{ path: "body.file", message: "is required" }]);
  if (file.size > MAX_UPLOAD_BYTES) throw new AppError("payload_too_large", `File too large (max ${MAX_UPLOAD_BYTES / 1024 / 1024} MB)`);
  const type = file.mimetype.split(";")[0].trim().toLowerCase();
  if (!(type in ACCEPTED))
    throw new AppError(
      "unsupported_media_type",
      `Files of type ${type} are not accepted (accepted: PDF, PNG, JPEG, WebP, text, CSV, Word, Excel)`,
    );
  const signatures = ACCEPTED[type];
  if (signatures) {
    const head = await leadingBytes(file.path, Math.max(...signatures.flat().map((p) => p.at + p.bytes.length)));
    if (!signatures.some((sig) => sig.every((p) => head.subarray(p.at, p.at + p.bytes.length).equals(p.bytes))))
      throw new AppError("unsupported_media_type", `The file content is not a valid ${type} file`);
  }
  if (file.size === 0) throw new AppError("validation_failed", "The file is empty", [{ path: "body.file", message: "is empty" }]);
  return { ...file, mimetype: type };
}

/** The folder multipart files are streamed into while a request is read (a sibling of the content folders). */
export function uploadTempDir(): string {
  return path.join(config().uploadDir, ".tmp");
}

const TEMP_DIR = Symbol("upload temp dir");
type WithTempDir = Request & { [TEMP_DIR]?: string };

/** Remembers the request's temp folder: multer's callbacks run outside the app's configuration context. */
export function setUploadTempDir(req: Request): void {
  (req as WithTempDir)[TEMP_DIR] = uploadTempDir();
}

/** multer's disk storage into the request's temp folder (never buffered); multer removes what it refuses. */
export function uploadStorage(): multer.StorageEngine {
  return multer.diskStorage({
    destination: (req, _file, cb) => {
      const dir = (req as WithTempDir)[TEMP_DIR] ?? uploadTempDir();
      mkdir(dir, { recursive: true }).then(
        () => cb(null, dir),
        (err) => cb(err as Error, dir),
      );
    },
  });
}

/** SHA-256 of a file, read as a stream. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/** Where the bytes of `sha256` live. */
export function contentPath(sha256: string): string {
  return path.join(config().uploadDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
}

/** Bytes of files the active tenant holds (every row counts, even when another row has the same content). */
export async function storedBytes(client: Pick<ScopedTx, "storedFile"> = db): Promise<number> {
  const sum = await client.storedFile.aggregate({ _sum: { size_bytes: true } });
  return sum._sum.size_bytes ?? 0;
}

/** A size for people: "740 bytes", "12.5 KB", "5120 MB". */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

function quotaExceeded(quota: number, used: number, size: number | null): AppError {
  const room = Math.max(0, quota - used);
  return new AppError(
    "quota_exceeded",
    `Storage quota exceeded: the company's files may take ${sizeText(quota)} and ${sizeText(room)} are left` +
      (size === null ? "" : `; this file needs ${sizeText(size)}`) +
      ". Files no longer needed free their space once nothing refers to them.",
  );
}

/** Bytes of the active tenant's files that `userId` uploaded. */
async function bytesUploadedBy(userId: string, client: Pick<ScopedTx, "storedFile"> = db): Promise<number> {
  const sum = await client.storedFile.aggregate({ _sum: { size_bytes: true }, where: { uploaded_by: userId } });
  return sum._sum.size_bytes ?? 0;
}

/** One member's share of the company's quota (MEMBER_STORAGE_SHARE_PERCENT), in bytes. */
function memberShare(): number {
  const c = config();
  return Math.floor((c.tenantStorageQuotaBytes * c.memberStorageSharePercent) / 100);
}

function memberShareExceeded(share: number, used: number, size: number | null): AppError {
  const room = Math.max(0, share - used);
  return new AppError(
    "quota_exceeded",
    `Storage share exceeded: the files you upload may take ${sizeText(share)} of the company's storage ` +
      `(${config().memberStorageSharePercent} % of its quota) and ${sizeText(room)} are left` +
      (size === null ? "" : `; this file needs ${sizeText(size)}`) +
      ". Files no longer needed free their space once nothing refers to them; the company's admins can raise the share.",
  );
}

/** 413 `quota_exceeded` when the company or the member's share has no room at all (before an upload's body is read). */
export async function assertStorageRoomLeft(userId?: string | null): Promise<void> {
  const quota = config().tenantStorageQuotaBytes;
  const used = await storedBytes();
  if (used >= quota) throw quotaExceeded(quota, used, null);
  if (!userId) return;
  const share = memberShare();
  const mine = await bytesUploadedBy(userId);
  if (mine >= share) throw memberShareExceeded(share, mine, null);
}

/**
 * Holds the content lock of `sha256` until the transaction ends: a file is moved into place and
 * its row committed, or its bytes deleted once no row holds them, never both at once.
 */
export async function lockContent(tx: Holder, sha256: string): Promise<void> {
  await lock(tx, { kind: "file-content", sha256 });
}

/** `work` on a temporary file, which is removed when its request ends: a client that went away meanwhile gets a 400 no one reads. */
async function whileThere<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new AppError("validation_failed", "The upload was interrupted");
    throw err;
  }
}

/**
 * Validates the upload, counts it against the company's quota and the member's share (413
 * `quota_exceeded`; exact under concurrency: a per-company lock), moves the bytes to their content
 * address and creates the row, in `tx` (or a transaction of its own).
 */
export async function storeUpload(file: UploadedFile | undefined, opts: { purpose?: string; uploadedBy?: string | null }, tx?: ScopedTx) {
  const f = await checkUpload(file);
  const sha256 = await whileThere(sha256Of(f.path));
  const store = async (t: ScopedTx) => {
    await lock(t, tenantLock("storage-quota"));
    const quota = config().tenantStorageQuotaBytes;
    const used = await storedBytes(t);
    if (used + f.size > quota) throw quotaExceeded(quota, used, f.size);
    if (opts.uploadedBy) {
      // the member's share too, under the same lock (exact under concurrent uploads)
      const share = memberShare();
      const mine = await bytesUploadedBy(opts.uploadedBy, t);
      if (mine + f.size > share) throw memberShareExceeded(share, mine, f.size);
    }
    await lockContent(t, sha256);
    const target = contentPath(sha256);
    await mkdir(path.dirname(target), { recursive: true });
    // (again) in place: an atomic rename over any earlier copy of the same content, with a fresh mtime
    await whileThere(rename(f.path, target));
    return t.storedFile.create({
      data: {
        original_name: f.originalname.slice(0, 255) || "file",
        mime_type: f.mimetype,
        size_bytes: f.size,
        sha256,
        purpose: opts.purpose ?? "general",
        uploaded_by: opts.uploadedBy ?? null,
      },
    });
  };
  return tx ? store(tx) : tenantTx(store);
}

// ─── removing files nothing refers to (the cleanup job of src/modules/utilities) ───

/** A page of the active tenant's files created before `before`, oldest first, after the cursor `after`. */
export async function filesCreatedBefore(before: Date, after: { created_at: Date; id: string } | null, take: number) {
  return db.storedFile.findMany({
    where: {
      created_at: { lt: before },
      ...(after ? { OR: [{ created_at: { gt: after.created_at } }, { created_at: after.created_at, id: { gt: after.id } }] } : {}),
    },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
    select: { id: true, created_at: true, sha256: true },
    take,
  });
}

/** Deletes file row `id` if still older than `before`; false when gone or still referenced (attached meanwhile). */
export async function deleteFileRow(id: string, before: Date): Promise<boolean> {
  try {
    return (await db.storedFile.deleteMany({ where: { id, created_at: { lt: before } } })).count > 0;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "P2003" || code === "23503") return false;
    throw err;
  }
}

/**
 * Deletes the bytes of `sha256` when no file row of any company holds them any more (uploads of
 * the same content share them), under the content lock: an upload of the same content moving its
 * bytes into place waits, and finds them gone, or is seen.
 */
export async function removeContentIfUnused(sha256: string): Promise<boolean> {
  return systemDb.$transaction(async (tx) => {
    await lockContent(tx, sha256);
    // cross-tenant: the bytes of a content are shared by the files of every company that uploaded it
    const [row] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM files WHERE sha256 = ${sha256}`;
    if (row.n > 0) return false;
    try {
      await unlink(contentPath(sha256));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
  });
}

/** Deletes temporary upload files last written before `before` (left by a process that stopped mid-upload). */
export async function removeStaleTemporaryFiles(before: Date): Promise<number> {
  const dir = uploadTempDir();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if ((await stat(file)).mtime < before) {
        await unlink(file);
        removed++;
      }
    } catch {
      /* gone meanwhile */
    }
  }
  return removed;
}

/** The stored file `id`, and when `by` is given only if one of those users uploaded it (not another member's). */
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
  const p = contentPath(f.sha256);
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
    // a connection closed before the end (the client left, or it did not read the file within
    // RESPONSE_WRITE_TIMEOUT_MS and the server cut it off): the file is closed, and the request is over
    res.once("close", () => {
      s.destroy();
      resolve();
    });
    s.pipe(res);
  });
}
