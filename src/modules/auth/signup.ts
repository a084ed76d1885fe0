// Signup, confirmed by e-mail: answers alike for every address; the job auth.signup-requests mails the
// token (or a notice to an existing account's owner); confirming creates user, company and owner membership
// in one transaction (docs/security.md, "Sign-up and confirmation").
import { acknowledgeOnJoining, assertCurrentNotice } from "../privacy/index.ts";
import type { Request } from "express";
import { appUrl } from "../../config.ts";
import { systemDb } from "../../db/client.ts";
import type { RequestBody } from "../../platform/use-case.ts";
import { conflict, invalidToken } from "../../platform/errors.ts";
import { signupLimiter, signupMailLimiter } from "../../platform/identity/limiter.ts";
import { assertStrongPassword, hashPassword } from "../../platform/identity/passwords.ts";
import { buildSessionInfo, type SessionInfoData, startSession } from "../../platform/identity/session.ts";
import { rememberClient } from "../../platform/identity/signin-guard.ts";
import { hashToken, newToken } from "../../platform/identity/tokens.ts";
import { jobs } from "../../platform/jobs/queue.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import * as clock from "../../lib/clock.ts";

export const SIGNUP_REQUESTS_JOB = "auth.signup-requests";
/** How long a confirmation token is valid (and an unconfirmed signup kept). */
const SIGNUP_TTL_MS = 24 * 3600 * 1000;
const INVALID_SIGNUP = "The confirmation link is invalid, already used or expired; sign up again";

/** Records a signup (202 either way); the job mails the address. */
export async function requestSignup(input: RequestBody<"signup">, ip: string): Promise<void> {
  await signupLimiter.attemptOrRefuse(ip);
  const email = input.email.toLowerCase();
  // no longer used (the password is chosen at the confirmation), but refused as before when it
  // breaks the rule, so that a client written for the old signup still hears of it at once
  if (input.password !== undefined) await assertStrongPassword(input.password, { email, name: input.name });
  await systemDb.signupRequest.create({
    data: {
      email,
      name: input.name.trim(),
      company_name: input.company_name?.trim() || null,
      expires_at: new Date(clock.nowMs() + SIGNUP_TTL_MS),
    },
  });
  jobs.kick(SIGNUP_REQUESTS_JOB);
}

/** The job: mails unmailed signups (at most `limit`); an address past its mail budget waits for a later sweep. */
export async function mailSignupRequests(limit = 200): Promise<number> {
  let mailed = 0;
  const waiting: string[] = [];
  for (let i = 0; i < limit; i++) {
    const next = await systemDb.signupRequest.findFirst({
      where: { mailed_at: null, ...(waiting.length ? { email: { notIn: waiting } } : {}) },
      orderBy: { created_at: "asc" },
      select: { id: true, email: true },
    });
    if (!next) break;
    const outcome = await mailSignupRequest(next.id);
    if (outcome === "mailed") mailed++;
    if (outcome === "waits") waiting.push(next.email);
  }
  return mailed;
}

/**
 * One signup, claimed (another worker skips it), mailed - or past the address's mail budget a notice is
 * dropped and a confirmation waits (only the newest waiting one: older ones would mail the same).
 */
