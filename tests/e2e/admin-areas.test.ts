import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import {
  blogCategories,
  blogNewsletterSubscribers,
  contactMessages,
} from "../../app/server/db/schema";
import { signedInPage, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import { insertTwoContactMessages } from "../support/admin-content";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

/*
 * The admin's pages as the owner uses them: on a phone, through their dialogs, the clipboard and the
 * confirmations. What they list, as the server renders it, is tests/http/admin-areas.
 */

const { openPage } = useBrowser();
const admin = useAdmin();
const marker = randomBytes(4).toString("hex");

afterAll(async () => {
  const database = serverDatabase();
  await database.delete(blogCategories).where(like(blogCategories.slug, `%${marker}%`));
  await database
    .delete(blogNewsletterSubscribers)
    .where(like(blogNewsletterSubscribers.email, `%${marker}%`));
  await database.delete(contactMessages).where(like(contactMessages.email, `%${marker}%`));
});

const signedIn = (path: string, options?: Parameters<typeof openPage>[1]) =>
  signedInPage(openPage, admin.account(), path, options);

describe("admin layout", () => {
  it("fits a 390 px wide phone and has no accessibility violation", async () => {
    const page = await signedIn("/admin/dashboard", { viewport: { width: 390, height: 844 } });
    for (const path of [
      "/admin/dashboard",
      "/admin/articles/nouveau",
      "/admin/categories",
      "/admin/securite",
    ]) {
      await page.goto(path);
      await page.locator("h1").first().waitFor();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        path,
      ).toBeLessThanOrEqual(390);
      expect(await axeViolations(page), path).toEqual([]);
    }
  });
});

describe("categories", () => {
  it("creates, edits and deletes a category through dialogs; deleting asks first, and Escape cancels", async () => {
    const page = await signedIn("/admin/categories");
    await page.getByRole("link", { name: "Nouvelle catégorie" }).click();
    const dialog = page.getByRole("dialog", { name: "Nouvelle catégorie" });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await dialog.getByRole("button", { name: "Créer" }).click();
    await expect.poll(() => dialog.getByText("Le nom et le slug sont requis").count()).toBe(1);

    await dialog.getByLabel("Nom").fill(`Été Brive ${marker}`);
    expect(await dialog.getByLabel("Slug").inputValue()).toBe(`ete-brive-${marker}`);
    await dialog.getByLabel("Slug").fill("Mauvais slug");
    await dialog.getByRole("button", { name: "Créer" }).click();
    await expect
      .poll(() =>
        dialog
          .getByText("Le slug doit contenir uniquement des lettres minuscules, chiffres et tirets")
          .count(),
      )
      .toBe(1);
    await dialog.getByLabel("Slug").fill(`ete-brive-${marker}`);
    await dialog.getByRole("button", { name: "Créer" }).click();
    await expect.poll(() => page.getByText("Catégorie créée").count()).toBe(1);
    await expect.poll(() => dialog.count()).toBe(0);
    const [created] = await serverDatabase()
      .select()
      .from(blogCategories)
      .where(eq(blogCategories.slug, `ete-brive-${marker}`));
    expect(created).toMatchObject({ name: `Été Brive ${marker}`, description: null });

    const row = page.locator("li", { hasText: `Été Brive ${marker}` });
    await row.getByRole("link", { name: /Modifier/ }).click();
    const edit = page.getByRole("dialog", { name: "Modifier la catégorie" });
    await edit.waitFor();
    await edit.getByLabel("Nom").fill(`Brive en été ${marker}`);
    // The slug is derived from the name only when creating.
    expect(await edit.getByLabel("Slug").inputValue()).toBe(`ete-brive-${marker}`);
    await edit.getByLabel("Description (facultative)").fill("  Les séances estivales  ");
    await edit.getByRole("button", { name: "Enregistrer" }).click();
    await expect.poll(() => page.getByText("Catégorie mise à jour").count()).toBe(1);
    const [updated] = await serverDatabase()
      .select()
      .from(blogCategories)
      .where(eq(blogCategories.slug, `ete-brive-${marker}`));
    expect(updated).toMatchObject({
      name: `Brive en été ${marker}`,
      description: "Les séances estivales",
    });

    // Deleting asks first, in the site's own dialog, not the browser's: the cursor waits on
    // 'Annuler', Escape cancels and puts it back on the row's button.
    const browserDialogs: string[] = [];
    page.on("dialog", (dialog) => {
      browserDialogs.push(dialog.message());
      void dialog.dismiss();
    });
    // axe is to measure the dialog, not the last toast fading out behind it.
    await closeToasts(page);
    const trigger = page
      .locator("li", { hasText: `Brive en été ${marker}` })
      .getByRole("button", { name: /Supprimer/ });
    await trigger.click();
    const confirm = page.getByRole("alertdialog", {
      name: "Êtes-vous sûr de vouloir supprimer cette catégorie ?",
    });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(`« Brive en été ${marker} »`);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe("Annuler");
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect.poll(() => confirm.count()).toBe(0);
    await expect
      .poll(() => trigger.evaluate((button) => button === document.activeElement))
      .toBe(true);
    expect(
      await serverDatabase()
        .select()
        .from(blogCategories)
        .where(eq(blogCategories.slug, `ete-brive-${marker}`)),
    ).toHaveLength(1);

    await trigger.click();
    await confirm.getByRole("button", { name: "Supprimer" }).click();
    await expect.poll(() => page.getByText("Catégorie supprimée").count()).toBe(1);
    expect(browserDialogs).toEqual([]);
    expect(
      await serverDatabase()
        .select()
        .from(blogCategories)
        .where(eq(blogCategories.slug, `ete-brive-${marker}`)),
    ).toEqual([]);
  });
});

