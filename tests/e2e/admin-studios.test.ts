import { randomBytes } from "node:crypto";
import { eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages, contentRevisions, redirects, studios } from "../../app/server/db/schema";
import { signedInPage, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";
import { useOwnServer } from "../support/own-server";

/*
 * /admin/studios and /admin/redirections as the owner (decision 0070). Ussel's phone and
 * hours show on pages other files check: this file runs a server and database of its own. Every change is
 * still undone at the end (Ussel's row written back, the fourth studio and the redirects removed). The
 * list as the server renders it and the redirects' refusals without JavaScript are tests/http/admin-studios.
 */

const url = useOwnServer();
const { openPage } = useBrowser({ baseUrl: url });
const admin = useAdmin();
const marker = randomBytes(4).toString("hex");
let usselBefore: typeof studios.$inferSelect | undefined;

beforeAll(async () => {
  [usselBefore] = await serverDatabase().select().from(studios).where(eq(studios.slug, "ussel"));
});

afterAll(async () => {
  const database = serverDatabase();
  if (usselBefore) {
    await database
      .update(studios)
      .set({ slug: usselBefore.slug, data: usselBefore.data, retiredAt: usselBefore.retiredAt })
      .where(eq(studios.id, usselBefore.id));
  }
  const tulle = await database
    .select({ id: studios.id })
    .from(studios)
    .where(eq(studios.slug, "tulle"));
  if (tulle.length > 0) {
    await database.delete(studios).where(
      inArray(
        studios.id,
        tulle.map((row) => row.id),
      ),
    );
  }
  await database.delete(redirects).where(like(redirects.fromPath, `%${marker}%`));
  await database
    .delete(contentRevisions)
    .where(eq(contentRevisions.authorName, admin.account().email));
});

const signedIn = (path: string) => signedInPage(openPage, admin.account(), path);

/** When the fourth studio was retired, as stored (null while it is on the site). */
async function tulleRetiredAt(): Promise<Date | null | undefined> {
  const [row] = await serverDatabase()
    .select({ retiredAt: studios.retiredAt })
    .from(studios)
    .where(eq(studios.slug, "tulle"));
  return row?.retiredAt;
}

async function usselRow() {
  const [row] = await serverDatabase().select().from(studios).where(eq(studios.slug, "ussel"));
  if (!row) throw new Error("no Ussel studio");
  return row as typeof row & {
    data: { phone: string; hours: Record<string, unknown>; name: string };
  };
}

describe("/admin/studios", () => {
  it("changes Ussel's phone and Saturday hours, shows them as typed, and restores the previous version", async () => {
    const before = await usselRow();
    const page = await signedIn("/admin/studios");
    await page.getByRole("heading", { name: "Studios", level: 1 }).waitFor();
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Modifier « Studio d'Ussel »" }).click();
    await page.getByRole("heading", { name: "Studio d'Ussel", level: 1 }).waitFor();
    // The stored hours in the notation the owner writes.
    expect(await page.getByLabel("Mardi").inputValue()).toBe(
      "9h–12h (sans rendez-vous), 14h–18h (sur rendez-vous uniquement)",
    );
    expect(await page.getByLabel("Lundi").inputValue()).toBe("");
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Téléphone", { exact: true }).fill("05 55 12 34 56");
    await page.getByLabel("Samedi").fill("9h–13h");
    await page.getByRole("button", { name: "Enregistrer" }).click();
    await expect.poll(() => page.getByText("Studio enregistré").count()).toBeGreaterThan(0);

    const after = await usselRow();
    expect(after.data.phone).toBe("05 55 12 34 56");
    expect(after.data.hours.Saturday).toEqual([{ opens: "09:00", closes: "13:00" }]);
    expect(after.data.hours.Tuesday).toEqual(before.data.hours.Tuesday);
    expect(await page.getByLabel("Samedi").inputValue()).toBe("9h–13h");
    // At once on the public pages, in the HTML the server sends: the studio page, its contact page, the
    // footer and the structured data.
    for (const path of ["/studio-ussel", "/contact-studio-ussel", "/"]) {
      const html = await (await fetch(`${url()}${path}`)).text();
      expect(html, path).toContain("05 55 12 34 56");
      expect(html, path).toContain("+33555123456");
    }
    const studioHtml = await (await fetch(`${url()}/studio-ussel`)).text();
    expect(studioHtml).toMatch(
      /"dayOfWeek":\[[^\]]*"Saturday"[^\]]*\],"opens":"09:00","closes":"13:00"/,
    );

    // The history: the previous version is seen first (with the keyboard), what bringing it back would
    // change listed (decision 0114)…
    const history = page.getByRole("region", { name: "Historique du studio" });
    expect(await history.getByText("Modifié : Téléphone et Horaires › Samedi").isVisible()).toBe(
      true,
    );
    await history
      .getByRole("link", { name: /^Voir cette version/ })
      .first()
      .focus();
    await page.keyboard.press("Enter");
    const version = history.getByRole("region", { name: /^La version du / });
    await expect.poll(() => version.isVisible()).toBe(true);
    const changes = await version.getByRole("list").first().getByRole("listitem").allInnerTexts();
    expect(changes.map((change) => change.replace(/\s+/g, " "))).toEqual([
      `Téléphone Actuellement 05 55 12 34 56 Cette version ${before.data.phone}`,
      expect.stringMatching(/^Horaires › Samedi Actuellement 9h–13h Cette version /),
    ]);
    expect(
      await version
        .getByRole("link", { name: /^Voir la page du studio avec cette version/ })
        .getAttribute("href"),
    ).toMatch(/^\/studio-ussel\?apercu=/);
    expect(await axeViolations(page)).toEqual([]);
    // …then it comes back after a confirmation.
    await history
      .getByRole("button", { name: /Restaurer cette version/ })
      .first()
      .click();
    const dialog = page.getByRole("alertdialog", { name: "Remettre en ligne cette version ?" });
    await dialog.getByRole("button", { name: "Restaurer cette version" }).click();
    await expect.poll(() => page.getByText("Version restaurée").count()).toBeGreaterThan(0);
    const restored = await usselRow();
    expect(restored.data.phone).toBe(before.data.phone);
    expect(restored.data.hours).toEqual(before.data.hours);
    expect(await page.getByLabel("Téléphone", { exact: true }).inputValue()).toBe(
      before.data.phone,
    );
  });

  it("« Prévisualiser » shows the unsaved values in a new tab; hours ending before they start and an empty name are refused; nothing is saved", async () => {
    const before = await usselRow();
    const page = await signedIn(`/admin/studios/${before.id}`);
    await page.getByLabel("Téléphone", { exact: true }).fill("05 55 98 76 54");
    const [preview] = await Promise.all([
      page.context().waitForEvent("page"),
      page.getByRole("button", { name: /Prévisualiser/ }).click(),
    ]);
    await preview.waitForURL(/\/studio-ussel\?apercu=[0-9a-f-]{36}$/);
    // The page as it will be once saved: the unsaved phone, with the banner that says so.
    await expect.poll(() => preview.locator("main").getByText("05 55 98 76 54").count()).toBe(1);
    expect(await preview.getByText(/^Aperçu : modifications non enregistrées/).count()).toBe(1);
    await preview.close();
    // Anyone else gets the saved page at that address.
    const anonymous = await (await fetch(preview.url())).text();
    expect(anonymous).not.toContain("05 55 98 76 54");
    expect((await usselRow()).data).toEqual(before.data);
    // The form stays as typed in its own tab.
    expect(await page.getByLabel("Téléphone", { exact: true }).inputValue()).toBe("05 55 98 76 54");

    // Saving hours that end before they start and an empty name: refused, what was typed kept, the
    // cursor on the first field to correct.
    await page.getByLabel("Nom du studio").fill("");
    await page.getByLabel("Samedi").fill("18h–9h");
    await page.getByRole("button", { name: "Enregistrer" }).click();
    await expect
      .poll(() =>
        page.getByText("Samedi : l'heure de fermeture doit suivre l'heure d'ouverture").count(),
      )
      .toBeGreaterThan(0);
    await expect.poll(() => page.getByText("Indiquez le nom du studio").count()).toBeGreaterThan(0);
    expect(await page.getByLabel("Samedi").inputValue()).toBe("18h–9h");
    expect(await page.getByLabel("Téléphone", { exact: true }).inputValue()).toBe("05 55 98 76 54");
    await expect.poll(() => page.locator(":focus").getAttribute("name")).toBe("name");
    expect(await axeViolations(page)).toEqual([]);
    expect((await usselRow()).data).toEqual(before.data);
  });

  it("adds a fourth studio with its own contact form, then retires it and brings it back", async () => {
    const page = await signedIn("/admin/studios/nouveau");
    await page.getByRole("heading", { name: "Nouveau studio" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Nom du studio").fill("Studio de Tulle");
    await page.getByLabel("Ville").fill("Tulle");
    // The address is suggested from the city.
    expect(await page.getByLabel("Adresse des pages").inputValue()).toBe("tulle");
    await page.getByLabel("Courte description").fill("Notre nouveau studio au cœur de Tulle.");
    await page.getByLabel("Rue").fill("2 quai de la République");
    await page.getByLabel("Code postal").fill("19000");
    await page.getByLabel("Commune").fill("Tulle");
    await page.getByLabel("Téléphone", { exact: true }).fill("05 55 00 00 19");
    await page.getByLabel("E-mail").fill("tulle@example.com");
    await page.getByLabel("Latitude (facultative)").fill("45,2658");
    await page.getByLabel("Longitude (facultative)").fill("1,7722");
    await page.getByLabel("Mercredi").fill("9h30-18h");
    await page.getByLabel("Samedi").fill("9 h – 12 h 30 (sur rendez-vous)");
    // A closure row more, without losing what was typed.
    await page.getByRole("button", { name: "Ajouter une fermeture" }).click();
    await expect.poll(() => page.getByRole("group", { name: "Fermeture 2" }).count()).toBe(1);
    expect(await page.getByLabel("Nom du studio").inputValue()).toBe("Studio de Tulle");
    const first = page.getByRole("group", { name: "Fermeture 1" });
    await first.getByLabel("Du").fill("2026-12-24");
    await first.getByLabel("Au").fill("2027-01-02");
    await first.getByLabel("Motif").fill("Fêtes de fin d'année");
    await page.getByLabel("Types de séance").fill("Portrait corrézien\nMariage en Corrèze\n");
    await page.getByLabel("Téléphone dans le formulaire").selectOption("optional");
    await page.getByLabel("La source est obligatoire").check();
    await page.getByRole("button", { name: "Créer le studio" }).click();
    await expect.poll(() => page.getByText("Studio créé").count()).toBeGreaterThan(0);

    const [tulle] = await serverDatabase().select().from(studios).where(eq(studios.slug, "tulle"));
    expect(tulle?.retiredAt).toBeNull();
    expect(tulle?.data).toMatchObject({
      name: "Studio de Tulle",
      address: { street: "2 quai de la République", postalCode: "19000", city: "Tulle" },
      geo: { latitude: 45.2658, longitude: 1.7722 },
      hours: {
        Wednesday: [{ opens: "09:30", closes: "18:00" }],
        Saturday: [{ opens: "09:00", closes: "12:30", note: "sur rendez-vous" }],
      },
      closures: [{ from: "2026-12-24", to: "2027-01-02", label: "Fêtes de fin d'année" }],
      contactForm: {
        shootingTypes: [
          { value: "portrait-correzien", label: "Portrait corrézien" },
          { value: "mariage-en-correze", label: "Mariage en Corrèze" },
        ],
        telephone: "optional",
        sourceRequired: true,
      },
    });
    // The photo of the first studio until replaced.
    expect((tulle?.data as { photo: string }).photo).toBe(
      (usselBefore?.data as { photo: string }).photo,
    );

    // On the site at once: its pages, the menu, the sitemap and the structured data.
    for (const path of ["/studio-tulle", "/contact-studio-tulle"]) {
      expect((await fetch(`${url()}${path}`)).status, path).toBe(200);
    }
    const home = await (await fetch(`${url()}/`)).text();
    expect(home).toContain('href="/studio-tulle"');
    expect(home).toContain('"streetAddress":"2 quai de la République"');
    expect(await (await fetch(`${url()}/sitemap.xml`)).text()).toContain(
      "/contact-studio-tulle</loc>",
    );
    // A visitor sends a message through its own form, with its own shooting types.
    const visitor = await openPage("/contact-studio-tulle");
    await visitor.locator("select[name=shootingType]").selectOption("mariage-en-correze");
    await visitor.locator("input[name=prenom]").fill("Louise");
    await visitor.locator("input[name=nom]").fill(`Tulliste ${marker}`);
    await visitor.locator("input[name=email]").fill(`louise-${marker}@example.org`);
    await visitor.locator("textarea[name=message]").fill("Un mariage à Tulle en juin ?");
    await visitor.locator("select[name=source]").selectOption("google");
    await visitor.getByRole("button", { name: "Envoyer le message" }).click();
    await visitor
      .locator("form[method=post] [role=status]", { hasText: "Message envoyé !" })
      .waitFor();
    const [message] = await serverDatabase()
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, `louise-${marker}@example.org`));
    expect(message).toMatchObject({ studio: "tulle", shootingType: "mariage-en-correze" });

    await page.goto("/admin/studios");
    await page.getByRole("button", { name: "Retirer « Studio de Tulle »" }).click();
    const dialog = page.getByRole("alertdialog", { name: /Retirer ce studio du site/ });
    await dialog.getByRole("button", { name: "Retirer" }).click();
    await expect.poll(() => page.getByText("Studio retiré du site").count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("Retiré", { exact: true }).count()).toBe(1);
    expect(await tulleRetiredAt()).toBeInstanceOf(Date);
    expect((await fetch(`${url()}/studio-tulle`)).status).toBe(404);
    expect(await (await fetch(`${url()}/`)).text()).not.toContain('href="/studio-tulle"');

    // The « Studio retiré du site » toast sits over the lower half of this row's buttons at 1280 × 720.
    await closeToasts(page);
    await page.getByRole("button", { name: "Remettre en ligne « Studio de Tulle »" }).click();
    // The page first: the database is read once the list shows the studio back.
    await expect
      .poll(() => page.getByText("Retiré", { exact: true }).count(), {
        message: "the list no longer shows the studio as retired",
      })
      .toBe(0);
    expect(await tulleRetiredAt(), "the studio is back online in the database").toBeNull();
    // The « Studio remis en ligne » toast can sit over the button (and stays while hovered).
    await closeToasts(page);
    await page.getByRole("button", { name: "Retirer « Studio de Tulle »" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Retirer" }).click();
    await expect.poll(() => page.getByText("Retiré", { exact: true }).count()).toBe(1);
  });
});

describe("/admin/redirections", () => {
  it("adds, edits and removes a redirect; refuses a loop with the typed value kept", async () => {
    const page = await signedIn("/admin/redirections");
    await page.getByRole("heading", { name: "Redirections", level: 1 }).waitFor();
    await expect.poll(() => page.getByText("/contact-brive", { exact: true }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    const add = page.getByRole("region", { name: "Ajouter une redirection" });

    await add.getByLabel("Ancienne adresse").fill(`/promo-${marker}`);
    await add.getByLabel("Nouvelle adresse").fill("/tarifs");
    await add.getByRole("button", { name: "Ajouter" }).click();
    await expect.poll(() => page.getByText("Redirection ajoutée").count()).toBeGreaterThan(0);
    // Followed at once by the site: a permanent redirect that keeps the query string.
    const followed = await fetch(`${url()}/promo-${marker}?utm=flyer`, { redirect: "manual" });
    expect(followed.status).toBe(301);
    expect(followed.headers.get("location")).toBe("/tarifs?utm=flyer");
    const [row] = await serverDatabase()
      .select()
      .from(redirects)
      .where(eq(redirects.fromPath, `/promo-${marker}`));
    expect(row?.toPath).toBe("/tarifs");

    // A loop is refused: /old → /promo → /tarifs, then /promo → /old.
    await add.getByLabel("Ancienne adresse").fill(`/old-${marker}`);
    await add.getByLabel("Nouvelle adresse").fill(`/promo-${marker}`);
    await add.getByRole("button", { name: "Ajouter" }).click();
    // The first addition's toast may still be shown: the new redirect's own row says this one is saved.
    await expect
      .poll(() => page.getByRole("link", { name: `Modifier « /old-${marker} »` }).count())
      .toBe(1);
    await page.getByRole("link", { name: `Modifier « /promo-${marker} »` }).click();
    const edit = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("button", { name: "Enregistrer" }) });
    await edit.getByLabel("Nouvelle adresse").fill(`/old-${marker}`);
    await edit.getByRole("button", { name: "Enregistrer" }).click();
    await expect
      .poll(() =>
        page
          .getByText(
            `Cette redirection créerait une boucle : /promo-${marker} → /old-${marker} → /promo-${marker}`,
          )
          .count(),
      )
      .toBe(1);
    expect(await edit.getByLabel("Nouvelle adresse").inputValue()).toBe(`/old-${marker}`);
    expect(await axeViolations(page)).toEqual([]);

    // A valid edit.
    await edit.getByLabel("Nouvelle adresse").fill("/galerie");
    await edit.getByRole("button", { name: "Enregistrer" }).click();
    await expect.poll(() => page.getByText("Redirection modifiée").count()).toBeGreaterThan(0);
    const [edited] = await serverDatabase()
      .select()
      .from(redirects)
      .where(eq(redirects.fromPath, `/promo-${marker}`));
    expect(edited?.toPath).toBe("/galerie");

    // Removal after a confirmation.
    await page
      .getByRole("listitem")
      .filter({ hasText: `/old-${marker}` })
      .getByRole("button", { name: /Supprimer/ })
      .click();
    await page
      .getByRole("alertdialog")
      .getByRole("button", { name: /Supprimer/ })
      .click();
    await expect.poll(() => page.getByText("Redirection supprimée").count()).toBeGreaterThan(0);
    const left = await serverDatabase()
      .select()
      .from(redirects)
      .where(like(redirects.fromPath, `%${marker}%`));
    expect(left.map((entry) => entry.fromPath)).toEqual([`/promo-${marker}`]);
  });
});
