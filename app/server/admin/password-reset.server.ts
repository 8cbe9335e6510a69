import { randomBytes } from "node:crypto";
import { type Auth, authRefusal, resetPasswordPath } from "../auth/auth.server";
import { authSources } from "../auth/sources.server";
import { log } from "../logger.server";
import type { Mailer } from "../auth/sources.server";
import { consumeRateLimit, resetRateLimit } from "../rate-limit.server";
import { signInRateLimitKeys } from "./sign-in.server";

/*
 * "Mot de passe oublié ?" and invitations of further administrators (decision record 0040). Both end on the
 * same page (routes/admin/reinitialiser-mot-de-passe) with the same kind of token: random, single-use, kept
 * hashed in `verifications` by better-auth, and consumed by its resetPassword.
 */

/** Requests of a reset link: per client (then refused), and per address (then silently not sent). */
export const RESET_REQUEST_LIMITS = {
  perClient: { limit: 5, windowSeconds: 15 * 60 },
  perEmail: { limit: 3, windowSeconds: 60 * 60 },
} as const;

/** Posts of a new password, per client: tokens cannot be guessed, nor tried by the thousand. */
export const RESET_SUBMIT_LIMIT = { limit: 10, windowSeconds: 15 * 60 } as const;

/** How long an invitation link works. */
export const INVITATION_LIFETIME_SECONDS = 3 * 24 * 60 * 60;

export type ResetRequestOutcome =
  | { kind: "sent" }
  | { kind: "not-configured" }
  | { kind: "rate-limited"; retryAfterSeconds: number };

/**
 * Sends a reset link to `email` when it is an administrator's. The answer does not say whether it is: the
 * same outcome, and the e-mail leaves after the answer (auth.server's sendResetPassword).
 */
export async function requestPasswordResetLink(
  auth: Auth,
  mailer: Mailer | null,
  { email, client }: { email: string; client: string },
): Promise<ResetRequestOutcome> {
  if (!mailer) return { kind: "not-configured" };
  const normalised = email.trim().toLowerCase();
  const byClient = await consumeRateLimit(
    `admin-reset:client:${client}`,
    RESET_REQUEST_LIMITS.perClient,
  );
  if (!byClient.allowed) {
    return { kind: "rate-limited", retryAfterSeconds: byClient.retryAfterSeconds };
  }
  const byEmail = await consumeRateLimit(
    `admin-reset:email:${normalised}`,
    RESET_REQUEST_LIMITS.perEmail,
  );
  if (!byEmail.allowed) {
    log.warn("password_reset_rate_limited", { client });
    return { kind: "sent" };
  }
  try {
    await auth.api.requestPasswordReset({ body: { email: normalised } });
  } catch (error) {
    const refusal = await authRefusal(error);
    if (!refusal) throw error;
    log.warn("password_reset_refused", { message: refusal.message });
  }
  return { kind: "sent" };
}

const identifier = (token: string) => `reset-password:${token}`;

/** True when `token` is a reset or invitation token that has not been used and has not expired. */
export async function isResetTokenValid(auth: Auth, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{16,100}$/.test(token)) return false;
  const context = await auth.$context;
  const verification = await context.internalAdapter.findVerificationValue(identifier(token));
  return Boolean(verification && verification.expiresAt > new Date());
}

export type ResetOutcome = { kind: "done" } | { kind: "invalid-token" } | { kind: "rate-limited" };

/**
 * Sets the new password of the token's account (once: the token is consumed), ends every session of that
 * account, and clears the account's sign-in counter for unknown browsers: whoever reads its mailbox is the
 * owner, even if a stranger had exhausted that counter.
 */
export async function resetPasswordWithToken(
  auth: Auth,
  { token, password, client }: { token: string; password: string; client: string },
): Promise<ResetOutcome> {
  const limit = await consumeRateLimit(`admin-reset-submit:client:${client}`, RESET_SUBMIT_LIMIT);
  if (!limit.allowed) return { kind: "rate-limited" };
  if (!/^[A-Za-z0-9_-]{16,100}$/.test(token)) return { kind: "invalid-token" };
  const context = await auth.$context;
  const verification = await context.internalAdapter.findVerificationValue(identifier(token));
  if (!verification) return { kind: "invalid-token" };
  try {
    await auth.api.resetPassword({ body: { token, newPassword: password } });
  } catch (error) {
    if (await authRefusal(error)) return { kind: "invalid-token" };
    throw error;
  }
  const user = await context.internalAdapter.findUserById(verification.value);
  if (user) {
    await resetRateLimit(signInRateLimitKeys(user.email, "").email);
    if (!user.emailVerified) {
      await context.internalAdapter.updateUser(user.id, { emailVerified: true });
    }
    log.info("password_reset_done", { userId: user.id });
  }
  return { kind: "done" };
}

export type InvitationOutcome =
  { kind: "sent" } | { kind: "not-configured" } | { kind: "exists" } | { kind: "failed" };

/** The e-mail that invites someone to choose a password and administer the site. */
export function invitationEmail(to: string, url: string, invitedBy: string, brand: string) {
  return {
    to,
    subject: `[${brand}] Invitation à l'administration du site`,
    text: [
      "Bonjour,",
      "",
      `${invitedBy} vous invite à administrer le site ${brand}.`,
      "Pour choisir votre mot de passe, ouvrez ce lien dans les 3 jours (il ne fonctionne qu'une fois) :",
      "",
      url,
      "",
      "Vous vous connecterez ensuite à l'administration avec cette adresse e-mail et ce mot de passe.",
      "Si vous ne vous attendiez pas à cette invitation, ignorez ce message.",
    ].join("\n"),
  };
}

/**
 * Invites `email` as an administrator: the account is created with the role `admin` and no password (it
 * cannot sign in), and a link to choose one is e-mailed. Inviting again someone who has not chosen a
 * password yet sends a new link; an account that can already sign in is left alone.
 */
export async function inviteAdministrator(
  auth: Auth,
  mailer: Mailer | null,
  { email, invitedBy, baseURL }: { email: string; invitedBy: string; baseURL: string },
): Promise<InvitationOutcome> {
  if (!mailer) return { kind: "not-configured" };
  const context = await auth.$context;
  const adapter = context.internalAdapter;
  const normalised = email.trim().toLowerCase();
  const found = await adapter.findUserByEmail(normalised, { includeAccounts: true });
  let userId: string;
  if (found) {
    const pending =
      (found.user as { role?: unknown }).role === "admin" &&
      !found.accounts.some((account) => account.providerId === "credential" && account.password);
    if (!pending) return { kind: "exists" };
    userId = found.user.id;
  } else {
    const user = await adapter.createUser(
      {
        email: normalised,
        name: normalised.split("@")[0] ?? normalised,
        emailVerified: false,
        role: "admin",
      },
      { method: "admin" },
    );
    userId = user.id;
  }
  const token = randomBytes(24).toString("base64url");
  await adapter.createVerificationValue({
    identifier: identifier(token),
    value: userId,
    expiresAt: new Date(Date.now() + INVITATION_LIFETIME_SECONDS * 1000),
  });
  try {
    const brand = await authSources().brand();
    await mailer(
      invitationEmail(normalised, `${baseURL}${resetPasswordPath(token)}`, invitedBy, brand),
    );
  } catch (error) {
    log.error("invitation_email_failed", { userId, error });
    return { kind: "failed" };
  }
  log.info("administrator_invited", { userId });
  return { kind: "sent" };
}