describe("subscribers", () => {
  it("copies the active subscribers' addresses, the unsubscribed left out", async () => {
    const day = 24 * 60 * 60 * 1000;
    await serverDatabase()
      .insert(blogNewsletterSubscribers)
      .values([
        {
          email: `ancien-${marker}@example.com`,
          consentSource: "blog",
          subscribedAt: new Date(Date.now() - 3 * day),
          status: "active",
        },
        {
          email: `parti-${marker}@example.com`,
          consentSource: "blog",
          subscribedAt: new Date(Date.now() - 2 * day),
          status: "unsubscribed",
        },
        {
          email: `recent-${marker}@example.com`,
          consentSource: "article",
          subscribedAt: new Date(Date.now() - day),
          status: "active",
        },
      ]);
    const page = await signedIn("/admin/subscribers", {
      permissions: ["clipboard-read", "clipboard-write"],
    });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Copier les emails" }).click();
    await expect.poll(() => page.getByText("Emails copiés").count()).toBe(1);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const copiedMine = copied.split(", ").filter((email) => email.includes(marker));
    expect(copiedMine).toEqual([`recent-${marker}@example.com`, `ancien-${marker}@example.com`]);
    expect(copied).not.toContain(`parti-${marker}`);
    expect(copied).toMatch(/^[^,\s]+(, [^,\s]+)*$/);
  });
});

describe("messages", () => {
  it("marks a contact message handled and deletes one after confirmation", async () => {
    const { olderEmail, newerEmail } = await insertTwoContactMessages(marker, {
      older: "Ancienne",
      newer: "Récente",
      family: "Martin",
    });
    // Its own messages (the list shows 50 a page, decision 0130; other files add theirs).
    const page = await signedIn(`/admin/messages?q=${marker}`);
    expect(await axeViolations(page)).toEqual([]);
    const recent = page.getByRole("article", { name: "Message de Récente Martin" });
    expect(await recent.getByText("À traiter").count()).toBe(1);

    await recent.getByRole("button", { name: "Marquer comme traité" }).click();
    await expect.poll(() => recent.getByText(/^Traité le /).count()).toBe(1);
    const [handled] = await serverDatabase()
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, newerEmail));
    expect(handled?.handledAt).toBeInstanceOf(Date);

    await page
      .getByRole("article", { name: "Message de Ancienne Martin" })
      .getByRole("button", { name: "Supprimer" })
      .click();
    await page
      .getByRole("alertdialog", { name: "Êtes-vous sûr de vouloir supprimer ce message ?" })
      .getByRole("button", { name: "Supprimer" })
      .click();
    await expect
      .poll(() => page.getByRole("article", { name: "Message de Ancienne Martin" }).count())
      .toBe(0);
    expect(
      await serverDatabase()
        .select()
        .from(contactMessages)
        .where(eq(contactMessages.email, olderEmail)),
    ).toEqual([]);
  });
});
