import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser } from "./support/browser";

const { openPage, baseUrl } = useBrowser();

const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true });
const panel = (page: Page, id: "particuliers" | "pro") => page.locator(`#panneau-${id}`);

/** The visible text of a panel, spaces normalised (prices use no-break spaces). */
async function panelText(page: Page, id: "particuliers" | "pro") {
  return (await panel(page, id).innerText()).replace(/[\u00a0\u202f]/g, " ").replace(/\s+/g, " ");
}

/** Once the page is interactive (the light page's script, decision 0090), only the selected tab stays in the Tab order. */
async function waitForInteractiveTabs(page: Page) {
  await expect.poll(() => page.locator('[role="tab"][tabindex="-1"]').count()).toBe(1);
}

describe("/tarifs", () => {
  it("opens on 'Particuliers' with its five prices, badge and 'En savoir plus' links", async () => {
    const page = await openPage("/tarifs");
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Nos Tarifs");
    expect(await tab(page, "Particuliers").getAttribute("aria-selected")).toBe("true");
    expect(await tab(page, "Pro & Mariages").getAttribute("aria-selected")).toBe("false");
    expect(await panel(page, "pro").isVisible()).toBe(false);
    const text = await panelText(page, "particuliers");
    for (const expected of [
      "Séance Famille 79 €",
      "Séance Grossesse 79 €",
      "Séance Naissance 99 €",
      "Meilleur Prix",
      "Coffret Grossesse + Naissance 129 €",
      "Portrait CV 59 €",
      "45 min à 1 h",
      "1 h 30 à 2 h 30",
      "Un tirage papier 20x30 cm offert",
      "10 jours après la séance",
      "15 jours après la séance",
    ]) {
      expect(text).toContain(expected);
    }
    const moreLinks = await panel(page, "particuliers")
      .getByRole("link", { name: /^En savoir plus/ })
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(moreLinks).toEqual([
      "/portrait-famille",
      "/prestations/grossesse",
      "/prestations/naissances",
      "/prestations/naissances",
      "/professionnels",
    ]);
    for (const name of ["Réserver une séance", "Nous contacter"]) {
      expect(
        await page.locator("main").getByRole("link", { name, exact: true }).getAttribute("href"),
      ).toBe("/contact");
    }
  });

  it("moves between tabs with the arrow keys, keeps the tab in the URL and after a reload", async () => {
    const page = await openPage("/tarifs");
    await waitForInteractiveTabs(page);
    await tab(page, "Particuliers").focus();
    await page.keyboard.press("ArrowRight");
    await page.waitForURL(/\/tarifs\?onglet=pro$/);
    await expect.poll(() => tab(page, "Pro & Mariages").getAttribute("aria-selected")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Pro & Mariages");
    expect(await panel(page, "particuliers").isVisible()).toBe(false);
    const text = await panelText(page, "pro");
    expect(text).toContain("Mariages à partir de 990 €");
    expect(text).toContain("Populaire");
    expect(text).toContain("Prestations Pro Sur devis");
    const moreLinks = await panel(page, "pro")
      .getByRole("link", { name: /^En savoir plus/ })
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(moreLinks).toEqual(["/prestations/mariages", "/professionnels"]);

    await page.reload();
    expect(await tab(page, "Pro & Mariages").getAttribute("aria-selected")).toBe("true");
    expect(await panel(page, "pro").isVisible()).toBe(true);

    await waitForInteractiveTabs(page);
    await tab(page, "Pro & Mariages").focus();
    await page.keyboard.press("ArrowLeft");
    await page.waitForURL(/\/tarifs\?onglet=particuliers$/);
    await expect.poll(() => panel(page, "particuliers").isVisible()).toBe(true);
    await page.keyboard.press("End");
    await page.waitForURL(/onglet=pro$/);
    await page.keyboard.press("Home");
    await page.waitForURL(/onglet=particuliers$/);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Particuliers");
  });

  it("the server renders the tab named in the URL", async () => {
    const html = await (await fetch(`${baseUrl}/tarifs?onglet=pro`)).text();
    expect(html).toMatch(/<a[^>]*aria-selected="true"[^>]*>Pro &amp; Mariages<\/a>/);
    expect(html).toMatch(/id="panneau-particuliers"[^>]*hidden/);
    expect(html).toContain('<link rel="canonical" href="' + baseUrl + '/tarifs"');
  });

  it("works without JavaScript: each tab is a link", async () => {
    const page = await openPage("/tarifs", { javaScriptEnabled: false });
    await tab(page, "Pro & Mariages").click();
    await page.waitForURL(/\/tarifs\?onglet=pro$/);
    expect(await panel(page, "pro").isVisible()).toBe(true);
    expect(await panel(page, "particuliers").isVisible()).toBe(false);
    await tab(page, "Particuliers").click();
    await page.waitForURL(/onglet=particuliers$/);
    expect(await panel(page, "particuliers").isVisible()).toBe(true);
  });
});
