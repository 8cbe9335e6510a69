import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { APIError } from "better-auth/api";
import type { Auth } from "./config.server";
import { authSources } from "./sources.server";
import { db } from "../db/client.server";
import { env } from "../env.server";

export type { Auth } from "./config.server";
export { resetPasswordPath } from "./rules.server";

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
  holder.__studioAuth ??= (async () => {
    // Loaded here, on the first sign-in or admin page, not at start-up (decision record 0092).
    const { createAuth } = await import("./config.server");
    const [secret, brand] = await Promise.all([authSecret(), authSources().brand()]);
    return createAuth({ database: db(), secret, baseURL: env().SITE_URL, issuer: brand });
  })().catch((error: unknown) => {
    holder.__studioAuth = undefined;
    throw error;
  });
  return holder.__studioAuth;
}

/**
 * The library's refusal (wrong password, wrong code, used token…) when `error` is one. Asynchronous because
 * better-auth is loaded on first use; whoever caught one of its errors has already loaded it.
 */
export async function authRefusal(error: unknown): Promise<APIError | undefined> {
  const { isAPIError } = await import("better-auth/api");
  return isAPIError(error) ? error : undefined;
}
