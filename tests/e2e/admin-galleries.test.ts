import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { formatLongDateTimeFr } from "../../app/lib/dates";
import { galleries, galleryPhotos } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { useOwnServerWithMail } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";
import { signedInPage, closeToasts } from "./support/admin";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * The owner's pages of the client galleries (decision 0103) with JavaScript: create after French errors, the
 * confirmations asked in a dialog (a new code, reopening the selection, the deletion) and their toasts; axe
 * on every page. What the server answers (the form's defaults and messages, the list's states, the CSV,
 * the e-mail sent, the forms without JavaScript) is in tests/http/admin-galleries.test.ts. A server of the
 * file's own: its list starts empty; with e-mail on, the sending page is the one the owner sees.
 */

const { url } = useOwnServerWithMail();
const admin = useAdmin();
const { openPage } = useBrowser({ baseUrl: url });
const marker = randomBytes(4).toString("hex");
const title = `Séance au lac ${marker}`;

afterAll(async () => {
  await serverDatabase()
    .delete(galleries)
    .where(like(galleries.title, `%${marker}%`));
});

const signedIn = (path: string) => signedInPage(openPage, admin.account(), path);

async function galleryRow() {
  const [row] = await serverDatabase().select().from(galleries).where(eq(galleries.title, title));
  if (!row) throw new Error("no gallery");
  return row;
}

