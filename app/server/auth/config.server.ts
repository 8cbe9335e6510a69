import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins";
import type { Database } from "../db/client.server";
import { accounts, sessions, twoFactors, users, verifications } from "../db/schema";
import { log } from "../logger.server";
import {
  generateBackupCodes,
  RESET_LINK_LIFETIME_SECONDS,
  resetPasswordEmail,
  resetPasswordPath,
} from "./rules.server";
import { authSources, type AuthSources } from "./sources.server";

// better-auth and its plugins weigh about 15 MB of heap: auth() (auth.server.ts) imports this module on
// first use, never at start-up, so a process that only serves public pages never loads them (decision
// record 0092).

type AuthOptions = {
  database: Database;
  secret: string;
  baseURL: string;
  /** How auth e-mails leave (null: SMTP_URL is not set, nothing is sent); boot/'s by default. */
  mailer?: AuthSources["mailer"];
  /** The brand the reset e-mail is signed with, read when it is written; boot/'s by default. */
  brand?: AuthSources["brand"];
  /**
   * The name authenticator apps show next to the codes (the brand when the process made its auth instance);
   * the e-mails read the brand when they are written.
   */
  issuer?: string;
};

/**
 * better-auth, configured for this site (decision record 0040): e-mail + password only, no public sign-up,
 * sessions in PostgreSQL carried by an httpOnly SameSite=Lax cookie (Secure when the site is served over
 * HTTPS), TOTP two-factor. Its HTTP handler is not mounted: routes call `auth.api.*` on the server, so no
 * endpoint exists that a visitor could use to create an account.
 */
export function createAuth({
  database,
  secret,
  baseURL,
  mailer = () => authSources().mailer(),
  brand = () => authSources().brand(),
  issuer = "Administration du site",
}: AuthOptions) {
  return betterAuth({
    appName: issuer,
    baseURL,
    secret,
    trustedOrigins: [baseURL],
    database: drizzleAdapter(database, {
      provider: "pg",
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        twoFactor: twoFactors,
      },
    }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      // "Mot de passe oublié ?" (routes/admin/mot-de-passe-oublie): a random single-use token kept hashed in
      // `verifications`, valid one hour; a new password ends every session of the account.
      resetPasswordTokenExpiresIn: RESET_LINK_LIFETIME_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        // Only administrators can sign in; nobody else is sent anything.
        if ((user as { role?: unknown }).role !== "admin") return;
        const send = mailer();
        if (!send) return;
        // Not awaited: the answer must take as long whether or not the address exists.
        const url = `${baseURL}${resetPasswordPath(token)}`;
        brand()
          .then((brand) => send(resetPasswordEmail(user.email, url, brand)))
          .then(
            () => log.info("password_reset_emailed", { userId: user.id }),
            (error: unknown) =>
              log.error("password_reset_email_failed", { userId: user.id, error }),
          );
      },
    },
    verification: {
      // Reset and invitation tokens are stored as hashes: a copy of the database opens no account.
      storeIdentifier: { default: "plain", overrides: { "reset-password:": "hashed" } },
    },
    user: {
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "user", input: false },
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      // A session used at least once a day keeps living; the cookie is renewed by the admin layout.
      updateAge: 60 * 60 * 24,
      cookieCache: { enabled: false },
    },
    // Sign-in attempts are counted by our own PostgreSQL-backed limiter (routes/admin/login), because the
    // library's limiter only guards its HTTP handler, which we do not mount.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: "studio",
      useSecureCookies: baseURL.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
    },
    plugins: [
      twoFactor({
        issuer,
        backupCodeOptions: { customBackupCodesGenerate: () => generateBackupCodes(10) },
      }),
    ],
    telemetry: { enabled: false },
    logger: {
      log(level, message) {
        if (level === "error") log.error("auth_error", { message });
        else if (level === "warn") log.warn("auth_warning", { message });
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
