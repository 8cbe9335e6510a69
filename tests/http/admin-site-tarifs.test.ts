import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contentRevisions } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { insertSessionType, studioIds } from "../support/booking";
import {
  askWithoutScript,
  elementsWithText,
  fieldsetNamed,
  formOf,
  intentButton,
  labelled,
  naissancePrice,
  plainSpaces,
  regionNamed,
  shownValue,
  storedDocument,
  typeInto,
  useDocumentsRestored,
} from "../support/admin-content";
import { buttonLabelled, flashedToast, pressButton } from "../support/admin-forms";
import { fetchPage, textOf, type FetchedPage } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

/*
 * /admin/site and /admin/tarifs as the server answers them (decision 0070): what a save, a
 * refusal, a list's « Ajouter » and « Retirer » and a restore do, JavaScript off, and what the public pages
 * show at once. Prices and the brand show on pages other files check: a server and database of its own,
 * every document written back as it was. The forms in the browser (focus, previews, dialogs, axe) are
 * tests/e2e/admin-site-tarifs.
 */

useOwnServer();
const admin = useAdmin();
const original = useDocumentsRestored([
  "prices",
  "identity",
  "gendarmerie",
  "testimonials",
  "giftSessions",
  "legal",
] as const);

const adminPage = (path: string) => fetchPage(path, { cookie: admin.cookie() });

/** Types `changes` into the page's document form and presses its button `intent` (« Enregistrer »). */
function saveForm(
  path: string,
  form: Element,
  changes: Record<string, string> = {},
  intent = "save",
): Promise<FetchedPage> {
  return pressButton(path, intentButton(typeInto(form, changes), intent), {
    cookie: admin.cookie(),
  });
}

/** The `name` of the field labelled `label` in `root`, to type into it. */
const nameOf = (root: Element, label: string) => labelled(root, label).getAttribute("name") ?? "";

const publicHtml = async (path: string) => plainSpaces((await fetchPage(path)).html);

