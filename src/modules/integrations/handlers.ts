// Integrations (docs/integrations.md): API credentials, webhook endpoints and the event feed. Each handler is
// one use-case call (credentials.ts, webhooks.ts, events.ts).
import { accepted, ack, created, listed, ok, pageOf } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { credentialPage, issueApiCredential, replaceCredentialSecret, revokeCredential } from "./credentials.ts";
import { eventsAfter } from "./events.ts";
import { issueAccessToken } from "./oauth.ts";
import {
  addWebhookEndpoint,
  attemptPage,
  changeWebhookEndpoint,
  endpointById,
  endpointPage,
  pingWebhookEndpoint,
  removeWebhookEndpoint,
  replaceWebhookSecret,
  replayToEndpoint,
} from "./webhooks.ts";

export const handlers = {
  async issueOAuthToken({ req, res, body }) {
    const token = await issueAccessToken(req.headers.authorization, body ?? {});
    res.setHeader("Pragma", "no-cache"); // RFC 6749 §5.1, beside Cache-Control: no-store
    return { status: 200, body: token };
  },

  async listApiCredentials({ operationId, query }) {
    const page = pageOf(query);
    const { rows, total } = await credentialPage(page);
    return listed(operationId, { rows, page, total });
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

  async listWebhookEndpoints({ operationId, query }) {
    const page = pageOf(query);
    const { rows, total } = await endpointPage(page);
    return listed(operationId, { rows, page, total });
  },

  async createWebhookEndpoint({ body, auth }) {
    return created(await addWebhookEndpoint(body, auth), "Webhook endpoint created; its secret is shown this once");
  },

  async getWebhookEndpoint({ params }) {
    return ok(await endpointById(params.id));
  },

  async updateWebhookEndpoint({ params, body, auth }) {
    return ok(await changeWebhookEndpoint(params.id, body, auth), "Webhook endpoint updated");
  },

  async deleteWebhookEndpoint({ params }) {
    await removeWebhookEndpoint(params.id);
    return ack("Webhook endpoint deleted");
  },

  async rotateWebhookSecret({ params }) {
    return ok(await replaceWebhookSecret(params.id), "Signing secret rotated; the new secret is shown this once");
  },

  async testWebhookEndpoint({ params }) {
    return accepted(await pingWebhookEndpoint(params.id), "Test event queued");
  },

  async replayWebhookEvents({ params, body }) {
    return accepted(await replayToEndpoint(params.id, body), "Deliveries queued");
  },

  async listWebhookAttempts({ operationId, params, query }) {
    const page = pageOf(query);
    const { rows, total } = await attemptPage(params.id, page);
    return listed(operationId, { rows, page, total });
  },

  async listEvents({ query, auth }) {
    const { events, next } = await eventsAfter(query.after, query.limit ?? 100, auth);
    return ok(events, "OK", { next_cursor: next });
  },
} satisfies Partial<AreaHandlers<"integrations">>;
