import { randomBytes } from "node:crypto";
import { eq, like, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  blogNewsletterSubscribers,
  mailFailures,
  newsletterDeliveries,
  newsletterSendings,
} from "../../app/server/db/schema";
import { formatDateTimeFr, isoDayInParis } from "../../app/lib/dates";
import { cookieHeader, signedInPage, waitForToastsToClose } from "./support/admin";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  type TestAccount,
} from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

/*
 * /admin/newsletter, the subscriber list's actions and the import, on the suite's shared server (its
 * SMTP_URL is a capture: e-mail is on). Rows carry this file's marker and are removed afterwards. The box
 * shown without SMTP_URL is checked by app/server/admin/subscribers.integration.test.ts (its data) and
 * app/components/admin/mail-settings-panel.test.ts (its words).
 */

const { openPage, baseUrl } = useBrowser();
const marker = randomBytes(4).toString("hex");
const address = (name: string) => `${name}-${marker}@example.com`;
const day = 24 * 60 * 60 * 1000;
let admin: TestAccount;

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
});
afterAll(async () => {
  const database = serverDatabase();
  await database.delete(newsletterSendings).where(like(newsletterSendings.subject, `%${marker}%`));
  await database.delete(mailFailures).where(like(mailFailures.recipient, `%${marker}%`));
  await database
    .delete(blogNewsletterSubscribers)
    .where(like(blogNewsletterSubscribers.email, `%${marker}%`));
  await deleteAccount(admin);
});

const signedIn = (path: string, options?: Parameters<typeof openPage>[1]) =>
  signedInPage(openPage, admin, path, options);

async function addSubscribers(
  rows: Array<{ name: string; status: "pending" | "active" | "unsubscribed" }>,
) {
  return serverDatabase()
    .insert(blogNewsletterSubscribers)
    .values(
      rows.map(({ name, status }) => ({
        email: address(name),
        status,
        consentSource: "blog",
        confirmedAt: status === "pending" ? null : new Date(Date.now() - 20 * day),
        unsubscribedAt: status === "unsubscribed" ? new Date(Date.now() - 2 * day) : null,
      })),
    )
    .returning();
}

const subscriberByEmail = async (email: string) =>
  (
    await serverDatabase()
      .select()
      .from(blogNewsletterSubscribers)
      .where(eq(blogNewsletterSubscribers.email, email))
  )[0];

/** Subscribers by state in the whole database (other files add some at the same time). */
async function countsInDatabase() {
  const rows = await serverDatabase().execute<{ status: string; count: string }>(
    sql`select status, count(*) as count from blog_newsletter_subscribers group by status`,
  );
  const count = (status: string) =>
    Number(rows.rows.find((row) => row.status === status)?.count ?? 0);
  return {
    pending: count("pending"),
    active: count("active"),
    unsubscribed: count("unsubscribed"),
  };
}

async function countsOnPage(page: Page) {
  const count = async (label: string) =>
    Number(
      (
        (await page.getByRole("link", { name: new RegExp(`^${label}`) }).textContent()) ?? ""
      ).replace(/\D/g, ""),
    );
  return {
    pending: await count("En attente de confirmation"),
    active: await count("Actifs"),
    unsubscribed: await count("Désabonnés"),
  };
}

/** A date as the owner writes it: JJ/MM/AAAA, in Paris. */
function frenchDay(date: Date): string {
  const [year, month, dayOfMonth] = isoDayInParis(date).split("-");
  return `${dayOfMonth}/${month}/${year}`;
}

