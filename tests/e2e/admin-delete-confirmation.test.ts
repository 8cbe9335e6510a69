import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogCategories } from "../../app/server/db/schema";
import { signedInPage } from "./support/admin";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  type TestAccount,
} from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

const { openPage } = useBrowser();
const marker = randomBytes(4).toString("hex");
let admin: TestAccount;

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
});
afterAll(async () => {
  await serverDatabase()
    .delete(blogCategories)
    .where(like(blogCategories.slug, `%${marker}%`));
  await deleteAccount(admin);
});

async function createCategory(name: string) {
  const slug = `${name.toLowerCase().replaceAll(" ", "-")}-${marker}`;
  await serverDatabase()
    .insert(blogCategories)
    .values({ name: `${name} ${marker}`, slug });
  return { name: `${name} ${marker}`, slug };
}

const categoryExists = async (slug: string) =>
  (await serverDatabase().select().from(blogCategories).where(eq(blogCategories.slug, slug)))
    .length === 1;

const question = "Êtes-vous sûr de vouloir supprimer cette catégorie ?";

describe("destructive confirmations", () => {
  it("use the site's dialog: focus on 'Annuler', Escape cancels and gives focus back, no browser dialog", async () => {
    const category = await createCategory("Dialogue");
    const page = await signedInPage(openPage, admin, "/admin/categories");
    const browserDialogs: string[] = [];
    page.on("dialog", (dialog) => {
      browserDialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const trigger = page
      .locator("li", { hasText: category.name })
      .getByRole("button", { name: /Supprimer/ });
    await trigger.click();
    const confirm = page.getByRole("alertdialog", { name: question });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(`« ${category.name} »`);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe("Annuler");
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.press("Escape");
    await expect.poll(() => confirm.count()).toBe(0);
    await expect
      .poll(() => trigger.evaluate((button) => button === document.activeElement))
      .toBe(true);
    expect(await categoryExists(category.slug)).toBe(true);
    expect(browserDialogs).toEqual([]);
  });

  it("still ask first without JavaScript, and then delete", async () => {
    const category = await createCategory("Sans script");
    const page = await signedInPage(openPage, admin, "/admin/categories", {
      javaScriptEnabled: false,
    });
    await page
      .locator("li", { hasText: category.name })
      .getByRole("button", { name: /Supprimer/ })
      .click();
    await page.waitForURL(/\/admin\/categories\?supprimer=/);
    const confirm = page.getByRole("alertdialog", { name: question });
    expect(await confirm.count()).toBe(1);
    expect(await categoryExists(category.slug)).toBe(true);

    await confirm.getByRole("button", { name: "Supprimer" }).click();
    await page.waitForURL(/\/admin\/categories$/);
    expect(await categoryExists(category.slug)).toBe(false);
  });
});
