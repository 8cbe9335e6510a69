import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";
import { messageToTulle, storedMessagesToTulle, useAddedStudio } from "../support/studio-contact";

/**
 * Decision 0070: a studio added in the admin gets pages a visitor can use. What the server sends for it
 * (its pages, menus, JSON-LD, sitemap, redirects, retirement) is in tests/http/studios-as-data.test.ts;
 * here, what needs a browser: axe on its pages, and its own form checked and sent with JavaScript.
 */

const { url } = useAddedStudio();
const { openPage } = useBrowser({ baseUrl: url });

describe("a studio added in the admin", () => {
  it("has accessible pages, and a form that checks its own settings before storing a message for it", async () => {
    const studioPage = await openPage("/studio-tulle");
    expect(await axeViolations(studioPage)).toEqual([]);

    // The refusal below is the page answered 400, as to a plain post (decision 0137): the console notes it.
    const page = await openPage("/contact-studio-tulle", { allowConsole: [/status of 400/] });
    expect(await axeViolations(page)).toEqual([]);
    // The source is required for this studio: refused at its field, what was typed kept.
    const form = page.locator("form[method=post]");
    for (const [name, value] of Object.entries(messageToTulle.fields)) {
      const field = form.locator(`[name=${name}]`);
      if (name === "shootingType") await field.selectOption(value);
      else await field.fill(value);
    }
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    await page.getByText("Veuillez indiquer comment vous nous avez connus").first().waitFor();
    expect(await form.locator("input[name=prenom]").inputValue()).toBe("Jeanne");

    await form.locator("select[name=source]").selectOption(messageToTulle.source);
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    await page
      .locator("form[method=post] [role=status]", { hasText: "Message envoyé !" })
      .waitFor();
    expect(await storedMessagesToTulle()).toMatchObject([messageToTulle.stored]);
  });
});