describe("/admin/tarifs", () => {
  it("saves a price typed the French way, then restores the previous version from the history", async () => {
    const [before] = await serverDatabase()
      .select({ createdAt: contentRevisions.createdAt })
      .from(contentRevisions)
      .where(eq(contentRevisions.subject, "document:prices"))
      .orderBy(desc(contentRevisions.createdAt), desc(contentRevisions.id))
      .limit(1);
    const previous = naissancePrice(await storedDocument("prices"));
    expect(previous).toEqual({ kind: "fixed", euros: 99 });
    const price = (page: FetchedPage) =>
      plainSpaces(shownValue(labelled(fieldsetNamed(page.document, "Séance Naissance"), "Prix")));

    const page = await adminPage("/admin/tarifs");
    expect(textOf(page.document.querySelector("h1"))).toBe("Tarifs");
    expect(price(page)).toBe("99 €");
    const form = formOf(page);
    const saved = await saveForm("/admin/tarifs", form, {
      [nameOf(fieldsetNamed(form, "Séance Naissance"), "Prix")]: "109 €",
    });
    expect(saved.status).toBe(302);
    expect(flashedToast(saved.headers)).toMatchObject({ title: "Tarifs enregistrés" });
    expect(naissancePrice(await storedDocument("prices"))).toEqual({ kind: "fixed", euros: 109 });
    const after = await adminPage("/admin/tarifs");
    expect(price(after)).toBe("109 €");
    // The public page follows at once.
    expect(await publicHtml("/tarifs")).toContain("109 €");

    // The version saved before this test's.
    const row = [...after.document.querySelectorAll("li")].find((item) =>
      item.querySelector(`time[datetime="${before?.createdAt.toISOString()}"]`),
    );
    // Seen before it is brought back (decision 0114): what it would change, and the page as it was.
    expect(textOf(after.document.body)).toMatch(
      /Modifié : Onglets › .*« Séance Naissance » › Prix/,
    );
    const seeLink = [...(row as Element).querySelectorAll("a")].find((link) =>
      textOf(link).startsWith("Voir cette version"),
    );
    const seen = await adminPage(seeLink?.getAttribute("href") ?? "");
    const panel = [...seen.document.querySelectorAll("section[id^='version-']")][0] as Element;
    expect(textOf(panel)).toMatch(/^La version du /);
    const change = [...panel.querySelectorAll("li")].find((item) =>
      textOf(item).includes("Séance Naissance"),
    );
    expect(plainSpaces(textOf(change as Element))).toMatch(
      /› Prix\s*Actuellement\s*109 €\s*Cette version\s*99 €/,
    );
    const previewLink = [...panel.querySelectorAll("a")].find(
      (link) => textOf(link) === "Voir la page Tarifs avec cette version (nouvel onglet)",
    );
    const previewPath = previewLink?.getAttribute("href") ?? "";
    expect(previewPath).toMatch(/^\/tarifs\?apercu=/);
    const asOwner = plainSpaces((await adminPage(previewPath)).html);
    expect(asOwner).toContain("99 €");
    expect(asOwner).not.toContain("109 €");
    // A visitor given the same address sees the page as it is.
    expect(await publicHtml(previewPath)).toContain("109 €");

    const { dialog, confirm } = await askWithoutScript(
      buttonLabelled(row as Element, "Restaurer cette version"),
      admin.cookie(),
    );
    expect(textOf(dialog)).toContain("Remettre en ligne cette version ?");
    const restored = await confirm();
    expect(flashedToast(restored.headers)).toMatchObject({ title: "Version restaurée" });
    expect(naissancePrice(await storedDocument("prices"))).toEqual(previous);
    expect(price(await adminPage("/admin/tarifs"))).toBe("99 €");
    const [latest] = await serverDatabase()
      .select({ summary: contentRevisions.summary })
      .from(contentRevisions)
      .where(eq(contentRevisions.subject, "document:prices"))
      .orderBy(desc(contentRevisions.createdAt), desc(contentRevisions.id))
      .limit(1);
    expect(latest?.summary).toMatch(/^Restauration de la version du /);
    // …and the public page shows the old figure again.
    const tarifs = await publicHtml("/tarifs");
    expect(tarifs).toContain("99 €");
    expect(tarifs).not.toContain("109 €");
  });

  it("refuses a price that is not one, at its card, with everything typed kept", async () => {
    const form = formOf(await adminPage("/admin/tarifs"));
    const card = fieldsetNamed(form, "Séance Naissance");
    const answer = await saveForm("/admin/tarifs", form, {
      [nameOf(card, "Prix")]: "douze euros",
      [nameOf(card, "Badge (facultatif)")]: "Nouveau badge",
    });
    expect(answer.status).toBe(400);
    const refused = fieldsetNamed(answer.document, "Séance Naissance");
    expect(
      elementsWithText(
        refused,
        "Prix invalide : écrivez par exemple 129 €, à partir de 990 € ou Sur devis",
      ),
    ).toHaveLength(1);
    expect(shownValue(labelled(refused, "Prix"))).toBe("douze euros");
    expect(labelled(refused, "Prix").getAttribute("aria-invalid")).toBe("true");
    expect(shownValue(labelled(refused, "Badge (facultatif)"))).toBe("Nouveau badge");
    // Only this card's price is wrong.
    expect(elementsWithText(answer.document, /^Prix invalide/)).toHaveLength(1);
    expect(naissancePrice(await storedDocument("prices"))).toEqual({ kind: "fixed", euros: 99 });
  });

  it("refuses a card naming a session type that does not exist, and two cards naming one (decision 0127)", async () => {
    const form = formOf(await adminPage("/admin/tarifs"));
    // A posted id that the list does not offer (a session type deleted meanwhile, or a forged post).
    const forgedId = "0b8e4c36-4f52-4a43-9a4b-0c7f0f3e1a11";
    const select = labelled(fieldsetNamed(form, "Séance Naissance"), "Séance réservable en ligne");
    const option = form.ownerDocument.createElement("option");
    option.setAttribute("value", forgedId);
    select.append(option);
    const forged = await saveForm("/admin/tarifs", form, {
      [select.getAttribute("name") ?? ""]: forgedId,
    });
    expect(forged.status).toBe(400);
    expect(
      elementsWithText(
        fieldsetNamed(forged.document, "Séance Naissance"),
        "Cette séance n'existe plus : choisissez-en une dans la liste",
      ),
    ).toHaveLength(1);

    // Offered at a studio whose online booking is off: no page shows it.
    const { limoges } = await studioIds(serverDatabase());
    const typeId = await insertSessionType(
      [limoges],
      { name: "Séance du tarif" },
      serverDatabase(),
    );
    const twice = await saveForm("/admin/tarifs", formOf(await adminPage("/admin/tarifs")), {
      [nameOf(fieldsetNamed(form, "Séance Famille"), "Séance réservable en ligne")]: typeId,
      [nameOf(fieldsetNamed(form, "Séance Grossesse"), "Séance réservable en ligne")]: typeId,
    });
    expect(twice.status).toBe(400);
    expect(
      elementsWithText(
        fieldsetNamed(twice.document, "Séance Grossesse"),
        "Cette séance est déjà celle de la carte « Séance Famille » : une séance, une carte",
      ),
    ).toHaveLength(1);
    const cards = (await storedDocument("prices")).tabs.flatMap((tab) => tab.cards);
    expect(cards.every((card) => card.sessionType === "")).toBe(true);
  });

  it("refuses an offer that ends before it starts (gendarmerie), keeping what was typed", async () => {
    const form = formOf(await adminPage("/admin/tarifs/gendarmerie"));
    const answer = await saveForm("/admin/tarifs/gendarmerie", form, {
      [nameOf(form, "Début de l'offre (facultatif)")]: "2026-09-01",
      [nameOf(form, "Fin de l'offre, incluse (facultative)")]: "2026-08-31",
    });
    expect(answer.status).toBe(400);
    expect(
      elementsWithText(answer.document, "La fin de l'offre doit suivre son début"),
    ).toHaveLength(1);
    expect(shownValue(labelled(formOf(answer), "Début de l'offre (facultatif)"))).toBe(
      "2026-09-01",
    );
    expect((await storedDocument("gendarmerie")).offer).toEqual(original("gendarmerie").offer);
  });

  it("adds a gift session with a photo of the library, seen on /seances-a-offrir, then removes it", async () => {
    const path = "/admin/tarifs/seances-a-offrir";
    const sessions = (page: FetchedPage) =>
      regionNamed(page, "Séances").querySelectorAll("fieldset").length;
    const count = original("giftSessions").sessions.length;
    const page = await adminPage(path);
    expect(sessions(page)).toBe(count);

    // « Ajouter une séance » answers the form with one more, nothing saved.
    const added = await pressButton(path, buttonLabelled(formOf(page), "Ajouter une séance"), {
      cookie: admin.cookie(),
    });
    expect(added.status).toBe(200);
    expect(sessions(added)).toBe(count + 1);
    const title = "Séance Fratrie du test";
    const empty = fieldsetNamed(added.document, `Séance ${count + 1}`);
    // No photo chosen yet: refused at that session, everything typed kept.
    const refused = await saveForm(path, formOf(added), {
      [nameOf(empty, "Titre")]: title,
      [nameOf(empty, "Prix")]: "149 €",
      [nameOf(empty, "Description")]: "Frères et sœurs réunis devant l'objectif.",
      [nameOf(empty, "Lien vers le bon cadeau")]: "https://cadeaux.example.com/fratrie",
    });
    expect(refused.status).toBe(400);
    const typed = fieldsetNamed(refused.document, title);
    expect(elementsWithText(typed, "Choisissez une photo de la liste")).toHaveLength(1);
    expect(elementsWithText(refused.document, "Choisissez une photo de la liste")).toHaveLength(1);
    expect(shownValue(labelled(typed, "Prix"))).toBe("149 €");
    expect((await storedDocument("giftSessions")).sessions).toHaveLength(count);

    const photo = typed.querySelector("select");
    const firstPhoto = photo?.querySelectorAll("option")[1]?.getAttribute("value") ?? "";
    const saved = await saveForm(path, formOf(refused), {
      [photo?.getAttribute("name") ?? ""]: firstPhoto,
    });
    expect(saved.status).toBe(302);
    expect(flashedToast(saved.headers)).toMatchObject({ title: "Séances à offrir enregistrées" });
    const stored = (await storedDocument("giftSessions")).sessions;
    expect(stored).toHaveLength(count + 1);
    expect(stored.at(-1)).toMatchObject({ title, price: { kind: "fixed", euros: 149 } });
    expect((await fetchPage("/seances-a-offrir")).html).toContain(title);

    // Removed (no confirmation: the history brings it back), then saved: gone from the page.
    const withIt = await adminPage(path);
    const removed = await pressButton(
      path,
      buttonLabelled(fieldsetNamed(formOf(withIt), title), "Retirer"),
      { cookie: admin.cookie() },
    );
    expect(sessions(removed)).toBe(count);
    const resaved = await saveForm(path, formOf(removed));
    expect(resaved.status).toBe(302);
    expect(await storedDocument("giftSessions")).toEqual(original("giftSessions"));
    expect((await fetchPage("/seances-a-offrir")).html).not.toContain(title);
  });

  it("links a gift session to the session type its voucher books, refusing one that does not exist", async () => {
    const path = "/admin/tarifs/seances-a-offrir";
    const { brive } = await studioIds(serverDatabase());
    const typeId = await insertSessionType(
      [brive],
      { name: "Séance Iris au studio" },
      serverDatabase(),
    );
    const form = formOf(await adminPage(path));
    const iris = fieldsetNamed(form, "Séance Iris");
    const choices = [
      ...labelled(iris, "Séance réservée avec le bon").querySelectorAll("option"),
    ].map((option) => textOf(option));
    expect(choices).toContain("Séance Iris au studio");
    // A posted id that the list does not offer (a session type deleted meanwhile, or a forged post).
    const forgedId = "0b0f3c0e-8f5e-4a57-9a51-0c1a2b3c4d5e";
    const select = labelled(iris, "Séance réservée avec le bon");
    const option = form.ownerDocument.createElement("option");
    option.setAttribute("value", forgedId);
    select.append(option);
    const forged = await saveForm(path, form, { [select.getAttribute("name") ?? ""]: forgedId });
    expect(forged.status).toBe(400);
    expect(
      elementsWithText(
        fieldsetNamed(forged.document, "Séance Iris"),
        "Cette séance n'existe plus : choisissez-en une dans la liste",
      ),
    ).toHaveLength(1);
    const linked = await saveForm(path, formOf(await adminPage(path)), {
      [nameOf(
        fieldsetNamed(formOf(await adminPage(path)), "Séance Iris"),
        "Séance réservée avec le bon",
      )]: typeId,
    });
    expect(linked.status).toBe(302);
    expect((await storedDocument("giftSessions")).sessions[0]).toMatchObject({
      title: "Séance Iris",
      sessionType: typeId,
    });

    // Sold as a voucher, its title is printed on the voucher: what the PDF cannot draw is refused.
    const linkedForm = formOf(await adminPage(path));
    const starred = await saveForm(path, linkedForm, {
      [nameOf(fieldsetNamed(linkedForm, "Séance Iris"), "Titre")]: "Séance Iris ✨",
    });
    expect(starred.status).toBe(400);
    expect(
      elementsWithText(
        fieldsetNamed(starred.document, "Séance Iris ✨"),
        "Ces caractères ne peuvent pas être imprimés sur le bon : ✨. Retirez-les ou remplacez-les.",
      ),
    ).toHaveLength(1);
    expect((await storedDocument("giftSessions")).sessions[0]?.title).toBe("Séance Iris");
  });

  it("adds and removes a testimonial, keeping what was typed", async () => {
    const path = "/admin/tarifs/temoignages";
    const grossesse = (page: FetchedPage) => regionNamed(page, "Page Grossesse");
    const quotes = (page: FetchedPage) =>
      [...grossesse(page).querySelectorAll("textarea")].map((quote) => shownValue(quote));
    const page = await adminPage(path);
    const count = grossesse(page).querySelectorAll("fieldset").length;
    const kept = "Une citation tapée avant l'ajout";
    typeInto(formOf(page), { [nameOf(grossesse(page), "Citation")]: kept });

    const added = await pressButton(
      path,
      buttonLabelled(grossesse(page), "Ajouter un témoignage"),
      { cookie: admin.cookie() },
    );
    expect(grossesse(added).querySelectorAll("fieldset")).toHaveLength(count + 1);
    expect(quotes(added)[0]).toBe(kept);
    expect(quotes(added).at(-1)).toBe("");

    formOf(added);
    const removed = await pressButton(
      path,
      buttonLabelled(grossesse(added), `Retirer « Témoignage ${count + 1} »`),
      { cookie: admin.cookie() },
    );
    expect(grossesse(removed).querySelectorAll("fieldset")).toHaveLength(count);
    expect(quotes(removed)[0]).toBe(kept);
    expect(await storedDocument("testimonials")).toEqual(original("testimonials"));
  });
});

