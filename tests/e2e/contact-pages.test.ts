import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, useBrowser } from "./support/browser";
import { contactForms, studios, telHref } from "../support/studios";
import { openingLines } from "../../app/lib/opening-hours";

const { openPage, baseUrl } = useBrowser();

const heroTitles = {
  ussel: "Contacter le studio d'Ussel",
  brive: "Contacter le studio de Brive",
  limoges: "Contacter le studio de Limoges",
};

/** Field name → [label text, required] as the form shows them. */
async function formFields(page: Page) {
  return page.locator("form[method=post] :is(input, select, textarea)").evaluateAll((elements) =>
    elements
      .filter((element) => !element.closest("[aria-hidden=true]"))
      .map((element) => {
        const control = element as HTMLInputElement;
        const label = document.querySelector(`label[for="${control.id}"]`)?.textContent ?? "";
        return [control.name, label.trim(), control.required] as const;
      }),
  );
}

async function optionValues(page: Page, name: string) {
  return page
    .locator(`form[method=post] select[name=${name}] option`)
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
}

describe("studio contact pages", () => {
  for (const studio of studios) {
    const form = contactForms[studio.id];
    describe(studio.contactPath, () => {
      it("sends hero, cards, form, title and description in the raw HTML", async () => {
        const response = await fetch(`${baseUrl}${studio.contactPath}`);
        expect(response.status).toBe(200);
        const html = (await response.text()).replaceAll("&#x27;", "'");
        expect(html).toMatch(new RegExp(`<h1[^>]*>${heroTitles[studio.id]}</h1>`));
        expect(html).toContain(`<title>${heroTitles[studio.id]} | Studio Photo Exemple</title>`);
        expect(html).toMatch(/<meta name="description" content="[^"]{40,}"/);
        expect(html).toContain(`<link rel="canonical" href="${baseUrl}${studio.contactPath}"`);
        expect(html).toContain(studio.address.street);
        expect(html).toContain(`href="${telHref(studio.phone)}"`);
        expect(html).toContain('name="shootingType"');
        expect(html).toContain("Envoyer le message");
      });

      it("shows the address, phone and the studio's hours", async () => {
        const page = await openPage(studio.contactPath);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
          heroTitles[studio.id],
        );
        const main = page.locator("main");
        const text = (await main.textContent()) ?? "";
        expect(text).toContain(
          `${studio.address.street}${studio.address.postalCode} ${studio.address.city}`,
        );
        expect(await main.locator(`a[href="${telHref(studio.phone)}"]`).count()).toBe(1);
        for (const line of openingLines(studio.hours))
          expect(text).toContain(`${line.days}${line.hours.join("")}`);
      });

      it("has exactly its fields, with the required marks and option lists of its studio", async () => {
        const page = await openPage(studio.contactPath);
        const expected: Array<readonly [string, string, boolean]> = [
          ["shootingType", "Type de séance *", true],
          ["prenom", "Prénom *", true],
          ["nom", "Nom *", true],
          ["email", "Email *", true],
          ...(form.hasTelephone ? [["telephone", "Téléphone *", true] as const] : []),
          ["message", "Votre message *", true],
          form.sourceRequired
            ? (["source", "Comment nous avez-vous connus ? *", true] as const)
            : (["source", "Comment nous avez-vous connus ?", false] as const),
        ];
        expect(await formFields(page)).toEqual(expected);
        expect(await optionValues(page, "shootingType")).toEqual([
          "",
          ...form.shootingTypes.map((o) => o.value),
        ]);
        expect(await optionValues(page, "source")).toEqual([
          "",
          ...form.sources.map((o) => o.value),
        ]);
        const message = page.locator("form[method=post] textarea[name=message]");
        expect(await message.getAttribute("rows")).toBe("5");
        expect(await page.locator("input[name=email]").getAttribute("type")).toBe("email");
        if (form.hasTelephone) {
          expect(await page.locator("input[name=telephone]").getAttribute("type")).toBe("tel");
        }
      });

      it("has no accessibility violation, at 390 px too", async () => {
        const page = await openPage(studio.contactPath, { viewport: { width: 390, height: 844 } });
        expect(await axeViolations(page)).toEqual([]);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
      });
    });
  }

  it("keeps the cards in place while the form is still arriving (a first paint before the whole HTML)", async () => {
    // A busy computer may draw the page before the form is parsed; when the form then fills its column, the
    // cards beside it must not move (they did: the list stretched its rows to the form's height, CLS > 0).
    const page = await openPage("/contact-studio-brive", {
      viewport: { width: 1280, height: 720 },
    });
    const cardTops = () =>
      page
        .locator("main li:has(h2)")
        .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().top));
    const withForm = await cardTops();
    expect(withForm).toHaveLength(3);
    await page.locator("form[method=post]").evaluate((form) => {
      (form.parentElement as HTMLElement).style.display = "none";
    });
    expect(await cardTops()).toEqual(withForm);
  });

  it("the exact source lists of SPEC §5 (common plus each studio's own)", () => {
    const common = ["bouche-oreille", "google", "facebook", "instagram", "evenement", "autre"];
    const extra = {
      ussel: ["parrainage", "partenariat", "concours", "tirage"],
      brive: ["salon"],
      limoges: [
        "carte-cadeau",
        "bni",
        "de-brive",
        "toyota",
        "vitrine",
        "connaissance",
        "famille",
        "amis",
        "recommandation",
        "sigma",
      ],
    };
    for (const studio of studios) {
      const values = contactForms[studio.id].sources.map((option) => option.value).sort();
      expect(values).toEqual([...common, ...extra[studio.id]].sort());
    }
  });
});

describe("/contact", () => {
  it("sends 'Contactez-nous', the form, title and description in the raw HTML", async () => {
    const response = await fetch(`${baseUrl}/contact`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>Contactez-nous<\/h1>/);
    expect(html).toContain("<title>Contactez-nous | Studio Photo Exemple</title>");
    expect(html).toMatch(/<meta name="description" content="[^"]{40,}"/);
    expect(html).toContain(`<link rel="canonical" href="${baseUrl}/contact"`);
    expect(html).toContain('name="shootingType"');
  });

  it("lets the visitor choose the studio, and shows that studio's own form", async () => {
    const page = await openPage("/contact");
    const choice = page.getByRole("navigation", { name: "À quel studio écrivez-vous ?" });
    expect(await choice.locator("[aria-current=true]").textContent()).toBe("Studio d'Ussel");
    expect(await optionValues(page, "shootingType")).toContain("portrait-signature");
    expect(await page.locator("input[name=telephone]").count()).toBe(1);

    await choice.getByRole("link", { name: "Studio de Limoges" }).click();
    await page.waitForURL(/\/contact\?studio=limoges$/);
    await expect.poll(() => page.locator("input[name=telephone]").count()).toBe(0);
    expect(await optionValues(page, "shootingType")).toContain("mini-seance");
    expect(await choice.locator("[aria-current=true]").textContent()).toBe("Studio de Limoges");
    expect(await page.locator("form[method=post]").getAttribute("action")).toBe(
      "/contact?studio=limoges",
    );

    for (const studio of studios) {
      expect(await page.locator(`main a[href="${telHref(studio.phone)}"]`).count()).toBe(1);
    }
  });

  it("has no accessibility violation, at 390 px too", async () => {
    const page = await openPage("/contact?studio=brive", { viewport: { width: 390, height: 844 } });
    expect(await axeViolations(page)).toEqual([]);
  });
});
