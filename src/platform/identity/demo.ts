// The demo company's owner (`make seed`, scripts/db/seed-demo.ts): its sign-in is printed at start-up
// and pre-filled in /docs' sign-in outside production, so that Execute lands in the demo's data.
import { config } from "../../config.ts";
import { systemDb } from "../../db/client.ts";

export const DEMO_OWNER_EMAIL = "devika.rao@acme.example";
export const DEMO_PASSWORD = "saffron-harbour-lantern-42";
export const DEMO_COMPANY = "Acme India";

/** The demo owner's sign-in when `make seed` made the demo here (never in production), else null. */
export async function demoSignIn(): Promise<{ email: string; password: string } | null> {
  if (config().isProduction) return null;
  const found = await systemDb.user.findUnique({ where: { email: DEMO_OWNER_EMAIL }, select: { id: true } }).catch(() => null);
  return found ? { email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD } : null;
}
