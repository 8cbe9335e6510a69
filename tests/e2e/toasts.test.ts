import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useAdmin } from "../support/accounts";
import { patiently } from "../support/blog-fixtures";
import { useBrowser } from "./support/browser";

const { openPage } = useBrowser();
const admin = useAdmin();

/** sonner's live region, which exists once the toast area has loaded. */
const toastArea = 'section[aria-label^="Notifications"]';

describe("toasts", () => {
  it("load the toast area only when needed: not with the page, as soon as the visitor starts on a form", async () => {
    // A hydrated page with a form: the admin's sign-in (the public forms' pages are light, decision 0137).
    const page = await openPage("/admin/login");
    // Hydrated, and every request the page makes by itself done (500 ms without any).
    await page.waitForLoadState("networkidle");
    expect(await page.locator(toastArea).count()).toBe(0);

    await page.getByRole("textbox", { name: "Email" }).focus();
    await expect.poll(() => page.locator(toastArea).count(), patiently).toBe(1);
  });

  it("show a toast a loader raises on a full page load, with no interaction; it leaves by itself", async () => {
    // A stale edit link: the loader redirects to the dashboard with its message in the flash cookie.
    const page = await openPage(`/admin/articles/${randomUUID()}/modifier`, {
      session: admin.session(),
    });
    await page.waitForURL(/\/admin\/dashboard$/);
    const toast = page.locator("[data-sonner-toast]", {
      hasText: "Impossible de charger l'article",
    });
    await expect.poll(() => toast.isVisible(), patiently).toBe(true);
    expect(await page.locator(toastArea).count()).toBe(1);
    // Its close button speaks French to a screen reader.
    expect(await toast.getByRole("button", { name: "Fermer la notification" }).count()).toBe(1);
    // After a few seconds (4 s). The other browser tests close theirs with its button (closeToasts).
    await expect.poll(() => toast.count(), patiently).toBe(0);
  });
});
