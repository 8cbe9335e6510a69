import { describe, expect, it } from "vitest";
import { useBrowser } from "./support/browser";

// What the server answers at the old addresses is in tests/http/redirects.test.ts.

const { openPage } = useBrowser();

describe("old addresses", () => {
  it("a client-side navigation to an old address lands on the new one and replaces the history entry", async () => {
    // A hydrated page (the light ones, decisions 0090 and 0137, the contact pages included, have no
    // router). Without its token this page answers 400, which the console notes.
    const page = await openPage("/newsletter/confirmation", { allowConsole: [/status of 400/] });
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
    await page.waitForURL(
      (url) => url.pathname === "/newsletter/confirmation" && url.search === "",
    );
  });
});
