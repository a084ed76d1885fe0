// The request being served, for the code that runs on its behalf without being handed it: its id
// (every log line, src/log.ts), the caller (audit, guards, read-your-writes) and the API credential.
// Below every layer: it imports nothing of the application, and the logger reads it.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestInfo {
  requestId: string;
  ip?: string;
  userId?: string;
  /** the company the caller acts in (session or API credential), for the access-log line */
  tenantId?: string;
  email?: string;
  /** the API credential the request authenticated with (audit, read-your-writes) */
  credential?: { id: string; name: string; tenantId: string; lastWriteLsn: string | null };
}
export const requestContext = new AsyncLocalStorage<RequestInfo>();
