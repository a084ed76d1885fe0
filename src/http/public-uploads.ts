// The upload gate's view of the operations (src/http/uploads.ts): a public upload checks the link in its
// path before its body, so a wrong or dead link costs neither the time nor the disk for its file.
import type { Request } from "express";
import type { OperationId } from "../../generated/registry.ts";
import { checkAppointmentUpload } from "../modules/recruitment/index.ts";
import { AppError, type ErrorDetail } from "../platform/errors.ts";
import { authorizeOnce } from "./operation.ts";
import { apiDocument, type Matcher, type OperationRequest, operationOf } from "./routing.ts";
import type { UploadGateOptions } from "./uploads.ts";
import { detailsInWords } from "../platform/validation-messages.ts";

/** Every public multipart operation must have its entry (the app refuses to start otherwise). */
const PUBLIC_UPLOAD_CHECKS: Partial<Record<OperationId, (params: Record<string, string>) => Promise<void>>> = {
  uploadAppointmentDocument: (params) => checkAppointmentUpload(params.token),
};

/** Does `id` check its link before reading its body (PUBLIC_UPLOAD_CHECKS)? */
export const checksLinkBeforeBody = (id: string): boolean => id in PUBLIC_UPLOAD_CHECKS;

type StringSchema = { minLength?: number; maxLength?: number; pattern?: string };

/** The path parameters' length and pattern checks: a malformed link is the validator's 400, not a lookup. */
function pathParamChecks(doc: any, urlPath: string, method: string) {
  const resolve = (p: any) => (typeof p?.$ref === "string" ? doc.components.parameters[p.$ref.split("/").pop()] : p);
  const params = [...(doc.paths[urlPath]?.parameters ?? []), ...(doc.paths[urlPath]?.[method]?.parameters ?? [])].map(resolve);
  const checks = params
    .filter((p) => p?.in === "path")
    .map((p) => {
      const schema = (p.schema ?? {}) as StringSchema;
      // regex-dynamic: a pattern of the document (scripts/checks/check-regex.ts proves each of them linear)
      return { name: p.name as string, schema, pattern: schema.pattern ? new RegExp(schema.pattern, "u") : undefined };
    });
  return (values: Record<string, string>): ErrorDetail[] => {
    // as the validator words them, then in words like every validation message (validation-messages.ts)
    const problems: { path: string; message: string; errorCode: string }[] = [];
    for (const { name, schema, pattern } of checks) {
      const v = values[name] ?? "";
      const length = [...v].length;
      const path = `params.${name}`;
      if (schema.minLength !== undefined && length < schema.minLength)
        problems.push({ path, message: `must NOT have fewer than ${schema.minLength} characters`, errorCode: "minLength" });
      if (schema.maxLength !== undefined && length > schema.maxLength)
        problems.push({ path, message: `must NOT have more than ${schema.maxLength} characters`, errorCode: "maxLength" });
      if (pattern && !pattern.test(v)) problems.push({ path, message: `must match pattern "${schema.pattern}"`, errorCode: "pattern" });
    }
    return detailsInWords(problems, (e) => String(e.path)) as ErrorDetail[];
  };
}

/** Throws when a public upload has no entry in PUBLIC_UPLOAD_CHECKS (the app then refuses to start). */
export function operationUploads(matchers: Matcher[]): UploadGateOptions {
  const publicUploadPaths = new Map<OperationId, ReturnType<typeof pathParamChecks>>();
  for (const m of matchers) {
    if (!m.isPublic || !m.multipart) continue;
    if (!PUBLIC_UPLOAD_CHECKS[m.id])
      throw new Error(`${m.id}: a public upload needs the checks it makes before its body is read (PUBLIC_UPLOAD_CHECKS)`);
    publicUploadPaths.set(m.id, pathParamChecks(apiDocument(), m.path, m.method.toLowerCase()));
  }
  return {
    upload: (req: Request) => {
      const op = operationOf(req);
      return op?.multipart ? { isPublic: op.isPublic } : undefined;
    },
    authorize: (req: Request) => authorizeOnce(req),
    beforeBody: async (req: Request) => {
      const id = operationOf(req)!.id;
      const params = (req as OperationRequest).openapiRouteHint?.pathParams;
      if (!params) throw new AppError("validation_failed", "Malformed path", [{ path: "path", message: "is not valid percent-encoding" }]);
      const problems = publicUploadPaths.get(id)?.(params) ?? [];
      if (problems.length) throw new AppError("validation_failed", "Validation failed", problems);
      await PUBLIC_UPLOAD_CHECKS[id]?.(params);
    },
  };
}
