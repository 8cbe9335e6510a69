import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";

// What the server answers (the 404 page's status and texts, the security headers, compression, the health
// check) is in tests/http/errors.test.ts; here, what the browser does with it.

const { openPage } = useBrowser();
const notFoundLog = /404 Error: User attempted to access non-existent route/;
// The browser also reports the 404 status of the document itself.
const notFoundAllowed = [notFoundLog, /status of 404 \(Not Found\)/];

describe("not-found page", () => {
  it("logs the path to the console, has no accessibility violation and leads back home", async () => {
    const page = await openPage("/page-inexistante", { allowConsole: notFoundAllowed });
    const logged: string[] = [];
    page.on("console", (message) => logged.push(message.text()));
    await page.reload();
    await expect
      .poll(() =>
        logged.some((text) => notFoundLog.test(text) && text.includes("/page-inexistante")),
      )
      .toBe(true);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("404");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Retour à l'accueil" }).click();
    await page.waitForURL((url) => url.pathname === "/");
  });
});

describe("security headers", () => {
  it("the browser refuses a script injected without the nonce", async () => {
    const page = await openPage("/", { allowConsole: [/Content Security Policy/] });
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/.test(message.text())) violations.push(message.text());
    });
    const executed = await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__injected = true";
      document.body.append(script);
      // An inline script the policy allows runs during `append`: nothing later can change the answer.
      return "__injected" in window;
    });
    expect(executed).toBe(false);
    await expect.poll(() => violations.length).toBeGreaterThan(0);
  });
});
