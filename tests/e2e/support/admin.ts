import { randomBytes } from "node:crypto";
import { eq, inArray, like, or } from "drizzle-orm";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { upsertAccount } from "../../../app/server/admin/administrators.server";
import { signInRateLimitKeys } from "../../../app/server/admin/sign-in.server";
import { createAuth } from "../../../app/server/auth-config.server";
import { rateLimits, users } from "../../../app/server/db/schema";
import type { useBrowser } from "./browser";
import { serverBaseUrl, serverDatabase } from "./database";

export type TestAccount = { email: string; password: string; role: "admin" | "user" };

/**
 * Creates a person who can sign in, through the same code as `npm run admin:create`, in the database of the
 * server under test. The e-mail is unique to this call; `deleteAccount` removes it (sessions cascade).
 */
export async function createAccount(role: "admin" | "user" = "admin"): Promise<TestAccount> {
  const auth = createAuth({
    database: serverDatabase(),
    // Password hashes do not depend on the secret; nothing signed here reaches the server.
    secret: randomBytes(32).toString("hex"),
    baseURL: serverBaseUrl(),
  });
  const account = {
    email: `e2e-${role}-${randomBytes(5).toString("hex")}@example.com`,
    password: `motdepasse-${randomBytes(4).toString("hex")}`,
    role,
  };
  await upsertAccount(auth, account);
  return account;
}

export async function deleteAccount(account: TestAccount): Promise<void> {
  await serverDatabase().delete(users).where(eq(users.email, account.email));
  await clearSignInLimits(account);
}

/**
 * All e2e requests come from 127.0.0.1: clears the per-client sign-in counters so that files do not block
 * each other, and the per-address counters of `accounts` only: another file may be counting its own
 * account's attempts at this very moment.
 */
export async function clearSignInLimits(...accounts: TestAccount[]): Promise<void> {
  const keys = accounts.map((account) => signInRateLimitKeys(account.email, "").email);
  await serverDatabase()
    .delete(rateLimits)
    .where(
      or(
        like(rateLimits.key, "admin-login:client:%"),
        like(rateLimits.key, "admin-2fa:client:%"),
        ...(keys.length > 0 ? [inArray(rateLimits.key, keys)] : []),
      ),
    );
}

/** Signs in through the login form and waits for the dashboard. */
export async function signIn(page: Page, account: TestAccount): Promise<void> {
  if (!page.url().endsWith("/admin/login")) await page.goto("/admin/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Mot de passe").fill(account.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.waitForURL(/\/admin\/dashboard$/);
  await expect.poll(() => page.getByRole("heading", { name: "Tableau de bord" }).count()).toBe(1);
}

/** The session cookie of a signed-in page, for requests made outside the browser. */
export async function cookieHeader(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

/** Refusals (400, 401, 403, 429…) are answers the admin pages expect; the browser logs them as errors. */
export const EXPECTED_REFUSALS = [/the server responded with a status of 4\d\d/];

/**
 * Toasts fade in and out (axe would measure a half-transparent one): wait until none is left. A toast stays
 * while the pointer rests on it (sonner pauses it, as a reader would want), and a click on a button near the
 * corner leaves the pointer there: it is moved to the page's top left first.
 */
export async function waitForToastsToClose(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await expect.poll(() => page.locator("[data-sonner-toast]").count(), { timeout: 15_000 }).toBe(0);
}

/** Signs in without a browser and returns the session cookie, for requests made with fetch(). */
export async function signInCookie(account: TestAccount): Promise<string> {
  const response = await fetch(`${serverBaseUrl()}/admin/login`, {
    method: "POST",
    body: new URLSearchParams({ email: account.email, password: account.password }),
    redirect: "manual",
  });
  expect(response.status).toBe(302);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .filter((cookie) => cookie.includes("session_token"))
    .join("; ");
}

/** A new page signed in as `account` (its first toasts gone), then at `path`. */
export async function signedInPage(
  openPage: ReturnType<typeof useBrowser>["openPage"],
  account: TestAccount,
  path: string,
  options: Parameters<ReturnType<typeof useBrowser>["openPage"]>[1] = {},
): Promise<Page> {
  const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS, ...options });
  await signIn(page, account);
  await waitForToastsToClose(page);
  await page.goto(path);
  return page;
}
