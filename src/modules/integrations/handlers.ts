// Integrations (issue 31): API credentials. Each handler is one use-case call (credentials.ts).
import { created, ok, pageOf, paginated } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { credentialPage, issueApiCredential, replaceCredentialSecret, revokeCredential } from "./credentials.ts";

export const handlers = {
  async listApiCredentials({ query }) {
    const page = pageOf(query);
    const { rows, total } = await credentialPage(page);
    return paginated(rows, page, total);
  },

  async createApiCredential({ auth, body }) {
    return created(await issueApiCredential(auth, body), "API credential created; its secret is shown this once");
  },

  async revokeApiCredential({ params }) {
    return ok(await revokeCredential(params.id), "API credential revoked");
  },

  async rotateApiCredential({ params, body }) {
    return ok(await replaceCredentialSecret(params.id, body), "API credential rotated; the new secret is shown this once");
  },
} satisfies Partial<AreaHandlers<"integrations">>;
