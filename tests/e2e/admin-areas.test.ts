import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  blogArticles,
  blogCategories,
  blogNewsletterSubscribers,
  contactMessages,
} from "../../app/server/db/schema";
import { signedInPage } from "./support/admin";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  type TestAccount,
} from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

const { openPage, baseUrl } = useBrowser();
const marker = randomBytes(4).toString("hex");
let admin: TestAccount;

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
});
afterAll(async () => {
  const database = serverDatabase();
  await database.delete(blogArticles).where(like(blogArticles.slug, `%${marker}%`));
  await database.delete(blogCategories).where(like(blogCategories.slug, `%${marker}%`));
  await database
    .delete(blogNewsletterSubscribers)
    .where(like(blogNewsletterSubscribers.email, `%${marker}%`));
  await database.delete(contactMessages).where(like(contactMessages.email, `%${marker}%`));
  await deleteAccount(admin);
});

const signedIn = (path: string, options?: Parameters<typeof openPage>[1]) =>
  signedInPage(openPage, admin, path, options);

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

describe("dashboard", () => {
  it("shows each article's publication date beside its creation date", async () => {
    await serverDatabase()
      .insert(blogArticles)
      .values([
        {
          title: `Publié ${marker}`,
          slug: `publie-${marker}`,
          excerpt: "x",
          content: "<p>x</p>",
          author: "x",
          published: true,
          createdAt: new Date("2025-03-01T10:00:00Z"),
          publishedAt: new Date("2025-03-05T10:00:00Z"),
        },
        {
          title: `Brouillon ${marker}`,
          slug: `brouillon-${marker}`,
          excerpt: "x",
          content: "<p>x</p>",
          author: "x",
          createdAt: new Date("2025-03-02T10:00:00Z"),
        },
      ]);
    const page = await signedIn("/admin/dashboard");
    const published = page.locator("li", { hasText: `Publié ${marker}` });
    await expect
      .poll(() => published.textContent())
      .toContain("Créé le 1 mars 2025 · Publié le 5 mars 2025");
    const draft = page.locator("li", { hasText: `Brouillon ${marker}` });
    expect(await draft.textContent()).toContain("Créé le 2 mars 2025");
    expect(await draft.textContent()).not.toContain("Publié le");
  });
});

describe("categories", () => {
  it("creates, edits and deletes a category through the dialog", async () => {
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

    // The site's own confirmation dialog, not the browser's (issue 10).
    const browserDialogs: string[] = [];
    page.on("dialog", (dialog) => {
      browserDialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page
      .locator("li", { hasText: `Brive en été ${marker}` })
      .getByRole("button", { name: /Supprimer/ })
      .click();
    const confirm = page.getByRole("alertdialog", {
      name: "Êtes-vous sûr de vouloir supprimer cette catégorie ?",
    });
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
  it("lists subscribers newest first, dims the unsubscribed and copies the active addresses", async () => {
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
    const emails = await page.locator("tbody tr td:first-child").allTextContents();
    const mine = emails.filter((email) => email.includes(marker));
    expect(mine).toEqual([
      `recent-${marker}@example.com`,
      `parti-${marker}@example.com`,
      `ancien-${marker}@example.com`,
    ]);
    const gone = page.locator("tr", { hasText: `parti-${marker}@example.com` });
    expect(await gone.getByText("Désabonné").count()).toBe(1);
    expect(await gone.getAttribute("class")).toContain("text-stone-500");

    await page.getByRole("button", { name: "Copier les emails" }).click();
    await expect.poll(() => page.getByText("Emails copiés").count()).toBe(1);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const copiedMine = copied.split(", ").filter((email) => email.includes(marker));
    expect(copiedMine).toEqual([`recent-${marker}@example.com`, `ancien-${marker}@example.com`]);
    expect(copied).not.toContain(`parti-${marker}`);
    expect(copied).toMatch(/^[^,\s]+(, [^,\s]+)*$/);

    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const csv = await fetch(`${baseUrl}/admin/subscribers/export.csv`, { headers: { cookie } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await csv.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    // French date and time in Paris (issue 10), semicolons and a BOM for French Excel.
    expect(text).toMatch(
      new RegExp(`"parti-${marker}@example\\.com";"\\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d";`),
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text).toContain('"désabonné"');
  });
});

describe("messages", () => {
  it("shows the contact messages newest first, marks one handled and deletes one after confirmation", async () => {
    const base = {
      studio: "brive",
      shootingType: "naissance",
      nom: "Martin",
      telephone: "05 36 49 00 00",
      source: "instagram",
    };
    await serverDatabase()
      .insert(contactMessages)
      .values([
        {
          ...base,
          prenom: "Ancienne",
          email: `ancienne-${marker}@example.com`,
          message: `Premier message ${marker}`,
          createdAt: new Date(Date.now() - 60_000),
        },
        {
          ...base,
          prenom: "Récente",
          email: `recente-${marker}@example.com`,
          message: `Second message ${marker}`,
        },
      ]);
    const page = await signedIn("/admin/messages");
    expect(await axeViolations(page)).toEqual([]);
    const names = (await page.locator("article h2").allTextContents()).filter((name) =>
      ["Récente Martin", "Ancienne Martin"].includes(name),
    );
    expect(names).toEqual(["Récente Martin", "Ancienne Martin"]);
    const recent = page.getByRole("article", { name: "Message de Récente Martin" });
    const text = await recent.textContent();
    for (const part of [
      "Studio de Brive",
      "Naissance",
      "Instagram",
      `recente-${marker}@example.com`,
      "05 36 49 00 00",
      `Second message ${marker}`,
      "À traiter",
    ]) {
      expect(text).toContain(part);
    }

    await recent.getByRole("button", { name: "Marquer comme traité" }).click();
    await expect.poll(() => recent.getByText(/^Traité le /).count()).toBe(1);
    const [handled] = await serverDatabase()
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, `recente-${marker}@example.com`));
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
        .where(eq(contactMessages.email, `ancienne-${marker}@example.com`)),
    ).toEqual([]);
  });
});
