// The pages the account mails link to while APP_URL is this server: forms that /assets/public-link.js
// sends as JSON to the operation in `data-json`; the signup and invitation pages require acknowledging the
// privacy notice's version (`privacy_notice_version`).
import { esc, page } from "../../platform/html-page.ts";
import { noticeBeforeJoining } from "../privacy/index.ts";
import { invitationForPage } from "./accounts.ts";

const PASSWORD_HINT = "At least 8 characters and hard to guess: not a common password, not your name or e-mail.";

const field = (id: string, label: string, type: string, extra = "", hint = "") =>
  `<p><label for="${id}">${label}</label><br><input id="${id}" name="${id}" type="${type}" ${extra}>` +
  `${hint ? `<br><span class="hint" id="${id}-hint">${hint}</span>` : ""}</p>`;
const newPassword = () =>
  field(
    "password",
    "Password",
    "password",
    'autocomplete="new-password" minlength="8" maxlength="200" required aria-describedby="password-hint"',
    PASSWORD_HINT,
  );

/** A form sent as JSON to `action`; `done` is said on success, `next` offered as a link after it. */
function form(action: string, fields: string, submit: string, done: string, next?: { href: string; text: string }) {
  return `<form method="post" action="${action}" data-json="${action}" data-done="${esc(done)}"${
    next ? ` data-next="${next.href}" data-next-text="${esc(next.text)}"` : ""
  }>
${fields}
<p><button type="submit" class="primary">${submit}</button></p>
</form>
<noscript><p>This form needs JavaScript in this browser.</p></noscript>
<p role="status" aria-live="polite"></p>`;
}
const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${esc(value)}">`;
const noToken = (what: string) =>
  `<p>This page needs the link from your e-mail: open ${what} from the message itself (the whole ` +
  `address, with its <code>token</code>).</p>`;
const BASIS = { legitimate_use: "needed to employ you", legal_obligation: "required by law", consent: "only with your consent" };

/** The notice to read and the box that acknowledges it: the browser does not send the form until it is ticked. */
function privacyNotice(notice: Awaited<ReturnType<typeof noticeBeforeJoining>>, company: string) {
  const purposes = notice.purposes
    .map((p) => `<li>${esc(p.purpose)} <span class="hint">(${esc(p.record_class)}: ${BASIS[p.basis]})</span></li>`)
    .join("");
  const officer = notice.grievance_officer
    ? `<p>Grievance officer: ${esc(notice.grievance_officer.name)}, ` +
      `<a href="mailto:${esc(notice.grievance_officer.email)}">${esc(notice.grievance_officer.email)}</a></p>`
    : "";
  return `<section id="privacy-notice" aria-labelledby="privacy-notice-title">
<h2 id="privacy-notice-title">How ${esc(company)} handles your personal data</h2>
<p class="terms">${esc(notice.text)}</p>
<ul>${purposes}</ul>
${officer}</section>
<p><input type="checkbox" id="privacy_notice_version" name="privacy_notice_version" value="${notice.version}" data-integer required>
<label for="privacy_notice_version">I have read this privacy notice (version ${notice.version}).</label></p>`;
}
const REFERENCE = { href: "/docs", text: "Open the API reference (signed in)" };

/** `/signup/confirm?token=`: choose the password; creates the account and the company and signs in. */
export async function signupConfirmPage(token: string | undefined): Promise<string> {
  const body = token
    ? form(
        "/api/auth/signup/confirm",
        hidden("token", token) + newPassword() + privacyNotice(await noticeBeforeJoining({}), "your new company"),
        "Create my account",
        "Your account and your company are ready, and you are signed in.",
        REFERENCE,
      )
    : noToken("the confirmation link");
  return page("Finish signing up", `<h1>Finish signing up</h1>\n<p>Choose the password of your new HRMS account.</p>\n${body}`);
}

/** `/accept-invite?token=`: join the company: a new account (name and password) or the current password. */
export async function acceptInvitePage(token: string | undefined): Promise<string> {
  const invitation = token ? await invitationForPage(token) : null;
  const title = "Accept your invitation";
  if (!token) return page(title, `<h1>${title}</h1>\n${noToken("the invitation link")}`);
  if (!invitation)
    return page(title, `<h1>${title}</h1>\n<p>This invitation is invalid, already used or expired. Ask the company for a new one.</p>`);
  const fields =
    hidden("token", token) +
    (invitation.hasAccount
      ? field("password", "Your current password", "password", 'autocomplete="current-password" maxlength="200" required')
      : field("name", "Your name", "text", 'autocomplete="name" maxlength="200" required') + newPassword()) +
    privacyNotice(await noticeBeforeJoining({ invitation_token: token }), invitation.company);
  return page(
    title,
    `<h1>Join ${esc(invitation.company)}</h1>
<p>${esc(invitation.email)} is invited as <strong>${esc(invitation.role)}</strong>. ${
      invitation.hasAccount
        ? "This address has an account: sign in with its password to accept."
        : "Choose your name and password to accept."
    }</p>
${form("/api/auth/accept-invite", fields, "Accept the invitation", `You joined ${invitation.company} and are signed in.`, REFERENCE)}`,
  );
}

/** `/reset-password?token=`: a new password. */
export function resetPasswordPage(token: string | undefined): string {
  const body = token
    ? form(
        "/api/auth/reset-password",
        hidden("token", token) + newPassword(),
        "Set the password",
        "Your password is changed. Sign in with it.",
        { href: "/sign-in", text: "Sign in" },
      )
    : noToken("the reset link");
  return page("Reset your password", `<h1>Reset your password</h1>\n${body}`);
}

/** `/sign-in`: e-mail and password. */
export function signInPage(): string {
  const fields =
    field("email", "E-mail", "email", 'autocomplete="username" maxlength="254" required') +
    field("password", "Password", "password", 'autocomplete="current-password" maxlength="200" required');
  return page(
    "Sign in",
    `<h1>Sign in</h1>\n${form("/api/auth/sign-in", fields, "Sign in", "You are signed in.", REFERENCE)}
<p><a href="/forgot-password">Forgot your password?</a></p>`,
  );
}

/** `/forgot-password`: mails a reset link. */
export function forgotPasswordPage(): string {
  const fields = field("email", "E-mail", "email", 'autocomplete="username" maxlength="254" required');
  return page(
    "Forgot your password",
    `<h1>Forgot your password</h1>\n<p>We mail a link to set a new one to the address, if it has an account.</p>
${form("/api/auth/forgot-password", fields, "Mail me a link", "If an account exists for this address, a reset link is on its way.")}`,
  );
}
