// Identity: sign-in/out, signup (confirmed by e-mail), sessions, tenant switching, password reset, invitations. Each
// handler translates HTTP to one use case (sessions.ts, signup.ts, accounts.ts) and back; the request is
// passed where the use case starts, saves or ends its session.
import { sessionCookieName, sessionCookieOptions } from "../../platform/identity/session.ts";
import { accepted, ack, created, ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { joinByInvitation, requestPasswordReset, resetPasswordWithToken } from "./accounts.ts";
import { acceptInvitePage, forgotPasswordPage, resetPasswordPage, signInPage, signupConfirmPage } from "./pages.ts";
import { completeSignup, requestSignup } from "./signup.ts";
import { currentSession, endSession, refreshedSession, signInWithPassword, switchActiveTenant } from "./sessions.ts";

export const handlers = {
  async signIn({ body, req, ip }) {
    return ok(await signInWithPassword(req, body, ip), "Signed in");
  },

  async signOut({ req, res }) {
    await endSession(req);
    res.clearCookie(sessionCookieName(), sessionCookieOptions());
    return ack("Signed out");
  },

  async getSession({ req }) {
    return ok(await currentSession(req));
  },

  async refreshSession({ req }) {
    return ok(await refreshedSession(req), "Session refreshed");
  },

  async switchTenant({ body, req }) {
    return ok(await switchActiveTenant(req, body.tenantId), "Switched tenant");
  },

  async signup({ body, ip }) {
    await requestSignup(body, ip);
    return accepted(null, "Check your e-mail: a message to finish signing up is on its way to this address");
  },

  async confirmSignup({ body, req }) {
    return created(await completeSignup(req, body), "Account created");
  },

  async forgotPassword({ body, ip }) {
    await requestPasswordReset(body.email, ip);
    return ack("If an account exists for this email, a reset link has been sent");
  },

  async resetPassword({ body, req }) {
    await resetPasswordWithToken(req, body.token, body.password);
    return ack("Password changed; sign in with the new password");
  },

  async acceptInvite({ body, req, ip }) {
    return ok(await joinByInvitation(req, body, ip), "Invitation accepted");
  },

  // the pages mailed links open (pages.ts): HTML, sent here like the candidate's offer page
  async getSignupConfirmPage({ query, res }) {
    const html = await signupConfirmPage(query.token);
    res.status(200).type("html").send(html);
    return { sent: true as const };
  },
  async getAcceptInvitePage({ query, res }) {
    const html = await acceptInvitePage(query.token);
    res.status(200).type("html").send(html);
    return { sent: true as const };
  },
  async getResetPasswordPage({ query, res }) {
    res.status(200).type("html").send(resetPasswordPage(query.token));
    return { sent: true as const };
  },
  async getSignInPage({ res }) {
    res.status(200).type("html").send(signInPage());
    return { sent: true as const };
  },
  async getForgotPasswordPage({ res }) {
    res.status(200).type("html").send(forgotPasswordPage());
    return { sent: true as const };
  },
} satisfies Partial<AreaHandlers<"auth">>;
