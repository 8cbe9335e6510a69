import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins";
import { db, type Database } from "./db/client.server";
import { accounts, sessions, twoFactors, users, verifications } from "./db/schema";
import { env } from "./env.server";
import { log } from "./logger.server";
import { readSiteContent } from "./content/site-content.server";
import { configuredMailer, type Mailer } from "./mail.server";

type AuthOptions = {
  database: Database;
  secret: string;
  baseURL: string;
  /** How auth e-mails leave (null: SMTP_URL is not set, nothing is sent); the process's SMTP settings by default. */
  mailer?: () => Mailer | null;
  /**
   * The name authenticator apps show next to the codes (the brand when the process made its auth instance);
   * the e-mails read the brand when they are written.
   */
  issuer?: string;
};

/** The brand as the owner set it in the admin. */
async function currentBrand(): Promise<string> {
  return (await readSiteContent()).documents.identity.brand;
}

/** How long a "forgotten password" link works (it also works only once). */
export const RESET_LINK_LIFETIME_SECONDS = 60 * 60;

/** The page a reset or invitation link opens: the token travels in the query, the page posts it back. */
export const resetPasswordPath = (token: string) =>
  `/admin/reinitialiser-mot-de-passe?token=${encodeURIComponent(token)}`;

/**
 * Backup codes for two-factor sign-in, without characters that read alike (0/O, 1/I/l): 10 codes of 10
 * characters from 31 symbols (about 49 bits each), shown as `XXXXX-XXXXX`.
 */
export const BACKUP_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

export function generateBackupCodes(amount = 10): string[] {
  return Array.from({ length: amount }, () => {
    let text = "";
    while (text.length < 10) {
      const byte = randomBytes(1)[0] ?? 255;
      // 256 is not a multiple of 31: the few bytes above the last full multiple are drawn again.
      if (byte < 256 - (256 % BACKUP_CODE_ALPHABET.length)) {
        text += BACKUP_CODE_ALPHABET[byte % BACKUP_CODE_ALPHABET.length];
      }
    }
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

/** The e-mail of a "forgotten password" link. */
export function resetPasswordEmail(to: string, url: string, brand: string) {
  return {
    to,
    subject: `[${brand}] Réinitialisation de votre mot de passe`,
    text: [
      "Bonjour,",
      "",
      `Un nouveau mot de passe a été demandé pour votre compte d'administration du site ${brand}.`,
      "Pour choisir un nouveau mot de passe, ouvrez ce lien dans l'heure (il ne fonctionne qu'une fois) :",
      "",
      url,
      "",
      "Si vous n'avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.",
    ].join("\n"),
  };
}

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
  mailer = configuredMailer,
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
        currentBrand()
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

/** AUTH_SECRET, or the one kept in DATA_DIR/auth-secret, generated there by the first process that needs it. */
async function loadAuthSecret(): Promise<string> {
  const config = env();
  if (config.AUTH_SECRET) return config.AUTH_SECRET;
  const file = path.join(config.dataDir, "auth-secret");
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch {
    await fs.mkdir(config.dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
      return secret;
    } catch (error) {
      // Another process wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code === "EEXIST") {
        return (await fs.readFile(file, "utf8")).trim();
      }
      throw error;
    }
  }
}

const holder = globalThis as typeof globalThis & {
  __studioAuth?: Promise<Auth>;
  __studioAuthSecret?: Promise<string>;
};

/**
 * AUTH_SECRET, or a secret generated once and kept in DATA_DIR/auth-secret (readable by the owner only) so
 * that sessions survive restarts. Read once per process: sessions, toasts, device cookies and every
 * e-mailed link's token are signed with it (a failed read is tried again at the next call).
 */
export function authSecret(): Promise<string> {
  holder.__studioAuthSecret ??= loadAuthSecret().catch((error: unknown) => {
    holder.__studioAuthSecret = undefined;
    throw error;
  });
  return holder.__studioAuthSecret;
}

/** The process's auth instance, created on first use (after the database is connected). */
export function auth(): Promise<Auth> {
  holder.__studioAuth ??= Promise.all([authSecret(), currentBrand()]).then(([secret, brand]) =>
    createAuth({ database: db(), secret, baseURL: env().SITE_URL, issuer: brand }),
  );
  return holder.__studioAuth;
}
