import { randomBytes } from "node:crypto";
import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { galleries, galleryPhotos } from "../../app/server/db/schema";
import { EXPECTED_REFUSALS, signedInPage, waitForToastsToClose } from "./support/admin";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  type TestAccount,
} from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";
import { useOwnServerWithMail } from "../support/own-server";

/*
 * The owner's pages of the client galleries (issue 14): create (French errors, kept values), the list's
 * states, the settings (a new code voids the old one), the selection, sending the link (read back from
 * this file's own SMTP capture) and the deletion behind a confirmation. Axe on every page.
 */

const { url, mailsTo } = useOwnServerWithMail();
const { openPage } = useBrowser({ baseUrl: url });
const marker = randomBytes(4).toString("hex");
const title = `Séance au lac ${marker}`;
const clientEmail = `cliente-${marker}@example.com`;
let admin: TestAccount;

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
});

afterAll(async () => {
  await serverDatabase()
    .delete(galleries)
    .where(like(galleries.title, `%${marker}%`));
  await deleteAccount(admin);
});

const signedIn = (path: string) => signedInPage(openPage, admin, path);

async function galleryRow() {
  const [row] = await serverDatabase().select().from(galleries).where(eq(galleries.title, title));
  if (!row) throw new Error("no gallery");
  return row;
}

/** The invitation e-mails queued for a gallery (sent or not). */
async function invitationJobs(galleryId: string): Promise<number> {
  const { rows } = await serverDatabase().execute<{ count: string }>(
    sql`select count(*) from pgboss.job where name = 'mail'
          and data->>'kind' = 'gallery-invitation' and data->>'galleryId' = ${galleryId}`,
  );
  return Number(rows[0]?.count);
}

