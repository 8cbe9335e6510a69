import { desc, eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Documents, Prices } from "../../app/content/schemas";
import { contentPreviews, contentRevisions, siteDocuments } from "../../app/server/db/schema";
import { signedInPage, waitForToastsToClose } from "./support/admin";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  type TestAccount,
} from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";
import { useOwnServer } from "../support/own-server";

/*
 * /admin/site and /admin/tarifs (issue 11, items 1, 5 and 8). Prices, the brand and the legal details show
 * on pages other files check: this file runs a server and database of its own, and still puts every
 * document it touched back as it found it.
 */

const url = useOwnServer();
const { openPage } = useBrowser({ baseUrl: url });
let admin: TestAccount;
const original: Partial<Record<keyof Documents, unknown>> = {};
const touched = [
  "prices",
  "identity",
  "legal",
  "gendarmerie",
  "testimonials",
  "giftSessions",
] as const;

async function storedDocument<K extends keyof Documents>(key: K): Promise<Documents[K]> {
  const [row] = await serverDatabase()
    .select({ data: siteDocuments.data })
    .from(siteDocuments)
    .where(eq(siteDocuments.key, key));
  return row?.data as Documents[K];
}

function naissance(prices: Prices) {
  return prices.tabs[0]?.cards.find((card) => card.title === "Séance Naissance")?.price;
}

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
  for (const key of touched) original[key] = await storedDocument(key);
});

afterAll(async () => {
  for (const key of touched) {
    await serverDatabase()
      .update(siteDocuments)
      .set({ data: original[key] })
      .where(eq(siteDocuments.key, key));
  }
  await deleteAccount(admin);
});

const signedIn = (path: string, options?: Parameters<typeof openPage>[1]) =>
  signedInPage(openPage, admin, path, options);

/** The card of a price list, by its title (a fieldset whose legend is the title). */
const card = (page: Page, title: string) => page.getByRole("group", { name: title, exact: true });
/** Spaces of any kind as one plain space (the site writes prices with narrow no-break spaces). */
const plain = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ").trim();

