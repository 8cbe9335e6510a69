import { describe, expect, it } from "vitest";
import { openingLines } from "../../app/lib/opening-hours";
import { fetchPage, textOf } from "../support/html";
import { serverBaseUrl } from "../support/server-under-test";
import { formFields, optionValues } from "../support/studio-contact";
import { contactForms, studios, telHref } from "../support/studios";

// What the contact pages send (texts, tags, the form's fields as the server renders them); axe, small
// screens, the layout and choosing a studio in a browser are in tests/e2e/contact-pages.test.ts.

const baseUrl = serverBaseUrl();

const heroTitles = {
  ussel: "Contacter le studio d'Ussel",
  brive: "Contacter le studio de Brive",
  limoges: "Contacter le studio de Limoges",
};

describe("studio contact pages", () => {
  for (const studio of studios) {
    const form = contactForms[studio.id];
    describe(studio.contactPath, () => {
      it("sends hero, cards, form, title and description in the raw HTML", async () => {
        const response = await fetchPage(studio.contactPath);
        expect(response.status).toBe(200);
        const html = response.html.replaceAll("&#x27;", "'");
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
        const { document } = await fetchPage(studio.contactPath);
        expect(textOf(document.querySelector("h1"))).toBe(heroTitles[studio.id]);
        const main = document.querySelector("main");
        const text = main?.textContent ?? "";
        expect(text).toContain(
          `${studio.address.street}${studio.address.postalCode} ${studio.address.city}`,
        );
        expect(main?.querySelectorAll(`a[href="${telHref(studio.phone)}"]`)).toHaveLength(1);
        for (const line of openingLines(studio.hours))
          expect(text).toContain(`${line.days}${line.hours.join("")}`);
      });

      it("has exactly its fields, with the required marks and option lists of its studio", async () => {
        const { document } = await fetchPage(studio.contactPath);
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
        expect(formFields(document)).toEqual(expected);
        expect(optionValues(document, "shootingType")).toEqual([
          "",
          ...form.shootingTypes.map((o) => o.value),
        ]);
        expect(optionValues(document, "source")).toEqual(["", ...form.sources.map((o) => o.value)]);
        const control = (selector: string) =>
          document.querySelector(`form[method=post] ${selector}`);
        expect(control("textarea[name=message]")?.getAttribute("rows")).toBe("5");
        expect(control("input[name=email]")?.getAttribute("type")).toBe("email");
        if (form.hasTelephone) {
          expect(control("input[name=telephone]")?.getAttribute("type")).toBe("tel");
        }
      });
    });
  }

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
    const response = await fetchPage("/contact");
    expect(response.status).toBe(200);
    const { html } = response;
    expect(html).toMatch(/<h1[^>]*>Contactez-nous<\/h1>/);
    expect(html).toContain("<title>Contactez-nous | Studio Photo Exemple</title>");
    expect(html).toMatch(/<meta name="description" content="[^"]{40,}"/);
    expect(html).toContain(`<link rel="canonical" href="${baseUrl}/contact"`);
    expect(html).toContain('name="shootingType"');
  });

  it("shows the first studio's form by default and, with ?studio=, the chosen studio's own, every phone beside it", async () => {
    const chosen = (document: Document) =>
      textOf(document.querySelector('nav[aria-labelledby="choix-studio"] [aria-current=true]'));
    const byDefault = (await fetchPage("/contact")).document;
    expect(chosen(byDefault)).toBe("Studio d'Ussel");
    expect(optionValues(byDefault, "shootingType")).toContain("portrait-signature");
    expect(byDefault.querySelectorAll("form[method=post] input[name=telephone]")).toHaveLength(1);

    const limoges = (await fetchPage("/contact?studio=limoges")).document;
    expect(chosen(limoges)).toBe("Studio de Limoges");
    expect(optionValues(limoges, "shootingType")).toContain("mini-seance");
    expect(limoges.querySelectorAll("form[method=post] input[name=telephone]")).toHaveLength(0);
    expect(limoges.querySelector("form[method=post]")?.getAttribute("action")).toBe(
      "/contact?studio=limoges",
    );
    for (const studio of studios) {
      expect(limoges.querySelectorAll(`main a[href="${telHref(studio.phone)}"]`)).toHaveLength(1);
    }
  });
});
