import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins";
import { site } from "~/content/site";
import { db, type Database } from "./db/client.server";
import { accounts, sessions, twoFactors, users, verifications } from "./db/schema";
import { env } from "./env.server";
import { log } from "./logger.server";

type AuthOptions = { database: Database; secret: string; baseURL: string };

/**
 * better-auth, configured for this site (decision record 0040): e-mail + password only, no public sign-up,
 * sessions in PostgreSQL carried by an httpOnly SameSite=Lax cookie (Secure when the site is served over
 * HTTPS), TOTP two-factor. Its HTTP handler is not mounted: routes call `auth.api.*` on the server, so no
 * endpoint exists that a visitor could use to create an account.
 */
export function createAuth({ database, secret, baseURL }: AuthOptions) {
  return betterAuth({
    appName: site.brand,
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
    plugins: [twoFactor({ issuer: site.brand, backupCodeOptions: { amount: 10, length: 10 } })],
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

/**
 * AUTH_SECRET, or a secret generated once and kept in DATA_DIR/auth-secret (readable by the owner only) so
 * that sessions survive restarts.
 */
export async function authSecret(): Promise<string> {
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

const holder = globalThis as typeof globalThis & { __studioAuth?: Promise<Auth> };

/** The process's auth instance, created on first use (after the database is connected). */
export function auth(): Promise<Auth> {
  holder.__studioAuth ??= authSecret().then((secret) =>
    createAuth({ database: db(), secret, baseURL: env().SITE_URL }),
  );
  return holder.__studioAuth;
}
