import { describe, expect, it } from "vitest";
import { signedInPage, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { DAY_MS, frenchDay, useNewsletterRows } from "../support/newsletter-admin";

/*
 * /admin/newsletter, the subscriber list and the import where a person uses them, on the suite's shared
 * server: the confirmation dialogs, the phone layout, the import's check before posting. What the pages
 * show and what the server does with the forms is tests/http/admin-newsletter.
 */

const { openPage, baseUrl } = useBrowser();
const admin = useAdmin();
const { marker, address, addSubscribers, subscriberByEmail } = useNewsletterRows();

const signedIn = (path: string, options?: Parameters<typeof openPage>[1]) =>
  signedInPage(openPage, admin.account(), path, options);

describe("/admin/newsletter", () => {
  it("fits a 390 px wide phone", async () => {
    // A row in the list, with its buttons.
    await addSubscribers([{ name: "telephone-un-peu-long", status: "active" }]);
    const page = await signedIn("/admin/newsletter", { viewport: { width: 390, height: 844 } });
    for (const path of [
      "/admin/newsletter",
      `/admin/subscribers?q=${marker}`,
      "/admin/subscribers/importer",
    ]) {
      await page.goto(path);
      await page.locator("h1").first().waitFor();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        path,
      ).toBeLessThanOrEqual(390);
    }
  });
});

describe("the subscriber list", () => {
  it("unsubscribes and deletes a subscriber after a confirmation", async () => {
    await addSubscribers([
      { name: "liste-actif", status: "active" },
      { name: "liste-attente", status: "pending" },
    ]);
    const page = await signedIn(`/admin/subscribers?q=${marker}`);
    const activeRow = page.locator("tr", { hasText: address("liste-actif") });
    const pendingRow = page.locator("tr", { hasText: address("liste-attente") });

    await closeToasts(page);
    await activeRow.getByRole("button", { name: /Désabonner/ }).click();
    const question = page.getByRole("alertdialog", {
      name: "Désabonner cette adresse de la newsletter ?",
    });
    await question.waitFor();
    expect(await question.textContent()).toContain(`« ${address("liste-actif")} »`);
    expect(await axeViolations(page)).toEqual([]);
    await question.getByRole("button", { name: "Désabonner" }).click();
    await expect.poll(() => page.getByText("Désabonnement enregistré").count()).toBe(1);
    expect(page.url()).toBe(`${baseUrl}/admin/subscribers?q=${marker}`);
    // The row shows its new state, without the button.
    await expect.poll(() => activeRow.getByText("Désabonné", { exact: true }).count()).toBe(1);
    expect(await activeRow.getByText(/^le (?:1er|\d{1,2}) \S+ \d{4}$/).count()).toBe(1);
    expect(await activeRow.getByRole("button", { name: /Désabonner/ }).count()).toBe(0);
    const left = await subscriberByEmail(address("liste-actif"));
    expect(left?.status).toBe("unsubscribed");
    expect(Date.now() - (left?.unsubscribedAt?.getTime() ?? 0)).toBeLessThan(60_000);

    await closeToasts(page);
    await pendingRow.getByRole("button", { name: /Supprimer/ }).click();
    const deletion = page.getByRole("alertdialog", {
      name: "Êtes-vous sûr de vouloir supprimer cet abonné ?",
    });
    await deletion.waitFor();
    await deletion.getByRole("button", { name: "Supprimer" }).click();
    await expect.poll(() => page.getByText("Abonné supprimé").count()).toBe(1);
    await expect.poll(() => pendingRow.count()).toBe(0);
    expect(await subscriberByEmail(address("liste-attente"))).toBeUndefined();
  });
});

describe("importing subscribers", () => {
  it("imports a CSV through the browser: the attestation is asked for before posting, then the summary", async () => {
    const csv = `email;date_consentement\r\n${address("navigateur")};${frenchDay(new Date(Date.now() - 40 * DAY_MS))}`;
    const file = { name: `abonnes-${marker}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) };

    const page = await signedIn("/admin/newsletter");
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Importer des abonnés" }).click();
    await page.waitForURL(/\/admin\/subscribers\/importer$/);
    await page.getByRole("heading", { name: "Importer des abonnés" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The attestation is required: said at the box, nothing imported.
    await page.getByLabel("Fichier CSV").setInputFiles(file);
    await page.getByRole("button", { name: "Importer" }).click();
    const box = page.getByLabel("Ces personnes ont accepté de recevoir la newsletter");
    await expect.poll(() => box.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByText("Cochez cette case").count()).toBe(1);
    expect(await subscriberByEmail(address("navigateur"))).toBeUndefined();

    await box.check();
    await page.getByRole("button", { name: "Importer" }).click();
    const summary = page.getByRole("region", { name: /Import du fichier/ });
    await summary.waitFor();
    expect(await summary.textContent()).toContain(
      `Import du fichier « abonnes-${marker}.csv » terminé`,
    );
    expect(await page.getByRole("status").filter({ hasText: "Import terminé" }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(await subscriberByEmail(address("navigateur"))).toMatchObject({
      status: "active",
      consentSource: "import",
    });
  });
});