async function mailSignupRequest(id: string): Promise<"mailed" | "dropped" | "waits"> {
  return systemDb.$transaction(async (tx) => {
    const row = await tx.signupRequest.findFirst({ where: { id, mailed_at: null } });
    if (!row) return "dropped";
    const owner = await tx.user.findUnique({ where: { email: row.email } });
    const wait = async () => {
      const newest = await tx.signupRequest.findFirst({
        where: { email: row.email, mailed_at: null },
        orderBy: [{ created_at: "desc" }, { id: "desc" }],
        select: { id: true },
      });
      await tx.signupRequest.deleteMany({ where: { email: row.email, mailed_at: null, NOT: { id: newest?.id ?? id } } });
      return "waits" as const;
    };
    if (!owner && (await signupMailLimiter.blocked(row.email))) return wait();
    const claimed = await tx.signupRequest.updateMany({ where: { id, mailed_at: null }, data: { mailed_at: clock.now() } });
    if (claimed.count !== 1) return "dropped";
    const withinMailLimit = (await signupMailLimiter.attempt(row.email)) === null;
    if (!owner && !withinMailLimit) {
      // another worker took the budget's last mail meanwhile: wait like the others
      await tx.signupRequest.update({ where: { id }, data: { mailed_at: null } });
      return wait();
    }
    if (owner) await tx.signupRequest.delete({ where: { id } });
    if (!withinMailLimit) return "dropped";
    const base = appUrl(); // the client application (APP_URL): its documented link paths
    if (owner) {
      await queueEmail(tx, {
        to: owner.email,
        subject: "Someone tried to sign up with your HRMS address",
        text:
          `Hello ${owner.name},\n\nSomeone (perhaps you) tried to create a new HRMS account with this e-mail address, ` +
          `which already has one. Nothing was created and nothing changed in your account.\n\n` +
          `To use your account, sign in: ${base}/sign-in\nIf you forgot your password, reset it: ${base}/forgot-password\n\n` +
          `If this was not you, you can ignore this email.\n`,
      });
      return "mailed";
    }
    const { token, hash } = newToken();
    await tx.signupRequest.update({ where: { id }, data: { token_hash: hash } });
    // The name and company given at signup are not repeated here: anyone can sign up with any
    // address, and the mail should carry nothing a stranger wrote.
    await queueEmail(tx, {
      to: row.email,
      subject: "Confirm your HRMS account",
      text:
        `Hello,\n\nTo finish creating your HRMS account and your company, open this link within 24 hours ` +
        `and choose your password there:\n\n` +
        `${base}/signup/confirm?token=${encodeURIComponent(token)}\n\nConfirmation token: ${token}\n\n` +
        `If you asked more than once, any of these messages works. ` +
        `If you did not sign up, ignore this email; no account is created.\n`,
      secrets: [token],
    });
    return "mailed";
  });
}

/** Creates the account (password chosen here, by the mailed token's holder) and its company from a confirmed signup; signs in. */
export async function completeSignup(req: Request, input: RequestBody<"confirmSignup">): Promise<SessionInfoData> {
  const hash = hashToken(input.token);
  const pending = await systemDb.signupRequest.findUnique({ where: { token_hash: hash } });
  if (!pending || pending.expires_at <= clock.now()) throw invalidToken(INVALID_SIGNUP);
  const name = input.name?.trim() || pending.name;
  await assertStrongPassword(input.password, { email: pending.email, name });
  if (input.privacy_notice_version !== undefined) await assertCurrentNotice(null, input.privacy_notice_version);
  const passwordHash = await hashPassword(input.password);
  const done = await systemDb.$transaction(async (tx) => {
    const row = await tx.signupRequest.findUnique({ where: { token_hash: hash } });
    if (!row || row.expires_at <= clock.now()) throw invalidToken(INVALID_SIGNUP);
    // claim it: of two requests with the same token, one creates the account, the other finds nothing
    const claimed = await tx.signupRequest.deleteMany({ where: { id: row.id } });
    if (claimed.count !== 1) throw invalidToken(INVALID_SIGNUP);
    await tx.signupRequest.deleteMany({ where: { email: row.email } });
    if (await tx.user.findUnique({ where: { email: row.email } })) return null;
    const user = await tx.user.create({ data: { email: row.email, name, password_hash: passwordHash } });
    const companyName = input.company_name?.trim() || row.company_name || `${name}'s company`;
    // created on the business clock its age is measured against (a new company's invitation limit)
    const tenant = await tx.tenant.create({ data: { name: companyName, created_at: clock.now() } });
    await tx.membership.create({ data: { tenant_id: tenant.id, user_id: user.id, role: "owner" } });
    await tx.auditLog.create({
      data: {
        tenant_id: tenant.id,
        actor_user_id: user.id,
        actor_email: user.email,
        action: "tenant.created",
        entity_type: "tenant",
        entity_id: tenant.id,
      },
    });
    return { userId: user.id, tenantId: tenant.id };
  });
  if (!done) throw conflict("This address already has an account; sign in instead");
  if (input.privacy_notice_version !== undefined)
    await acknowledgeOnJoining(done.tenantId, done.userId, input.privacy_notice_version, "signup");
  await startSession(req, done.userId, done.tenantId);
  await rememberClient(req, done.userId);
  return buildSessionInfo(done.userId, done.tenantId);
}

/** Removes signups whose token expired (hourly job). */
export async function pruneSignupRequests(): Promise<number> {
  const { count } = await systemDb.signupRequest.deleteMany({ where: { expires_at: { lt: clock.now() } } });
  return count;
}
