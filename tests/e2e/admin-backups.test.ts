import { readFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { blogArticles } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";
import { closeToasts, signedInPage } from "./support/admin";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * The owner's path through /admin/sauvegardes with a browser (decision 0118), by keyboard:
 * back up now (the new backup appears without reloading), check it (its report appears), download it (the
 * link gives the archive), restore it after typing the word (refused before), and follow the restore to
 * its end; axe on each state. What the server answers without JavaScript (progress, signed links refused,
 * authorisation) is in tests/http/admin-backups.test.ts. Its own server: a restore replaces every table.
 */

const url = useOwnServer();
const admin = useAdmin();
const { openPage } = useBrowser({ baseUrl: url });
const marker = randomBytes(4).toString("hex");

async function addArticle(title: string) {
  await serverDatabase()
    .insert(blogArticles)
    .values({
      title,
      slug: `sauvegarde-${randomBytes(4).toString("hex")}`,
      excerpt: "",
      content: "<p>Un article</p>",
      author: "Camille",
    });
}

async function articleExists(title: string): Promise<boolean> {
  const rows = await serverDatabase()
    .select()
    .from(blogArticles)
    .where(eq(blogArticles.title, title));
  return rows.length > 0;
}

describe("/admin/sauvegardes", () => {
  // Its own waits allow a backup 60 s, its check 60 s and the restore 90 s: the test's bound is their sum
  // and more, a guard against a hang, not a measure (it took 60 s and stopped there on a busy machine).
  it("backs up, checks, downloads and restores a backup, by keyboard, with no axe violation", async () => {
    const before = `Avant la sauvegarde ${marker}`;
    const after = `Après la sauvegarde ${marker}`;
    await addArticle(before);
    const page = await signedInPage(openPage, admin.account(), "/admin/sauvegardes");
    await page.getByText("Aucune sauvegarde pour l'instant : la première sera faite").waitFor();
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    // Back up now: its progress shows while it runs (held on one table, locked here, so that the page is
    // seen mid-way), then the new line appears on its own (the page asks again while the backup runs).
    const holder = await serverDatabase().$client.connect();
    try {
      await holder.query("begin");
      await holder.query("lock table public.travel_times in access exclusive mode");
      await page.getByRole("button", { name: "Sauvegarder maintenant" }).focus();
      await page.keyboard.press("Enter");
      const toasts = page.getByRole("region", { name: /^Notifications/ });
      await toasts.getByText("Sauvegarde demandée").waitFor();
      const underWay = page.getByRole("region", { name: "En cours" });
      await underWay.getByRole("progressbar", { name: "Sauvegarde demandée" }).waitFor();
      await underWay
        .locator("span", { hasText: /^Base de données : \d+ sur \d+ tables$/ })
        .waitFor();
      await closeToasts(page);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await holder.query("rollback");
      holder.release();
    }
    const toasts = page.getByRole("region", { name: /^Notifications/ });
    const list = page.getByRole("region", { name: "Sauvegardes disponibles" });
    const row = list.getByRole("row").nth(1);
    await row.getByText("Pas encore vérifiée").waitFor({ timeout: 60_000 });
    await page.getByRole("region", { name: "En cours" }).waitFor({ state: "detached" });
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    // Check it: restored apart, its report shown in the row.
    await row.getByRole("button", { name: /^Vérifier cette sauvegarde/ }).focus();
    await page.keyboard.press("Enter");
    await toasts.getByText("Vérification demandée").waitFor();
    await row.getByText(/elle se restaure entièrement, sans problème/).waitFor({ timeout: 60_000 });
    expect(await row.textContent()).toMatch(/\d+ tables \([\d\s ]+ lignes\)/);
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    // Download it: the link gives the archive itself (a tar whose first entry is its header).
    const link = row.getByRole("link", { name: /^Télécharger/ });
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^sauvegarde-[\d-]+\.tar$/);
    const archive = await readFile(await download.path());
    expect(archive.subarray(0, 15).toString("latin1")).toBe("sauvegarde.json");

    // Restore it: a word to type first; without it, nothing.
    await addArticle(after);
    await row.getByRole("link", { name: /^Restaurer/ }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: /^Restaurer la sauvegarde du /, level: 1 }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const word = page.getByLabel("Pour confirmer, tapez RESTAURER");
    await word.fill("oui");
    await word.press("Enter");
    await page.getByText("Tapez RESTAURER pour confirmer la restauration.").first().waitFor();
    expect(await articleExists(after)).toBe(true);
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    await word.fill("RESTAURER");
    await page.getByRole("button", { name: "Restaurer cette sauvegarde" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/admin\/sauvegardes\/restauration\/[0-9a-f-]+$/);
    await page.getByRole("heading", { name: "Restauration terminée" }).waitFor({ timeout: 90_000 });
    expect(await page.getByRole("status").textContent()).toContain(
      "Le site d'avant la restauration est gardé dans la sauvegarde du",
    );
    expect(await articleExists(before)).toBe(true);
    expect(await articleExists(after)).toBe(false);
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    // Back to the list: the safety backup of the site before the restore is there too.
    await page.getByRole("link", { name: "Retour aux sauvegardes" }).click();
    await page.getByRole("heading", { name: "Dernière restauration" }).waitFor();
    expect(await list.getByRole("row").count()).toBe(3);
  }, 300_000);

  it("on a phone, shows each backup's actions under it, within the screen, with no axe violation", async () => {
    const width = 375;
    const page = await signedInPage(openPage, admin.account(), "/admin/sauvegardes", {
      viewport: { width, height: 812 },
    });
    const list = page.getByRole("region", { name: "Sauvegardes disponibles" });
    const rows = list.getByRole("row").filter({ has: page.getByRole("rowheader") });
    await rows.first().waitFor();
    await closeToasts(page);
    expect(await rows.count()).toBeGreaterThan(0);
    for (const row of await rows.all()) {
      const date = await row.getByRole("rowheader").boundingBox();
      for (const action of [
        row.getByRole("link", { name: /^Télécharger/ }),
        row.getByRole("button", { name: /^Vérifier cette sauvegarde/ }),
        row.getByRole("link", { name: /^Restaurer/ }),
      ]) {
        const box = await action.boundingBox();
        if (!box || !date) throw new Error("an action or the date is not shown");
        // Whole on the screen, and under the backup's date (not in a column beside it).
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        expect(box.y).toBeGreaterThan(date.y + date.height - 1);
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
    // In her words: copies on this server die with it; how many are kept.
    await page.getByText("Ces copies sont sur le même serveur que le site").waitFor();
    await page.getByText("Toutes celles des dernières 24 heures, puis la dernière").waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});
