// The gate of every upload, before its body is read, so a refusal costs no memory, disk or time: caller,
// uploads in progress, hourly budgets, storage quota, in that order (docs/operations.md, "Uploads and usage
// limits"). However the request ends, its slots and its temporary file are released.
import { unlink } from "node:fs/promises";
import type { NextFunction, Request, Response } from "express";
import { config } from "../config.ts";
import { withTenant } from "../db/tenancy.ts";
import { rateLimited, unavailable } from "../platform/errors.ts";
import { HOUR_S, useOrRefuse, type WindowLimit } from "../platform/limits.ts";
import { assertStorageRoomLeft, setUploadTempDir, type UploadedFile } from "../platform/storage/files.ts";
import type { AuthContext } from "./types.ts";
import { clientKey } from "../lib/ip.ts";

/** Uploads this process is reading or storing: in all, and per user (`user:<id>`) or client (`ip:<clientKey>`: IPv6 by its /64). */
const inProgress = { total: 0, by: new Map<string, number>() };

/** How many uploads this process has in progress (tests). */
export function uploadsInProgress(): number {
  return inProgress.total;
}

/** Seconds a client waits before retrying an upload refused for the uploads already in progress. */
export const UPLOAD_BUSY_RETRY_S = 2;

function take(who: string): () => void {
  inProgress.total++;
  inProgress.by.set(who, (inProgress.by.get(who) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    inProgress.total--;
    const n = (inProgress.by.get(who) ?? 1) - 1;
    if (n > 0) inProgress.by.set(who, n);
    else inProgress.by.delete(who);
  };
}

function removeTemporaryFiles(req: Request): void {
  const files = (req as Request & { files?: UploadedFile[] }).files;
  if (!Array.isArray(files)) return;
  for (const f of files) if (f?.path) unlink(f.path).catch(() => {});
}

export interface UploadGateOptions {
  /** Is the request's operation an upload, and is it public? (undefined: not an operation) */
  upload: (req: Request) => { isPublic: boolean } | undefined;
  /** Resolves the caller of a non-public operation (401/403) and keeps it for the handler. */
  authorize: (req: Request) => Promise<AuthContext | null>;
  /** What a public upload checks before its body is read (its link), throwing the refusal. */
  beforeBody?: (req: Request) => Promise<void>;
}

export function uploadGate(opts: UploadGateOptions) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const op = opts.upload(req);
    if (!op) return next();
    try {
      const cfg = config();
      const auth = op.isPublic ? null : await opts.authorize(req);
      const who = auth ? `user:${auth.userId}` : `ip:${clientKey(req.ip)}`; // IPv6 by its /64 (src/lib/ip.ts)
      if (inProgress.total >= cfg.uploadsMaxConcurrent)
        throw unavailable("Too many uploads in progress on the server, try again shortly", UPLOAD_BUSY_RETRY_S);
      if ((inProgress.by.get(who) ?? 0) >= cfg.uploadsMaxConcurrentPerUser)
        throw rateLimited(
          UPLOAD_BUSY_RETRY_S,
          { name: "uploads-in-progress", limit: cfg.uploadsMaxConcurrentPerUser },
          `Too many uploads at once (at most ${cfg.uploadsMaxConcurrentPerUser} ${auth ? "per user" : "per client IP"}); ` +
            "wait for one to finish",
        );
      const release = take(who);
      res.once("close", () => {
        release();
        removeTemporaryFiles(req);
      });
      if (op.isPublic) await opts.beforeBody?.(req);
      const limits: WindowLimit[] = [
        {
          key: `upload:${who}`,
          policy: auth ? "upload-user" : "upload-ip",
          max: cfg.uploadsPerUserPerHour,
          windowSeconds: HOUR_S,
          what: "Upload",
          per: auth ? "uploads per user per hour" : "uploads per client IP per hour",
        },
      ];
      if (auth)
        limits.push({
          key: `upload:tenant:${auth.tenantId}`,
          policy: "upload-tenant",
          max: cfg.uploadsPerTenantPerHour,
          windowSeconds: HOUR_S,
          what: "Upload",
          per: "uploads per company per hour",
        });
      await useOrRefuse(limits);
      if (auth) await withTenant(auth.tenantId, () => assertStorageRoomLeft(auth.userId));
      setUploadTempDir(req);
      next();
    } catch (err) {
      next(err);
    }
  };
}
