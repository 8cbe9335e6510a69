import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  sessionCookieHeader,
  type TestAccount,
} from "../support/accounts";
import { patiently } from "../support/blog-fixtures";
import { useBrowser } from "./support/browser";

const { openPage, baseUrl } = useBrowser();

/** sonner's live region, which exists once the toast area has loaded. */
const toastArea = 'section[aria-label^="Notifications"]';

let admin: TestAccount;

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
});
afterAll(async () => {
  await deleteAccount(admin);
});

describe("toasts", () => {
  it("load the toast area only when needed: not with the page, as soon as the visitor starts on a form", async () => {
    const page = await openPage("/blog");
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    expect(await page.locator(toastArea).count()).toBe(0);

    await page
      .getByRole("region", { name: "Restez inspiré·e" })
      .getByRole("textbox", { name: "Votre adresse email" })
      .focus();
    await expect.poll(() => page.locator(toastArea).count(), patiently).toBe(1);
  });

  it("show a toast a loader raises on a full page load, with no interaction", async () => {
    const page = await openPage("/");
    const session = await sessionCookieHeader(admin);
    await page.context().addCookies(
      session.split("; ").map((pair) => {
        const [name = "", ...value] = pair.split("=");
        return { name, value: value.join("="), url: baseUrl };
      }),
    );
    // A stale edit link: the loader redirects to the dashboard with its message in the flash cookie.
    await page.goto(`/admin/articles/${randomUUID()}/modifier`);
    await page.waitForURL(/\/admin\/dashboard$/);
    const toast = page.locator("[data-sonner-toast]", {
      hasText: "Impossible de charger l'article",
    });
    await expect.poll(() => toast.isVisible(), patiently).toBe(true);
    expect(await page.locator(toastArea).count()).toBe(1);
  });
});
