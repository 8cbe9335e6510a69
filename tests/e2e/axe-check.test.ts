import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * The accessibility check of every browser file (`axeViolations`) asks axe for the violations only and
 * reduces them in the page (decision 0175): a violation it stopped reporting, or an element of one it
 * dropped, would let every axe test of the suite pass unseen. Faults are added to a page that has none
 * (the legal notice, checked by tests/e2e/legal-pages), and each must come back, every element named.
 */

const { openPage } = useBrowser();

describe("the accessibility check", () => {
  it("reports every violation with each of its elements, and sees a fault added after a first check of the same page", async () => {
    const page = await openPage("/mentions-legales");
    expect(await axeViolations(page)).toEqual([]);

    // Three images without a text alternative, a button without a name, pale grey text on white. Made with
    // the DOM (the page's CSP refuses style attributes written as HTML).
    await page.evaluate(() => {
      const main = document.querySelector("main");
      if (!main) throw new Error("no <main>");
      for (const name of ["un", "deux", "trois"]) {
        const image = document.createElement("img");
        image.src = "/apple-touch-icon.png";
        image.className = `sans-texte-${name}`;
        main.append(image);
      }
      main.append(document.createElement("button"));
      const pale = document.createElement("p");
      pale.textContent = "Un texte trop pâle pour être lu.";
      pale.style.color = "#eeeeee";
      pale.style.backgroundColor = "#ffffff";
      main.append(pale);
    });
    const found = await axeViolations(page);
    expect(found.map((violation) => violation.id).sort()).toEqual([
      "button-name",
      "color-contrast",
      "image-alt",
    ]);
    const images = found.find((violation) => violation.id === "image-alt");
    expect(images?.help).toBe("Images must have alternative text");
    expect(images?.targets).toEqual([
      '[".sans-texte-un"]',
      '[".sans-texte-deux"]',
      '[".sans-texte-trois"]',
    ]);

    // A fourth image, on the page already checked: the next check sees it.
    await page.evaluate(() => {
      const image = document.createElement("img");
      image.src = "/apple-touch-icon.png";
      image.className = "sans-texte-quatre";
      document.querySelector("main")?.append(image);
    });
    const again = await axeViolations(page);
    expect(again.find((violation) => violation.id === "image-alt")?.targets).toHaveLength(4);
  });
});