describe("/admin/newsletter", () => {
  it("shows the mail settings, the subscribers by state, the latest sendings and the sending errors in French", async () => {
    const subscribers = await addSubscribers([
      { name: "attente", status: "pending" },
      { name: "actif-un", status: "active" },
      { name: "actif-deux", status: "active" },
      { name: "parti", status: "unsubscribed" },
    ]);
    const [sending] = await serverDatabase()
      .insert(newsletterSendings)
      .values({ subject: `Nouvel article ${marker}`, html: "<p>x</p>", text: "x", total: 3 })
      .returning();
    if (!sending) throw new Error("no sending");
    await serverDatabase()
      .insert(newsletterDeliveries)
      .values(
        subscribers.slice(0, 3).map((subscriber, index) => ({
          sendingId: sending.id,
          subscriberId: subscriber.id,
          batch: 0,
          status: index < 2 ? ("sent" as const) : ("pending" as const),
          sentAt: index < 2 ? new Date() : null,
        })),
      );
    await serverDatabase()
      .insert(mailFailures)
      .values([
        {
          kind: "newsletter",
          recipient: address("refuse"),
          error: `Adresse refusée par le serveur d'envoi (réponse du serveur : « 550 inconnu ${marker} »).`,
          final: true,
        },
        {
          kind: "confirmation",
          recipient: address("plus-tard"),
          error: "Connexion au serveur d'envoi impossible ; nouvel essai prévu.",
          final: false,
        },
      ]);

    const page = await signedIn("/admin/newsletter");
    expect(await page.title()).toBe("Newsletter - Administration");
    const navigation = page.getByRole("navigation", { name: "Administration" });
    expect(
      await navigation.getByRole("link", { name: "Newsletter" }).getAttribute("aria-current"),
    ).toBe("page");

    // The settings check: on (the shared server has SMTP_URL), no password, no DKIM.
    const settings = page.getByRole("region", { name: "Envoi des e-mails" });
    const text = (await settings.textContent()) ?? "";
    expect(text).toContain("L'envoi d'e-mails est activé.");
    expect(text).not.toContain("désactivé");
    expect(text).toMatch(/127\.0\.0\.1:\d+/);
    expect(text).toContain("Studio de test <site@example.com>");
    expect(text).toContain("Défini par SMTP_FROM.");
    expect(text).toContain("Désactivée");
    expect(text).toContain("300 e-mails par minute");

    // The counts are the database's (read again until no other file added a subscriber meanwhile).
    for (let attempt = 0; ; attempt++) {
      const before = await countsInDatabase();
      await page.reload();
      const shown = await countsOnPage(page);
      const after = await countsInDatabase();
      if (JSON.stringify(before) === JSON.stringify(after) || attempt === 4) {
        expect(shown).toEqual(after);
        break;
      }
    }

    const sendingRow = page.locator("tr", { hasText: `Nouvel article ${marker}` });
    expect(
      await sendingRow.getByRole("link", { name: `Nouvel article ${marker}` }).getAttribute("href"),
    ).toBe(`/admin/newsletter/envois/${sending.id}`);
    const sendingText = (await sendingRow.textContent()) ?? "";
    expect(sendingText).toContain("En cours");
    expect(sendingText).toContain("2 sur 3");

    const refused = page.locator("tr", { hasText: address("refuse") });
    expect(await refused.textContent()).toContain("Newsletter");
    expect(await refused.textContent()).toContain(`550 inconnu ${marker}`);
    expect(await refused.getByText("abandonné", { exact: true }).count()).toBe(1);
    const later = page.locator("tr", { hasText: address("plus-tard") });
    expect(await later.textContent()).toContain("Confirmation d'inscription");
    expect(await later.getByText("nouvel essai prévu", { exact: true }).count()).toBe(1);

    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    // Private answers: never stored by a cache.
    for (const path of ["/admin/newsletter", "/admin/newsletter.data"]) {
      const response = await fetch(`${baseUrl}${path}`, {
        headers: { cookie: await cookieHeader(page) },
      });
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe("no-store");
    }

    // Each count leads to the list of that state.
    await page.getByRole("link", { name: /^Désabonnés/ }).click();
    await page.waitForURL(/\/admin\/subscribers\?statut=desabonnes$/);
    // The address changes before the new page is drawn: read the list once it is there.
    await page.getByRole("heading", { name: "Abonnés", level: 1 }).waitFor();
    await expect
      .poll(() => page.locator("tbody tr td:first-child").allTextContents())
      .toContain(address("parti"));
    const emails = await page.locator("tbody tr td:first-child").allTextContents();
    expect(emails).not.toContain(address("actif-un"));
  });

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
  it("unsubscribes and deletes a subscriber after a confirmation, and exports the states", async () => {
    await addSubscribers([
      { name: "liste-actif", status: "active" },
      { name: "liste-attente", status: "pending" },
    ]);
    const page = await signedIn(`/admin/subscribers?q=${marker}`);
    const activeRow = page.locator("tr", { hasText: address("liste-actif") });
    expect(await activeRow.getByText("Actif", { exact: true }).count()).toBe(1);
    expect(await activeRow.textContent()).toMatch(/confirmé le \d{1,2} \S+ \d{4}/);
    const pendingRow = page.locator("tr", { hasText: address("liste-attente") });
    expect(await pendingRow.getByText("En attente", { exact: true }).count()).toBe(1);

    // The export writes the three states in French.
    const csv = await (
      await fetch(`${baseUrl}/admin/subscribers/export.csv`, {
        headers: { cookie: await cookieHeader(page) },
      })
    ).text();
    expect(csv).toContain(
      '"email";"date_inscription";"statut";"origine";"date_confirmation";"date_desabonnement"',
    );
    expect(csv).toMatch(new RegExp(`"${address("liste-attente")}";"[^"]+";"en attente";"blog";""`));

    await waitForToastsToClose(page);
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
    await expect
      .poll(async () => (await subscriberByEmail(address("liste-actif")))?.status)
      .toBe("unsubscribed");
    const left = await subscriberByEmail(address("liste-actif"));
    expect(Date.now() - (left?.unsubscribedAt?.getTime() ?? 0)).toBeLessThan(60_000);
    await expect.poll(() => activeRow.getByText("Désabonné", { exact: true }).count()).toBe(1);
    expect(await activeRow.getAttribute("class")).toContain("text-stone-500");
    expect(await activeRow.getByText(/^le \d{1,2} \S+ \d{4}$/).count()).toBe(1);
    expect(await activeRow.getByRole("button", { name: /Désabonner/ }).count()).toBe(0);

    await waitForToastsToClose(page);
    await pendingRow.getByRole("button", { name: /Supprimer/ }).click();
    const deletion = page.getByRole("alertdialog", {
      name: "Êtes-vous sûr de vouloir supprimer cet abonné ?",
    });
    await deletion.waitFor();
    await deletion.getByRole("button", { name: "Supprimer" }).click();
    await expect.poll(() => page.getByText("Abonné supprimé").count()).toBe(1);
    await expect.poll(() => pendingRow.count()).toBe(0);
    expect(await subscriberByEmail(address("liste-attente"))).toBeUndefined();

    // The filter by state, without JavaScript too.
    const plain = await signedIn(`/admin/subscribers?q=${marker}`, { javaScriptEnabled: false });
    await plain.getByLabel("État").selectOption("desabonnes");
    await plain.getByRole("button", { name: "Filtrer" }).click();
    await plain.waitForURL(/statut=desabonnes/);
    const shown = await plain.locator("tbody tr td:first-child").allTextContents();
    expect(shown).toContain(address("liste-actif"));
    for (const email of shown)
      expect((await subscriberByEmail(email))?.status, email).toBe("unsubscribed");
    expect(shown).not.toContain(address("telephone-un-peu-long"));
  });
});

