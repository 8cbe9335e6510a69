import type { Page } from "playwright-core";
import { expect } from "vitest";
import { createSession, type TestAccount } from "../../support/accounts";
import type { useBrowser } from "./browser";

/** Signs in through the login form and waits for the dashboard (the tests of the form only). */
export async function signIn(page: Page, account: TestAccount): Promise<void> {
  if (!page.url().endsWith("/admin/login")) await page.goto("/admin/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Mot de passe").fill(account.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.waitForURL(/\/admin\/dashboard$/);
  await page.getByRole("heading", { name: "Tableau de bord" }).waitFor();
}

/** The cookies of a page, for requests made outside the browser. */
export async function cookieHeader(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

/** Refusals (400, 401, 403, 429…) are answers the admin pages expect; the browser logs them as errors. */
export const EXPECTED_REFUSALS = [/the server responded with a status of 4\d\d/];

/**
 * Toasts fade in and out (axe would measure a half-transparent one) and can sit over a button: closes every
 * toast with its own close button, as a person done reading it does, and waits until none is left (a
 * closed toast leaves in 200 ms; on its own it stays 4 s, and longer while the pointer rests on it). One
 * raised meanwhile (a flash toast shown on hydration) is closed too. That a toast leaves by itself is
 * checked once, in tests/e2e/toasts.test.ts.
 */
export async function closeToasts(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const open = '[data-sonner-toast][data-removed="false"] [data-close-button]';
          for (const button of document.querySelectorAll<HTMLButtonElement>(open)) button.click();
          return document.querySelectorAll("[data-sonner-toast]").length;
        }),
      { timeout: 15_000 },
    )
    .toBe(0);
}

/** A new page at `path`, signed in as `account` by a session cookie made for it (no login form). */
export async function signedInPage(
  openPage: ReturnType<typeof useBrowser>["openPage"],
  account: TestAccount,
  path: string,
  options: Parameters<ReturnType<typeof useBrowser>["openPage"]>[1] = {},
): Promise<Page> {
  return openPage(path, {
    allowConsole: EXPECTED_REFUSALS,
    ...options,
    session: await createSession(account),
  });
}
