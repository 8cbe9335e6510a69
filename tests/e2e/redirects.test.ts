import { describe, expect, it } from "vitest";
import { redirects } from "../support/studios";
import { useBrowser } from "./support/browser";

const { openPage, baseUrl } = useBrowser();

describe("old addresses", () => {
  it.each(redirects)("$from answers 301 to $to, keeping the query string", async ({ from, to }) => {
    const response = await fetch(`${baseUrl}${from}?utm_source=flyer`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(`${to}?utm_source=flyer`);
  });

  it("every target is a page that exists", async () => {
    for (const target of new Set(redirects.map((entry) => entry.to))) {
      const response = await fetch(`${baseUrl}${target}`, { redirect: "manual" });
      expect(response.status, target).toBe(200);
    }
  });

  it("a client-side navigation to an old address lands on the new one and replaces the history entry", async () => {
    // A hydrated page (the light ones, decision 0090, have no router).
    const page = await openPage("/blog");
    // Navigate the way a <Link> does, through the hydrated router.
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    const historyLength = await page.evaluate(() => history.length);
    await page.evaluate(() => {
      const router = (
        window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => void } }
      ).__reactRouterDataRouter;
      router.navigate("/faq?sujet=tarifs");
    });
    await page.waitForURL(/\/contact\?sujet=tarifs$/);
    expect(await page.evaluate(() => history.length)).toBe(historyLength + 1);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/blog");
  });
});