describe("/admin/galeries", () => {
  it("creates a gallery after French errors that keep what was typed; the list and the form pass axe", async () => {
    const page = await signedIn("/admin/galeries");
    await page.getByText("Aucune galerie pour l'instant").waitFor();
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "Nouvelle galerie" }).click();
    await page.getByRole("heading", { name: "Nouvelle galerie", level: 1 }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Titre de la galerie").fill(title);
    await page.getByLabel("Nom du client").fill("Léa Dupont");
    await page.getByLabel("E-mail du client").fill("pas-une-adresse");
    await page.getByLabel("Ouverte jusqu'au").fill("2020-01-01");
    await page.getByLabel(/Suppression après l'expiration/).fill("400");
    await page.getByRole("button", { name: "Créer la galerie" }).click();
    await page.getByText("La galerie n'est pas enregistrée : 3 champs sont à corriger.").waitFor();
    await page.getByText("E-mail invalide").first().waitFor();
    expect(await page.getByLabel("Titre de la galerie").inputValue()).toBe(title);
    expect(await page.getByLabel("Nom du client").inputValue()).toBe("Léa Dupont");
    expect(await page.getByLabel("E-mail du client").inputValue()).toBe("pas-une-adresse");
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("E-mail du client").fill(`cliente-${marker}@example.com`);
    const inTwoMonths = new Date(Date.now() + 60 * 24 * 3600_000).toISOString().slice(0, 10);
    await page.getByLabel("Ouverte jusqu'au").fill(inTwoMonths);
    await page.getByLabel(/Suppression après l'expiration/).fill("15");
    await page.getByLabel("Studio", { exact: true }).selectOption({ label: "Studio d'Ussel" });
    await page.getByRole("button", { name: "Créer la galerie" }).click();
    // The photos page (UPLOAD's) is the next step.
    await page.waitForURL(/\/admin\/galeries\/[0-9a-f-]{36}$/);
    expect(page.url()).toContain(`/admin/galeries/${(await galleryRow()).id}`);

    const list = await signedIn("/admin/galeries");
    await list
      .getByRole("row", { name: new RegExp(title) })
      .getByText("Brouillon")
      .waitFor();
    await closeToasts(list);
    expect(await axeViolations(list)).toEqual([]);
  });

  it("asks in a dialog before reopening the selection; the selection and sending pages pass axe", async () => {
    const gallery = await galleryRow();
    await serverDatabase()
      .insert(galleryPhotos)
      .values(
        ["IMG_0012.jpg", "IMG_0033.jpg"].map((name, index) => ({
          galleryId: gallery.id,
          position: index,
          originalName: name,
          sourceExtension: "jpg",
          status: "ready" as const,
          favourite: true,
          favouriteComment: index === 1 ? "En noir et blanc, s'il vous plaît" : null,
          favouritedAt: new Date(),
        })),
      );
    await serverDatabase()
      .update(galleries)
      .set({ selectionValidatedAt: new Date() })
      .where(eq(galleries.id, gallery.id));

    const page = await signedIn(`/admin/galeries/${gallery.id}/selection`);
    await page.getByRole("heading", { name: "2 photos choisies" }).waitFor();
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: /Rouvrir la sélection/ }).click();
    await page
      .getByRole("alertdialog", { name: /Rouvrir la sélection \?/ })
      .getByRole("button", { name: /Rouvrir la sélection/ })
      .click();
    await expect.poll(() => page.getByText("Sélection rouverte").count()).toBeGreaterThan(0);
    expect((await galleryRow()).selectionValidatedAt).toBeNull();

    const sending = await signedIn(`/admin/galeries/${gallery.id}/envoyer`);
    await sending.getByText(`Vos photos sont prêtes : ${title}`).waitFor();
    await closeToasts(sending);
    expect(await axeViolations(sending)).toEqual([]);
  });

  it("the sending page follows the e-mail from « en route » to « Lien envoyé » without a reload", async () => {
    const gallery = await galleryRow();
    const to = gallery.clientEmail;
    // As the page finds it just after « Envoyer le lien au client »: asked for, not delivered yet.
    await serverDatabase()
      .update(galleries)
      .set({ invitationRequestedAt: new Date(), invitationSentAt: null, invitationSentTo: null })
      .where(eq(galleries.id, gallery.id));
    const page = await signedIn(`/admin/galeries/${gallery.id}/envoyer`);
    await page.getByText(/: l'e-mail est en route\./).waitFor();
    // The mail queue delivers it (what its afterDelivery records).
    const sentAt = new Date(Date.now() + 1000);
    await serverDatabase()
      .update(galleries)
      .set({ invitationSentAt: sentAt, invitationSentTo: to })
      .where(eq(galleries.id, gallery.id));
    await page.getByText(`Lien envoyé le ${formatLongDateTimeFr(sentAt)} à ${to}.`).waitFor();
    await page.locator("header").getByText("Lien envoyé", { exact: true }).waitFor();
    expect(await page.getByText(/l'e-mail est en route/).count()).toBe(0);
  });

  it("asks in a dialog before a new code and before the deletion; the settings and the dialog pass axe", async () => {
    const before = await galleryRow();
    const page = await signedIn(`/admin/galeries/${before.id}/reglages`);
    await page.getByRole("heading", { name: title, level: 1 }).waitFor();
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: /Générer un autre code/ }).click();
    const dialog = page.getByRole("alertdialog", { name: /Générer un autre code \?/ });
    await dialog.getByRole("button", { name: /Générer un autre code/ }).click();
    await expect.poll(() => page.getByText(/^Nouveau code : /).count()).toBeGreaterThan(0);
    const shownBefore = `${before.accessCode.slice(0, 4)}-${before.accessCode.slice(4)}`;
    await expect.poll(() => page.getByTestId("code-acces").textContent()).not.toBe(shownBefore);
    const after = await galleryRow();
    expect(after.accessVersion).toBe(before.accessVersion + 1);
    expect(await page.getByTestId("code-acces").textContent()).toBe(
      `${after.accessCode.slice(0, 4)}-${after.accessCode.slice(4)}`,
    );

    await page.getByRole("button", { name: /Supprimer la galerie/ }).click();
    const confirm = page.getByRole("alertdialog", {
      name: /Supprimer définitivement cette galerie/,
    });
    await confirm.waitFor();
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole("button", { name: /Supprimer la galerie/ }).click();
    await page.waitForURL(/\/admin\/galeries$/);
    await expect.poll(() => page.getByText("Galerie supprimée").count()).toBeGreaterThan(0);
    expect(await page.getByRole("row", { name: new RegExp(title) }).count()).toBe(0);
    expect(
      await serverDatabase().select().from(galleries).where(eq(galleries.id, before.id)),
    ).toEqual([]);
  });
});