describe("/admin/tarifs", () => {
  it("saves a price typed the French way, then restores the previous version from the history", async () => {
    const [before] = await serverDatabase()
      .select({ id: contentRevisions.id, createdAt: contentRevisions.createdAt })
      .from(contentRevisions)
      .where(eq(contentRevisions.subject, "document:prices"))
      .orderBy(desc(contentRevisions.createdAt), desc(contentRevisions.id))
      .limit(1);
    const previous = naissance(await storedDocument("prices"));
    expect(previous).toEqual({ kind: "fixed", euros: 99 });

    const page = await signedIn("/admin/tarifs");
    expect(await page.getByRole("heading", { name: "Tarifs", level: 1 }).count()).toBe(1);
    expect(plain(await card(page, "Séance Naissance").getByLabel("Prix").inputValue())).toBe(
      "99 €",
    );
    expect(await axeViolations(page)).toEqual([]);

    await card(page, "Séance Naissance").getByLabel("Prix").fill("109 €");
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect
      .poll(() => page.getByText("Tarifs enregistrés").count(), { timeout: 15_000 })
      .toBe(1);
    expect(naissance(await storedDocument("prices"))).toEqual({ kind: "fixed", euros: 109 });
    await expect
      .poll(async () => plain(await card(page, "Séance Naissance").getByLabel("Prix").inputValue()))
      .toBe("109 €");
    // The public page follows at once, in the HTML the server sends.
    expect(plain(await (await fetch(`${url()}/tarifs`)).text())).toContain("109 €");

    await waitForToastsToClose(page);
    const row = page
      .getByRole("listitem")
      .filter({ has: page.locator(`time[datetime="${before?.createdAt.toISOString()}"]`) });
    await row.getByRole("button", { name: /Restaurer cette version/ }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByRole("button", { name: "Restaurer cette version" }).click();
    await expect
      .poll(() => page.getByText("Version restaurée").count(), { timeout: 15_000 })
      .toBe(1);
    expect(naissance(await storedDocument("prices"))).toEqual(previous);
    await expect
      .poll(async () => plain(await card(page, "Séance Naissance").getByLabel("Prix").inputValue()))
      .toBe("99 €");
    const [latest] = await serverDatabase()
      .select({ summary: contentRevisions.summary })
      .from(contentRevisions)
      .where(eq(contentRevisions.subject, "document:prices"))
      .orderBy(desc(contentRevisions.createdAt), desc(contentRevisions.id))
      .limit(1);
    expect(latest?.summary).toMatch(/^Restauration de la version du /);
    // …and the public page shows the old figure again.
    const restored = plain(await (await fetch(`${url()}/tarifs`)).text());
    expect(restored).toContain("99 €");
    expect(restored).not.toContain("109 €");
  }, 120_000);

  it("refuses a price that is not one, at its card, with everything typed kept", async () => {
    const page = await signedIn("/admin/tarifs");
    const naissanceCard = card(page, "Séance Naissance");
    await naissanceCard.getByLabel("Prix").fill("douze euros");
    await naissanceCard.getByLabel("Badge (facultatif)").fill("Nouveau badge");
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect
      .poll(() =>
        naissanceCard
          .getByText("Prix invalide : écrivez par exemple 129 €, à partir de 990 € ou Sur devis")
          .count(),
      )
      .toBe(1);
    expect(await naissanceCard.getByLabel("Prix").inputValue()).toBe("douze euros");
    expect(await naissanceCard.getByLabel("Prix").getAttribute("aria-invalid")).toBe("true");
    expect(await naissanceCard.getByLabel("Badge (facultatif)").inputValue()).toBe("Nouveau badge");
    // Only this card's price is wrong.
    expect(await page.getByText(/^Prix invalide/).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(naissance(await storedDocument("prices"))).toEqual({ kind: "fixed", euros: 99 });
  });

  it("adds a card (errors come at that card) and removes it, without saving", async () => {
    const page = await signedIn("/admin/tarifs");
    const pro = page.getByRole("region", { name: "Onglet « Pro & Mariages »" });
    expect(await pro.getByRole("group").count()).toBe(2);
    await card(page, "Mariages").getByLabel("Badge (facultatif)").fill("Tapé avant l'ajout");
    await pro.getByRole("button", { name: "Ajouter une carte" }).click();
    await expect.poll(() => pro.getByRole("group").count()).toBe(3);
    expect(await card(page, "Mariages").getByLabel("Badge (facultatif)").inputValue()).toBe(
      "Tapé avant l'ajout",
    );
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    const added = card(page, "Carte 3");
    await expect.poll(() => added.getByText("Ce champ est requis").count()).toBe(2);
    await expect.poll(() => added.getByText(/^Prix invalide/).count()).toBe(1);
    expect(await card(page, "Mariages").getByText("Ce champ est requis").count()).toBe(0);
    await added.getByRole("button", { name: /^Retirer/ }).click();
    await expect.poll(() => pro.getByRole("group").count()).toBe(2);
    expect((await storedDocument("prices")).tabs[1]?.cards).toHaveLength(2);
  });

  it("previews an unsaved price in a new tab; the live prices stay as they are", async () => {
    const page = await signedIn("/admin/tarifs");
    await card(page, "Séance Naissance").getByLabel("Prix").fill("à partir de 119 €");
    const [preview] = await Promise.all([
      page.context().waitForEvent("page"),
      page.getByRole("button", { name: /^Prévisualiser/ }).click(),
    ]);
    await preview.waitForURL(/\/tarifs\?apercu=[0-9a-f-]{36}$/);
    const id = new URL(preview.url()).searchParams.get("apercu") ?? "";
    const [stored] = await serverDatabase()
      .select()
      .from(contentPreviews)
      .where(eq(contentPreviews.id, id));
    expect(stored?.subject).toBe("document:prices");
    expect(naissance(stored?.data as Prices)).toEqual({ kind: "from", euros: 119 });
    // Nothing saved: the live value and the public page are unchanged.
    expect(naissance(await storedDocument("prices"))).toEqual({ kind: "fixed", euros: 99 });
    const live = await (await fetch(`${url()}/tarifs`)).text();
    expect(plain(live)).not.toContain("119 €");
    // The preview tab shows the unsaved price, with the banner that says so.
    await expect
      .poll(async () => plain(await preview.locator("main").innerText()))
      .toContain("à partir de 119 €");
    expect(await preview.getByText(/^Aperçu : modifications non enregistrées/).count()).toBe(1);
    await preview.close();
  });

  it("refuses an offer that ends before it starts (gendarmerie), and every section passes axe", async () => {
    const page = await signedIn("/admin/tarifs/gendarmerie");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Début de l'offre (facultatif)").fill("2026-09-01");
    await page.getByLabel("Fin de l'offre, incluse (facultative)").fill("2026-08-31");
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect
      .poll(() => page.getByText("La fin de l'offre doit suivre son début").count())
      .toBe(1);
    expect(await page.getByLabel("Début de l'offre (facultatif)").inputValue()).toBe("2026-09-01");
    expect((await storedDocument("gendarmerie")).offer).toEqual(
      (original.gendarmerie as Documents["gendarmerie"]).offer,
    );

    for (const path of ["/admin/tarifs/seances-a-offrir", "/admin/tarifs/temoignages"]) {
      await page.goto(path);
      expect(await page.locator("main form").count(), path).toBeGreaterThan(0);
      expect(await axeViolations(page), path).toEqual([]);
    }
  });

  it("adds a gift session with a photo of the library, seen on /seances-a-offrir, then removes it", async () => {
    const page = await signedIn("/admin/tarifs/seances-a-offrir");
    const sessions = page.getByRole("region", { name: "Séances" });
    const count = await sessions.getByRole("group").count();
    expect(count).toBe((original.giftSessions as Documents["giftSessions"]).sessions.length);
    await sessions.getByRole("button", { name: "Ajouter une séance" }).click();
    await expect.poll(() => sessions.getByRole("group").count()).toBe(count + 1);
    const title = "Séance Fratrie du test";
    const added = card(page, `Séance ${count + 1}`);
    await added.getByLabel("Titre").fill(title);
    await added.getByLabel("Prix").fill("149 €");
    await added.getByLabel("Description").fill("Frères et sœurs réunis devant l'objectif.");
    await added.getByLabel("Lien vers le bon cadeau").fill("https://cadeaux.example.com/fratrie");
    // No photo chosen yet: refused at that session, everything typed kept.
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    const typed = card(page, title);
    await expect.poll(() => typed.getByText("Choisissez une photo de la liste").count()).toBe(1);
    expect(await typed.getByLabel("Prix").inputValue()).toBe("149 €");
    expect(await page.getByText("Choisissez une photo de la liste").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect((await storedDocument("giftSessions")).sessions).toHaveLength(count);

    await typed.getByLabel(/^Photo/).selectOption({ index: 1 });
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect
      .poll(() => page.getByText("Séances à offrir enregistrées").count(), { timeout: 15_000 })
      .toBe(1);
    const saved = (await storedDocument("giftSessions")).sessions;
    expect(saved).toHaveLength(count + 1);
    expect(saved.at(-1)).toMatchObject({ title, price: { kind: "fixed", euros: 149 } });
    expect(await (await fetch(`${url()}/seances-a-offrir`)).text()).toContain(title);

    // Removed (no confirmation: the history brings it back), then saved: gone from the page.
    await waitForToastsToClose(page);
    await card(page, title)
      .getByRole("button", { name: /^Retirer/ })
      .click();
    await expect.poll(() => sessions.getByRole("group").count()).toBe(count);
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect
      .poll(async () => (await storedDocument("giftSessions")).sessions.length, {
        timeout: 15_000,
      })
      .toBe(count);
    expect(await storedDocument("giftSessions")).toEqual(original.giftSessions);
    expect(await (await fetch(`${url()}/seances-a-offrir`)).text()).not.toContain(title);
  }, 120_000);

  it("adds and removes a testimonial without JavaScript, keeping what was typed", async () => {
    const page = await signedIn("/admin/tarifs/temoignages", { javaScriptEnabled: false });
    const grossesse = page.getByRole("region", { name: "Page Grossesse" });
    const count = await grossesse.getByRole("group").count();
    await grossesse.getByLabel("Citation").first().fill("Une citation tapée avant l'ajout");
    await grossesse.getByRole("button", { name: "Ajouter un témoignage" }).click();
    await page.waitForLoadState();
    await expect.poll(() => grossesse.getByRole("group").count()).toBe(count + 1);
    expect(await grossesse.getByLabel("Citation").first().inputValue()).toBe(
      "Une citation tapée avant l'ajout",
    );
    expect(await grossesse.getByLabel("Citation").last().inputValue()).toBe("");
    await grossesse.getByRole("button", { name: `Retirer « Témoignage ${count + 1} »` }).click();
    await page.waitForLoadState();
    await expect.poll(() => grossesse.getByRole("group").count()).toBe(count);
    expect(await grossesse.getByLabel("Citation").first().inputValue()).toBe(
      "Une citation tapée avant l'ajout",
    );
    expect(await storedDocument("testimonials")).toEqual(original.testimonials);
  });
});

describe("/admin/site", () => {
  it("refuses an empty brand and a bad e-mail with French messages, keeping what was typed", async () => {
    const page = await signedIn("/admin/site");
    expect(await axeViolations(page)).toEqual([]);
    const identity = page.getByRole("form", { name: "Identité du site" });
    await identity.getByLabel("Nom du studio").fill("");
    await identity.getByLabel("E-mail général").fill("pas-une-adresse");
    await identity.getByLabel("Phrase d'accroche").fill("Une accroche tapée");
    await identity.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect.poll(() => identity.getByText("Le nom du studio est requis").count()).toBe(1);
    expect(
      await identity.getByText("Adresse e-mail invalide : par exemple contact@studio.fr").count(),
    ).toBe(1);
    expect(await identity.getByLabel("E-mail général").inputValue()).toBe("pas-une-adresse");
    expect(await identity.getByLabel("Phrase d'accroche").inputValue()).toBe("Une accroche tapée");
    // The cursor goes to the first field to correct.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("brand");
    // The other form keeps its stored values.
    const legal = page.getByRole("form", { name: "Mentions légales" });
    expect(await legal.getByText("Ce champ est requis").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(await storedDocument("identity")).toEqual(original.identity);
  });

  it("renames the studio: the title, the footer, the structured data and the share tags follow at once", async () => {
    const page = await signedIn("/admin/site");
    const identity = page.getByRole("form", { name: "Identité du site" });
    await identity.getByLabel("Nom du studio").fill("Atelier Lumière");
    await identity.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect.poll(async () => (await storedDocument("identity")).brand).toBe("Atelier Lumière");
    for (const path of ["/", "/tarifs", "/studio-brive", "/mentions-legales"]) {
      const html = await (await fetch(`${url()}${path}`)).text();
      expect(html, path).toMatch(/<title>[^<]*Atelier Lumière[^<]*<\/title>/);
      expect(html, path).toContain('<meta property="og:site_name" content="Atelier Lumière"');
      expect(html.replaceAll("<!-- -->", ""), path).toMatch(
        /© \d{4} Atelier Lumière\. Tous droits réservés/,
      );
      expect(html, path).not.toContain("Studio Photo Exemple<");
    }
    const home = await (await fetch(`${url()}/`)).text();
    expect(home).toContain('"name":"Atelier Lumière"');
    // The sitemap lists the same pages, at the same addresses.
    expect(await (await fetch(`${url()}/sitemap.xml`)).text()).toContain("/studio-brive</loc>");
  });

  it("the dashboard's go-live checklist links to the form of each demo value and ticks it once replaced", async () => {
    const page = await signedIn("/admin/dashboard");
    const checklist = page.getByRole("region", { name: "Avant la mise en ligne" });
    const progress = async () =>
      Number((await checklist.getByRole("progressbar").getAttribute("value")) ?? "-1");
    const before = await progress();
    const item = checklist.getByRole("listitem").filter({ hasText: "Coordonnées générales" });
    expect(await item.textContent()).toContain("e-mail, téléphone");
    await item.getByRole("link", { name: /Modifier/ }).click();
    await page.waitForURL(/\/admin\/site$/);
    const identity = page.getByRole("form", { name: "Identité du site" });
    await identity.getByLabel("E-mail général").fill("bonjour@atelier-lumiere.fr");
    await identity.getByLabel("Téléphone général (facultatif)").fill("05 55 12 34 56");
    await identity.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect
      .poll(() => page.getByText("Identité du site enregistrée").count())
      .toBeGreaterThan(0);
    await page.goto("/admin/dashboard");
    await expect.poll(progress).toBe(before + 1);
    expect(await item.getByRole("link").count()).toBe(0);
    expect(await item.textContent()).toContain("fait");
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("saves the legal details and restores them from their own history", async () => {
    const page = await signedIn("/admin/site");
    const legal = page.getByRole("form", { name: "Mentions légales" });
    const before = original.legal as Documents["legal"] | undefined;
    const previous = before ?? (await storedDocument("legal"));
    await legal.getByLabel("N° de TVA (facultatif)").fill("FR99 123456789");
    await legal.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect
      .poll(() => page.getByText("Mentions légales enregistrées").count(), { timeout: 15_000 })
      .toBe(1);
    expect((await storedDocument("legal")).vatNumber).toBe("FR99 123456789");
    await waitForToastsToClose(page);
    const history = page.getByRole("region", { name: "Historique des mentions légales" });
    await history
      .getByRole("button", { name: /Restaurer cette version/ })
      .first()
      .click();
    await page
      .getByRole("alertdialog")
      .getByRole("button", { name: "Restaurer cette version" })
      .click();
    await expect
      .poll(() => page.getByText("Version restaurée").count(), { timeout: 15_000 })
      .toBe(1);
    expect((await storedDocument("legal")).vatNumber).toBe(previous.vatNumber);
    await expect
      .poll(() => legal.getByLabel("N° de TVA (facultatif)").inputValue())
      .toBe(previous.vatNumber);
  });
});
