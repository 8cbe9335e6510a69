import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { blogCategories } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { askWithoutScript } from "../support/admin-content";
import { flashedToast } from "../support/admin-forms";
import { fetchPage, textOf } from "../support/html";
import { serverDatabase } from "../support/server-under-test";

/*
 * A delete is confirmed first, without JavaScript too: the row's button reloads the page with
 * the site's dialog open, whose own button deletes. The dialog with JavaScript (focus, Escape) is
 * tests/e2e/admin-areas.
 */

const admin = useAdmin();
const marker = randomBytes(4).toString("hex");
const question = "Êtes-vous sûr de vouloir supprimer cette catégorie ?";

afterAll(async () => {
  await serverDatabase()
    .delete(blogCategories)
    .where(like(blogCategories.slug, `%${marker}%`));
});

const categoryExists = async (slug: string) =>
  (await serverDatabase().select().from(blogCategories).where(eq(blogCategories.slug, slug)))
    .length === 1;

describe("destructive confirmations", () => {
  it("still ask first without JavaScript, and then delete", async () => {
    const name = `Sans script ${marker}`;
    const slug = `sans-script-${marker}`;
    await serverDatabase().insert(blogCategories).values({ name, slug });
    const cookie = admin.cookie();

    const list = await fetchPage("/admin/categories", { cookie });
    expect(list.document.querySelector('[role="alertdialog"]')).toBeNull();
    const row = [...list.document.querySelectorAll("li")].find((item) =>
      textOf(item).includes(name),
    );
    const deleteButton = [...(row?.querySelectorAll("button") ?? [])].find((button) =>
      textOf(button).startsWith("Supprimer"),
    );
    const { asked, dialog, confirm } = await askWithoutScript(deleteButton, cookie);
    expect(asked.status).toBe(200);
    const title = asked.document.getElementById(dialog?.getAttribute("aria-labelledby") ?? "");
    expect(textOf(title)).toBe(question);
    expect(textOf(dialog)).toContain(`« ${name} »`);
    expect(await categoryExists(slug)).toBe(true);

    const answer = await confirm();
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/admin/categories");
    expect(flashedToast(answer.headers)).toMatchObject({ title: "Catégorie supprimée" });
    expect(await categoryExists(slug)).toBe(false);
  });
});
