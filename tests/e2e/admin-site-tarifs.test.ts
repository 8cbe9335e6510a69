import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Prices } from "../../app/content/schemas";
import { contentPreviews } from "../../app/server/db/schema";
import { signedInPage, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import {
  naissancePrice,
  plainSpaces,
  storedDocument,
  useDocumentsRestored,
} from "../support/admin-content";
import { axeViolations, textContrast, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";
import { useOwnServer } from "../support/own-server";

/*
 * /admin/site and /admin/tarifs in the browser (decision 0070): lists changed without a
 * reload, previews in a new tab, the cursor on the first field to correct, restores confirmed in the
 * site's dialog, axe on every section. Prices, the brand and the legal details show on pages other files
 * check: a server and database of its own, every document written back as it was. What the server answers
 * to the forms posted without JavaScript, and what the public pages then show, is
 * tests/http/admin-site-tarifs.
 */

const url = useOwnServer();
const { openPage } = useBrowser({ baseUrl: url });
const admin = useAdmin();
const original = useDocumentsRestored(["prices", "identity", "legal"] as const);

const signedIn = (path: string) => signedInPage(openPage, admin.account(), path);

/** The card of a price list, by its title (a fieldset whose legend is the title). */
const card = (page: Page, title: string) => page.getByRole("group", { name: title, exact: true });

describe("/admin/tarifs", () => {
  // axe on four pages of long forms takes a while on a shared machine: a budget above the default.
  it("adds a card (errors come at that card) and removes it, without saving; every section passes axe", async () => {
    const page = await signedIn("/admin/tarifs");
    expect(await page.getByRole("heading", { name: "Tarifs", level: 1 }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
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
    expect(await added.getByLabel("Prix").getAttribute("aria-invalid")).toBe("true");
    expect(await card(page, "Mariages").getByText("Ce champ est requis").count()).toBe(0);
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);
    await added.getByRole("button", { name: /^Retirer/ }).click();
    await expect.poll(() => pro.getByRole("group").count()).toBe(2);
    expect((await storedDocument("prices")).tabs[1]?.cards).toHaveLength(2);

    for (const path of [
      "/admin/tarifs/gendarmerie",
      "/admin/tarifs/seances-a-offrir",
      "/admin/tarifs/temoignages",
    ]) {
      await page.goto(path);
      expect(await page.locator("main form").count(), path).toBeGreaterThan(0);
      expect(await axeViolations(page), path).toEqual([]);
    }
  }, 120_000);

  it("shows the section in use as a dark tab with white text, readable and apart from the others", async () => {
    const page = await signedIn("/admin/tarifs/gendarmerie");
    const sections = page.getByRole("navigation", { name: "Sections des tarifs" });
    const active = sections.getByRole("link", { name: "Offre gendarmerie" });
    expect(await active.getAttribute("aria-current")).toBe("page");
    const inUse = await textContrast(active);
    // Was white on white: the active colours lost to the tab's own white background.
    expect(inUse.ratio).toBeGreaterThanOrEqual(4.5);
    expect(inUse.text).toBe("255,255,255");
    const other = await textContrast(sections.getByRole("link", { name: "Témoignages" }));
    expect(other.ratio).toBeGreaterThanOrEqual(4.5);
    expect(other.background).not.toBe(inUse.background);
    expect(await axeViolations(page)).toEqual([]);
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
    expect(naissancePrice(stored?.data as Prices)).toEqual({ kind: "from", euros: 119 });
    // Nothing saved: the live value and the public page are unchanged.
    expect(naissancePrice(await storedDocument("prices"))).toEqual({ kind: "fixed", euros: 99 });
    const live = await (await fetch(`${url()}/tarifs`)).text();
    expect(plainSpaces(live)).not.toContain("119 €");
    // The preview tab shows the unsaved price, with the banner that says so.
    await expect
      .poll(async () => plainSpaces(await preview.locator("main").innerText()))
      .toContain("à partir de 119 €");
    expect(await preview.getByText(/^Aperçu : modifications non enregistrées/).count()).toBe(1);
    await preview.close();
  });
});

describe("/admin/site", () => {
  it("the go-live checklist leads to the identity form, which refuses a bad e-mail at its field, then ticks the item once replaced", async () => {
    const page = await signedIn("/admin/dashboard");
    const checklist = page.getByRole("region", { name: "Avant la mise en ligne" });
    const progress = async () =>
      Number((await checklist.getByRole("progressbar").getAttribute("value")) ?? "-1");
    const before = await progress();
    const item = checklist.getByRole("listitem").filter({ hasText: "Coordonnées générales" });
    expect(await item.textContent()).toContain("e-mail, téléphone");
    await item.getByRole("link", { name: /Modifier/ }).click();
    await page.waitForURL(/\/admin\/site$/);
    expect(await axeViolations(page)).toEqual([]);

    // An empty brand and a bad e-mail: French messages at their fields, the cursor on the first.
    const identity = page.getByRole("form", { name: "Identité du site" });
    const brand = await identity.getByLabel("Nom du studio").inputValue();
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
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("name")))
      .toBe("brand");
    // The other form keeps its stored values.
    const legal = page.getByRole("form", { name: "Mentions légales" });
    expect(await legal.getByText("Ce champ est requis").count()).toBe(0);
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);
    expect(await storedDocument("identity")).toEqual(original("identity"));

    await identity.getByLabel("Nom du studio").fill(brand);
    await identity.getByLabel("E-mail général").fill("bonjour@atelier-lumiere.fr");
    await identity.getByLabel("Téléphone général (facultatif)").fill("05 55 12 34 56");
    await identity.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect.poll(() => page.getByText("Identité du site modifiée").count()).toBeGreaterThan(0);
    await page.goto("/admin/dashboard");
    await expect.poll(progress).toBe(before + 1);
    expect(await item.getByRole("link").count()).toBe(0);
    expect(await item.textContent()).toContain("fait");
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("saves the legal details and restores them from their own history", async () => {
    const page = await signedIn("/admin/site");
    const legal = page.getByRole("form", { name: "Mentions légales" });
    const previous = original("legal");
    await legal.getByLabel("N° de TVA (facultatif)").fill("FR99 123456789");
    await legal.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect
      .poll(() => page.getByText("Mentions légales enregistrées").count(), { timeout: 15_000 })
      .toBe(1);
    expect((await storedDocument("legal")).vatNumber).toBe("FR99 123456789");
    await closeToasts(page);
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