describe("/admin/galeries", () => {
  it("shows an empty list, then creates a gallery after French errors that keep what was typed", async () => {
    const page = await signedInPage(openPage, admin, "/admin/galeries", {
      allowConsole: EXPECTED_REFUSALS,
    });
    await page.getByRole("heading", { name: "Galeries clients", level: 1 }).waitFor();
    await page.getByText("Aucune galerie pour l'instant").waitFor();
    // The admin navigation leads here.
    await page
      .getByRole("navigation", { name: "Administration" })
      .getByRole("link", { name: "Galeries clients" })
      .waitFor();
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "Nouvelle galerie" }).click();
    await page.getByRole("heading", { name: "Nouvelle galerie", level: 1 }).waitFor();
    // A default expiry 60 days ahead, deletion 30 days after it, downloads on.
    expect(await page.getByLabel("Ouverte jusqu'au").inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await page.getByLabel(/Suppression après l'expiration/).inputValue()).toBe("30");
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Titre de la galerie").fill(title);
    await page.getByLabel("Nom du client").fill("Léa Dupont");
    await page.getByLabel("E-mail du client").fill("pas-une-adresse");
    await page.getByLabel("Ouverte jusqu'au").fill("2020-01-01");
    await page.getByLabel(/Suppression après l'expiration/).fill("400");
    await page.getByRole("button", { name: "Créer la galerie" }).click();
    await page.getByText("La galerie n'est pas enregistrée : 3 champs sont à corriger.").waitFor();
    await page.getByText("E-mail invalide").first().waitFor();
    await page.getByText("La date d'expiration ne peut pas être passée").first().waitFor();
    await page.getByText("Indiquez un nombre de jours entre 0 et 365").first().waitFor();
    expect(await page.getByLabel("Titre de la galerie").inputValue()).toBe(title);
    expect(await page.getByLabel("Nom du client").inputValue()).toBe("Léa Dupont");
    expect(await page.getByLabel("E-mail du client").inputValue()).toBe("pas-une-adresse");
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);
    expect(
      await serverDatabase().select().from(galleries).where(eq(galleries.title, title)),
    ).toEqual([]);

    await page.getByLabel("E-mail du client").fill(clientEmail);
    const inTwoMonths = new Date(Date.now() + 60 * 24 * 3600_000).toISOString().slice(0, 10);
    await page.getByLabel("Ouverte jusqu'au").fill(inTwoMonths);
    await page.getByLabel(/Suppression après l'expiration/).fill("15");
    await page.getByLabel("Studio", { exact: true }).selectOption({ label: "Studio d'Ussel" });
    await page.getByRole("button", { name: "Créer la galerie" }).click();
    // The photos page (UPLOAD's) is the next step.
    await page.waitForURL(/\/admin\/galeries\/[0-9a-f-]{36}$/);
    const row = await galleryRow();
    expect(row).toMatchObject({ clientName: "Léa Dupont", clientEmail, downloadsAllowed: true });
    expect(row.accessCode).toMatch(/^[A-Z2-9]{8}$/);
    expect(Math.round((row.purgeAt.getTime() - row.expiresAt.getTime()) / 86_400_000)).toBe(15);

    const list = await signedIn("/admin/galeries");
    const line = list.getByRole("row", { name: new RegExp(title) });
    await line.getByText("Brouillon").waitFor();
    expect(await line.textContent()).toContain("Studio d'Ussel");
    expect(await line.textContent()).toContain("0 / 0");
    await waitForToastsToClose(list);
    expect(await axeViolations(list)).toEqual([]);
  });

  it("settings: saves a change, and « Générer un autre code » after a confirmation voids the old one", async () => {
    const before = await galleryRow();
    const page = await signedIn(`/admin/galeries/${before.id}/reglages`);
    await page.getByRole("heading", { name: title, level: 1 }).waitFor();
    const shownCode = `${before.accessCode.slice(0, 4)}-${before.accessCode.slice(4)}`;
    expect(await page.getByTestId("code-acces").textContent()).toBe(shownCode);
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Nom du client").fill("Léa Martin");
    await page.getByRole("button", { name: "Enregistrer les réglages" }).click();
    await expect.poll(() => page.getByText("Réglages enregistrés").count()).toBeGreaterThan(0);
    expect((await galleryRow()).clientName).toBe("Léa Martin");

    await page.getByRole("button", { name: /Générer un autre code/ }).click();
    const dialog = page.getByRole("alertdialog", { name: /Générer un autre code \?/ });
    await dialog.getByRole("button", { name: /Générer un autre code/ }).click();
    await expect.poll(() => page.getByText(/^Nouveau code : /).count()).toBeGreaterThan(0);
    const after = await galleryRow();
    expect(after.accessCode).not.toBe(before.accessCode);
    expect(after.accessVersion).toBe(before.accessVersion + 1);
    await expect
      .poll(() => page.getByTestId("code-acces").textContent())
      .toBe(`${after.accessCode.slice(0, 4)}-${after.accessCode.slice(4)}`);
  });

  it("selection: the favourites with their comments, the names to copy, the CSV, and « Rouvrir la sélection »", async () => {
    const gallery = await galleryRow();
    await serverDatabase()
      .insert(galleryPhotos)
      .values(
        ["IMG_0012.jpg", "IMG_0033.jpg", "IMG_0040.jpg"].map((name, index) => ({
          galleryId: gallery.id,
          position: index,
          originalName: name,
          sourceExtension: "jpg",
          status: "ready" as const,
          favourite: index < 2,
          favouriteComment: index === 1 ? "En noir et blanc, s'il vous plaît" : null,
          favouritedAt: index < 2 ? new Date() : null,
        })),
      );
    await serverDatabase()
      .update(galleries)
      .set({ selectionValidatedAt: new Date() })
      .where(eq(galleries.id, gallery.id));

    const list = await signedIn("/admin/galeries");
    await list
      .getByRole("row", { name: new RegExp(title) })
      .getByText("Sélection reçue")
      .waitFor();

    const page = await signedIn(`/admin/galeries/${gallery.id}/selection`);
    await page.getByRole("heading", { name: "2 photos choisies" }).waitFor();
    expect(await page.getByLabel(/Noms des fichiers choisis/).inputValue()).toBe(
      "IMG_0012.jpg, IMG_0033.jpg",
    );
    await page.getByText("« En noir et blanc, s'il vous plaît »").waitFor();
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    const cookie = (await page.context().cookies())
      .map((entry) => `${entry.name}=${entry.value}`)
      .join("; ");
    const csv = await fetch(`${url()}/admin/galeries/${gallery.id}/selection.csv`, {
      headers: { cookie },
    });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = await csv.text();
    expect(text).toContain('"IMG_0033.jpg";"En noir et blanc, s\'il vous plaît"');
    expect(text).not.toContain("IMG_0040.jpg");

    await page.getByRole("button", { name: /Rouvrir la sélection/ }).click();
    await page
      .getByRole("alertdialog", { name: /Rouvrir la sélection \?/ })
      .getByRole("button", { name: /Rouvrir la sélection/ })
      .click();
    await expect.poll(() => page.getByText("Sélection rouverte").count()).toBeGreaterThan(0);
    expect((await galleryRow()).selectionValidatedAt).toBeNull();
  });

  it("sends the link: the client's mail has the link and the code, and the list says « Lien envoyé »", async () => {
    const gallery = await galleryRow();
    const page = await signedIn(`/admin/galeries/${gallery.id}/envoyer`);
    const link = `${url()}/galerie-client/${gallery.id}`;
    const code = `${gallery.accessCode.slice(0, 4)}-${gallery.accessCode.slice(4)}`;
    expect(await page.getByLabel("Lien de la galerie").inputValue()).toContain(
      `/galerie-client/${gallery.id}`,
    );
    expect(await page.getByLabel("Code d'accès").inputValue()).toBe(code);
    await page.getByText(`Vos photos sont prêtes : ${title}`).waitFor();
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    const token = await page.locator('input[name="envoi"]').inputValue();
    await page.getByRole("button", { name: "Envoyer le lien au client" }).click();
    await expect.poll(() => page.getByText("E-mail en route").count()).toBeGreaterThan(0);
    await expect.poll(() => mailsTo(clientEmail).length, { timeout: 20_000 }).toBe(1);
    // The same form posted again (a double click without JavaScript, a resent POST) queues nothing more.
    const again = await page.request.post(`${url()}/admin/galeries/${gallery.id}/envoyer`, {
      form: { id: gallery.id, intent: "send", envoi: token },
      headers: { Origin: url() },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(302);
    expect(await invitationJobs(gallery.id)).toBe(1);
    const [mail] = mailsTo(clientEmail);
    expect(mail?.subject).toBe(`Vos photos sont prêtes : ${title}`);
    expect(mail?.text).toContain(`/galerie-client/${gallery.id}`);
    expect(mail?.text).toContain(code);
    expect(mail?.html).toContain(`/galerie-client/${gallery.id}`);
    expect(link).toContain(gallery.id);
    // Answers go to the studio chosen (Ussel).
    expect(mail?.header("reply-to")).toContain("ussel@example.com");

    await expect
      .poll(async () => (await galleryRow()).invitationSentAt !== null, { timeout: 10_000 })
      .toBe(true);
    const list = await signedIn("/admin/galeries");
    await list
      .getByRole("row", { name: new RegExp(title) })
      .getByText("Lien envoyé")
      .waitFor();

    // A deliberate second send, from the page shown after the first, leaves.
    await page.reload();
    await page.getByRole("button", { name: "Envoyer de nouveau le lien au client" }).click();
    await expect.poll(() => mailsTo(clientEmail).length, { timeout: 20_000 }).toBe(2);
    expect(await invitationJobs(gallery.id)).toBe(2);
  });

  it("deletes the gallery after a confirmation: gone from the list and the database", async () => {
    const gallery = await galleryRow();
    const page = await signedIn(`/admin/galeries/${gallery.id}/reglages`);
    await page.getByRole("button", { name: /Supprimer la galerie/ }).click();
    const dialog = page.getByRole("alertdialog", {
      name: /Supprimer définitivement cette galerie/,
    });
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: /Supprimer la galerie/ }).click();
    await page.waitForURL(/\/admin\/galeries$/);
    await expect.poll(() => page.getByText("Galerie supprimée").count()).toBeGreaterThan(0);
    expect(await page.getByRole("row", { name: new RegExp(title) }).count()).toBe(0);
    expect(
      await serverDatabase().select().from(galleries).where(eq(galleries.id, gallery.id)),
    ).toEqual([]);
    expect(
      await serverDatabase()
        .select()
        .from(galleryPhotos)
        .where(eq(galleryPhotos.galleryId, gallery.id)),
    ).toEqual([]);
    // An unknown gallery's page leads back to the list.
    const gone = await signedIn(`/admin/galeries/${gallery.id}/reglages`);
    await gone.waitForURL(/\/admin\/galeries$/);
    await gone.getByText("Galerie introuvable").first().waitFor();
  });
});
