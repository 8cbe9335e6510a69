import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { blogCategories, sessions, users } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { serverDatabase } from "../support/server-under-test";
import { signedInPage } from "./support/admin";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * A form sent with JavaScript after the session ended (decision 0133): the page says so in French and keeps
 * what was typed, ready to be sent again. The same without JavaScript, and the fields kept, are
 * tests/http/admin-session-expired.
 */

const { openPage } = useBrowser();
const admin = useAdmin();
const marker = randomBytes(4).toString("hex");

afterAll(async () => {
  await serverDatabase()
    .delete(blogCategories)
    .where(like(blogCategories.slug, `%${marker}%`));
});

describe("an admin form sent after the session ended", () => {
  it("says « Votre session a expiré » with the way to sign in again, and keeps what was typed", async () => {
    const page = await signedInPage(openPage, admin.account(), "/admin/categories");
    await page.getByRole("link", { name: "Nouvelle catégorie" }).click();
    const dialog = page.getByRole("dialog", { name: "Nouvelle catégorie" });
    await dialog.getByLabel("Nom").fill(`Hiver ${marker}`);

    // The owner's session ends while the dialog is open.
    const [user] = await serverDatabase()
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, admin.account().email));
    await serverDatabase()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(sessions.userId, user?.id ?? ""));

    await dialog.getByRole("button", { name: "Créer" }).click();
    await page.getByRole("heading", { name: "Votre session a expiré", level: 1 }).waitFor();
    expect(await page.getByRole("link", { name: "Se reconnecter" }).getAttribute("href")).toBe(
      "/admin/login",
    );
    expect(await page.locator('main form input[name="name"]').inputValue()).toBe(`Hiver ${marker}`);
    expect(await page.getByRole("button", { name: "Envoyer à nouveau" }).isVisible()).toBe(true);
    expect(await page.getByText("Unexpected Application Error").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });
});