describe("/admin/site", () => {
  it("renames the studio: the title, the footer, the structured data and the share tags follow at once", async () => {
    const page = await adminPage("/admin/site");
    const identity = formOf(page, 'form[aria-label="Identité du site"]');
    // Every gift voucher prints the brand at its head: what its fonts cannot draw is refused at its field.
    const starred = await saveForm("/admin/site", identity, {
      [nameOf(identity, "Nom du studio")]: "Atelier Lumière 📷",
    });
    expect(starred.status).toBe(400);
    const withStar = formOf(starred, 'form[aria-label="Identité du site"]');
    expect(textOf(withStar)).toContain(
      "Ces caractères ne peuvent pas être imprimés sur le bon : 📷. Retirez-les ou remplacez-les.",
    );
    expect(shownValue(labelled(withStar, "Nom du studio"))).toBe("Atelier Lumière 📷");
    expect((await storedDocument("identity")).brand).toBe(original("identity").brand);
    const saved = await saveForm("/admin/site", identity, {
      [nameOf(identity, "Nom du studio")]: "Atelier Lumière",
    });
    expect(saved.status).toBe(302);
    // The owner's words for it.
    expect(flashedToast(saved.headers)).toEqual({
      type: "success",
      title: "Identité du site modifiée",
    });
    expect((await storedDocument("identity")).brand).toBe("Atelier Lumière");
    for (const path of ["/", "/tarifs", "/studio-brive", "/mentions-legales"]) {
      const { html } = await fetchPage(path);
      expect(html, path).toMatch(/<title>[^<]*Atelier Lumière[^<]*<\/title>/);
      expect(html, path).toContain('<meta property="og:site_name" content="Atelier Lumière"');
      expect(html.replaceAll("<!-- -->", ""), path).toMatch(
        /© \d{4} Atelier Lumière\. Tous droits réservés/,
      );
      expect(html, path).not.toContain("Studio Photo Exemple<");
    }
    expect((await fetchPage("/")).html).toContain('"name":"Atelier Lumière"');
    // The sitemap lists the same pages, at the same addresses.
    expect((await fetchPage("/sitemap.xml")).html).toContain("/studio-brive</loc>");
  });

  it("checks the seller's numbers, keeps what was typed, and the legal notice names the mediator (decision 0176)", async () => {
    const legal = () =>
      adminPage("/admin/site").then((page) => formOf(page, 'form[aria-label="Mentions légales"]'));
    const form = await legal();
    expect(shownValue(labelled(form, "TVA"))).toBe("franchise");
    const refused = await saveForm("/admin/site", form, {
      siret: "443 061 841 00048",
      vatRegime: "assujetti",
      vatNumber: "",
      "mediator.name": "Médiateur de la consommation CM2C",
      "mediator.website": "https://www.cm2c.net",
    });
    expect(refused.status).toBe(400);
    const kept = formOf(refused, 'form[aria-label="Mentions légales"]');
    expect(textOf(kept)).toContain("Ce SIRET n'existe pas : un chiffre est sans doute mal recopié");
    expect(shownValue(labelled(kept, "SIRET"))).toBe("443 061 841 00048");
    expect(shownValue(labelled(kept, "Médiateur de la consommation"))).toBe(
      "Médiateur de la consommation CM2C",
    );
    expect((await storedDocument("legal")).siret).toBe(original("legal").siret);

    const noNumber = await saveForm("/admin/site", kept, { siret: "44306184100047" });
    expect(textOf(formOf(noNumber, 'form[aria-label="Mentions légales"]'))).toContain(
      "Indiquez le numéro de TVA intracommunautaire : il figure sur chaque facture",
    );
    // Every invoice prints the seller: what its fonts cannot draw is refused at its field, kept as typed.
    const starred = await saveForm(
      "/admin/site",
      formOf(noNumber, 'form[aria-label="Mentions légales"]'),
      { vatNumber: "fr64443061841", companyName: "Atelier Lumière ✨" },
    );
    expect(starred.status).toBe(400);
    const withStar = formOf(starred, 'form[aria-label="Mentions légales"]');
    expect(textOf(withStar)).toContain(
      "Ces caractères ne peuvent pas être imprimés sur la facture : ✨. Retirez-les ou remplacez-les.",
    );
    expect(shownValue(labelled(withStar, "Raison sociale"))).toBe("Atelier Lumière ✨");
    const saved = await saveForm("/admin/site", withStar, {
      companyName: original("legal").companyName,
    });
    expect(saved.status).toBe(302);
    expect(await storedDocument("legal")).toMatchObject({
      siret: "443 061 841 00047",
      vatRegime: "assujetti",
      vatNumber: "FR64 443061841",
      mediator: { name: "Médiateur de la consommation CM2C", website: "https://www.cm2c.net" },
    });
    const notice = plainSpaces(textOf((await fetchPage("/mentions-legales")).document.body));
    expect(notice).toContain("SIREN : 443 061 841");
    expect(notice).toContain("Numéro de TVA intracommunautaire : FR64 443061841");
    expect(notice).not.toContain("293 B");
    expect(notice).toMatch(
      /recourir gratuitement au médiateur de la consommation dont nous relevons.*Médiateur de la consommation CM2C, www\.cm2c\.net\./,
    );
  });
});