describe("importing subscribers", () => {
  it("imports a CSV through the browser: a summary with the invalid line, the rows stored with their consent", async () => {
    await addSubscribers([
      { name: "import-deja", status: "active" },
      { name: "import-parti", status: "unsubscribed" },
    ]);
    const consent = new Date(Date.now() - 40 * day);
    const csv = [
      "email;date_consentement",
      `${address("import-une")};${frenchDay(consent)}`,
      `${address("import-deux")};${isoDayInParis(consent)}`,
      `pas-une-adresse-${marker};${frenchDay(consent)}`,
      `${address("import-deja")};${frenchDay(consent)}`,
      `${address("import-parti")};${frenchDay(consent)}`,
    ].join("\r\n");
    const file = { name: `abonnes-${marker}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) };

    const page = await signedIn("/admin/newsletter");
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
    expect(await subscriberByEmail(address("import-une"))).toBeUndefined();

    await box.check();
    await page.getByRole("button", { name: "Importer" }).click();
    const summary = page.getByRole("region", { name: /Import du fichier/ });
    await summary.waitFor();
    const text = (await summary.textContent()) ?? "";
    expect(text).toContain(`Import du fichier « abonnes-${marker}.csv » terminé`);
    expect(text).toContain("2 adresses ajoutées");
    expect(text).toContain("1 déjà présente (inchangée)");
    expect(text).toContain("1 désabonné·e·s, non réinscrit·e·s");
    expect(text).toContain("1 ligne invalide");
    expect(text).toContain(`Ligne 4 : adresse e-mail invalide (« pas-une-adresse-${marker} »)`);
    expect(await page.getByRole("status").filter({ hasText: "Import terminé" }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    for (const name of ["import-une", "import-deux"]) {
      const row = await subscriberByEmail(address(name));
      expect(row, name).toMatchObject({ status: "active", consentSource: "import" });
      // Midnight in Paris of the consent day.
      expect(formatDateTimeFr(row?.confirmedAt ?? new Date(0))).toBe(`${frenchDay(consent)} 00:00`);
      expect(row?.consentText).toContain(admin.email);
      expect(row?.consentText).toContain("Ces personnes ont accepté de recevoir la newsletter");
      expect(row?.consentText).toContain(`abonnes-${marker}.csv`);
    }
    expect(await subscriberByEmail(address("import-deja"))).toMatchObject({
      status: "active",
      consentSource: "blog",
    });
    expect((await subscriberByEmail(address("import-parti")))?.status).toBe("unsubscribed");
  });

  it("works without JavaScript: the refusal keeps the ticked box, then the summary", async () => {
    const page = await signedIn("/admin/subscribers/importer", { javaScriptEnabled: false });
    const csv = `e-mail,date\n${address("sans-script")},${frenchDay(new Date(Date.now() - day))}\n`;
    await page.getByLabel("Ces personnes ont accepté de recevoir la newsletter").check();
    await page.getByRole("button", { name: "Importer" }).click();
    await page.getByText("Choisissez le fichier CSV à importer.").waitFor();
    expect(
      await page.getByLabel("Ces personnes ont accepté de recevoir la newsletter").isChecked(),
    ).toBe(true);
    await page
      .getByLabel("Fichier CSV")
      .setInputFiles({ name: "liste.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Importer" }).click();
    const summary = page.getByRole("region", { name: /Import du fichier/ });
    await summary.waitFor();
    expect(await summary.textContent()).toContain("1 adresse ajoutée");
    expect((await subscriberByEmail(address("sans-script")))?.status).toBe("active");
  });

  it("refuses, on the server, a post without the attestation or a file over 2 MB, and imports nothing", async () => {
    const page = await signedIn("/admin/subscribers/importer");
    const cookie = await cookieHeader(page);
    const post = async (
      fields: Record<string, string>,
      content: string | Uint8Array<ArrayBuffer>,
    ) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append("fichier", new Blob([content], { type: "text/csv" }), "liste.csv");
      const response = await fetch(`${baseUrl}/admin/subscribers/importer`, {
        method: "POST",
        headers: { cookie },
        body: form,
      });
      return { status: response.status, text: await response.text() };
    };
    const csv = `email;date_consentement\n${address("serveur")};${frenchDay(new Date())}\n`;
    const unattested = await post({}, csv);
    expect(unattested.status).toBe(400);
    expect(unattested.text).toContain("Cochez cette case");

    const large = new Uint8Array(2.5 * 1024 * 1024).fill(0x20);
    large.set(new TextEncoder().encode(csv));
    const tooLarge = await post({ attestation: "on" }, large);
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.text).toContain("Le fichier dépasse 2 Mo");

    const headless = await post({ attestation: "on" }, `nom;ville\nMarie;Tulle\n`);
    expect(headless.status).toBe(400);
    expect(headless.text).toContain("La première ligne doit nommer les colonnes");
    expect(await subscriberByEmail(address("serveur"))).toBeUndefined();
  });
});
