import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { formatDateTimeFr, isoDayInParis } from "../../app/lib/dates";
import { mailFailures, newsletterDeliveries, newsletterSendings } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { fetchPage, textOf, type FetchedPage } from "../support/html";
import { DAY_MS, frenchDay, useNewsletterRows } from "../support/newsletter-admin";
import { serverDatabase } from "../support/server-under-test";

/*
 * /admin/newsletter, the subscriber list and the import as the server answers them, on the suite's shared
 * server (its SMTP_URL is a capture: e-mail is on). The dialogs, the phone layout and the import in a
 * browser are tests/e2e/admin-newsletter. The box shown without SMTP_URL is checked by
 * app/server/newsletter/subscribers.integration.test.ts (its data) and
 * app/components/admin/mail-settings-panel.test.ts (its words).
 */

const admin = useAdmin();
const { marker, address, addSubscribers, subscriberByEmail } = useNewsletterRows();

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

/** The count a state's card shows on /admin/newsletter, and the list it leads to. */
function stateCard(page: FetchedPage, filter: string) {
  const link = page.document.querySelector(`a[href="/admin/subscribers?statut=${filter}"]`);
  return { link, count: Number(textOf(link).replace(/\D/g, "")) };
}

/** The row of a table that mentions `text`. */
const rowWith = (page: FetchedPage, text: string) =>
  [...page.document.querySelectorAll("tr")].find((row) => textOf(row).includes(text));

/** The addresses a subscriber list shows (its first column). */
const listedEmails = (page: FetchedPage) =>
  [...page.document.querySelectorAll("tbody tr td:first-child")].map((cell) => textOf(cell));

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

    const page = await fetchPage("/admin/newsletter", { cookie: admin.cookie() });
    expect(page.status).toBe(200);
    expect(textOf(page.document.querySelector("title"))).toBe("Newsletter - Administration");
    const navigation = page.document.querySelector('nav[aria-label="Administration"]');
    const current = navigation?.querySelector('a[aria-current="page"]');
    expect(textOf(current)).toBe("Newsletter");

    // The settings check: on (the shared server has SMTP_URL), no password, no DKIM.
    const text = textOf(page.document.querySelector('section[aria-labelledby="reglages-titre"]'));
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
      const shown = await fetchPage("/admin/newsletter", { cookie: admin.cookie() });
      const after = await countsInDatabase();
      if (JSON.stringify(before) === JSON.stringify(after) || attempt === 4) {
        expect({
          pending: stateCard(shown, "en-attente").count,
          active: stateCard(shown, "actifs").count,
          unsubscribed: stateCard(shown, "desabonnes").count,
        }).toEqual(after);
        break;
      }
    }

    const sendingRow = rowWith(page, `Nouvel article ${marker}`);
    expect(sendingRow?.querySelector("a")?.getAttribute("href")).toBe(
      `/admin/newsletter/envois/${sending.id}`,
    );
    expect(textOf(sendingRow)).toContain("En cours");
    expect(textOf(sendingRow)).toContain("2 sur 3");

    const refused = rowWith(page, address("refuse"));
    expect(textOf(refused)).toContain("Newsletter");
    expect(textOf(refused)).toContain(`550 inconnu ${marker}`);
    expect(textOf(refused?.querySelector("td:last-child"))).toBe("abandonné");
    const later = rowWith(page, address("plus-tard"));
    expect(textOf(later)).toContain("Confirmation d'inscription");
    expect(textOf(later?.querySelector("td:last-child"))).toBe("nouvel essai prévu");

    // Private answers: never stored by a cache.
    for (const path of ["/admin/newsletter", "/admin/newsletter.data"]) {
      const response = await fetchPage(path, { cookie: admin.cookie() });
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe("no-store");
    }

    // Each count leads to the list of that state.
    const unsubscribed = await fetchPage(
      stateCard(page, "desabonnes").link?.getAttribute("href") ?? "",
      { cookie: admin.cookie() },
    );
    expect(textOf(unsubscribed.document.querySelector("h1"))).toBe("Abonnés");
    expect(listedEmails(unsubscribed)).toContain(address("parti"));
    expect(listedEmails(unsubscribed)).not.toContain(address("actif-un"));
  });
});

describe("the subscriber list", () => {
  it("shows each subscriber's state and its date, filters by state without JavaScript, and exports the states in French", async () => {
    await addSubscribers([
      { name: "liste-actif", status: "active" },
      { name: "liste-attente", status: "pending" },
      { name: "liste-parti", status: "unsubscribed" },
    ]);
    const page = await fetchPage(`/admin/subscribers?q=${marker}`, { cookie: admin.cookie() });
    const activeRow = rowWith(page, address("liste-actif"));
    expect(textOf(activeRow)).toContain("Actif");
    expect(textOf(activeRow)).toMatch(/confirmé le (?:1er|\d{1,2}) \S+ \d{4}/);
    expect(textOf(rowWith(page, address("liste-attente")))).toContain("En attente");
    // An unsubscribed address: greyed, with the day it left, and nothing left to unsubscribe.
    const leftRow = rowWith(page, address("liste-parti"));
    expect(textOf(leftRow)).toMatch(/Désabonné ?le (?:1er|\d{1,2}) \S+ \d{4}/);
    expect(leftRow?.getAttribute("class")).toContain("text-stone-500");
    expect(
      [...(leftRow?.querySelectorAll("button") ?? [])].map((button) => textOf(button)),
    ).not.toContainEqual(expect.stringMatching(/^Désabonner/));

    // The filter by state is a plain form: it works without JavaScript.
    const filter = page.document.querySelector('form[role="search"]');
    expect(filter?.getAttribute("method")).toBe("get");
    expect(
      filter?.querySelector('select[name="statut"] option[value="desabonnes"]'),
    ).not.toBeNull();
    const filtered = await fetchPage(`/admin/subscribers?q=${marker}&statut=desabonnes`, {
      cookie: admin.cookie(),
    });
    const shown = listedEmails(filtered);
    expect(shown).toContain(address("liste-parti"));
    expect(shown).not.toContain(address("liste-actif"));
    for (const email of shown)
      expect((await subscriberByEmail(email))?.status, email).toBe("unsubscribed");

    // The export writes the three states in French.
    const csv = (await fetchPage("/admin/subscribers/export.csv", { cookie: admin.cookie() })).html;
    expect(csv).toContain(
      '"email";"date_inscription";"statut";"origine";"date_confirmation";"date_desabonnement"',
    );
    expect(csv).toMatch(new RegExp(`"${address("liste-attente")}";"[^"]+";"en attente";"blog";""`));
    expect(csv).toMatch(new RegExp(`"${address("liste-actif")}";"[^"]+";"actif";"blog";`));
    expect(csv).toMatch(new RegExp(`"${address("liste-parti")}";"[^"]+";"désabonné";"blog";`));
  });
});

/** Posts the import form: its attestation (when given) and a file. */
async function postImport(
  fields: Record<string, string>,
  file?: { name: string; content: string | Uint8Array<ArrayBuffer> },
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("fichier", new Blob([file.content], { type: "text/csv" }), file.name);
  return fetchPage("/admin/subscribers/importer", {
    method: "POST",
    cookie: admin.cookie(),
    body: form,
  });
}

describe("importing subscribers", () => {
  it("imports a CSV: a summary with the invalid line, the rows stored with their consent", async () => {
    await addSubscribers([
      { name: "import-deja", status: "active" },
      { name: "import-parti", status: "unsubscribed" },
    ]);
    const consent = new Date(Date.now() - 40 * DAY_MS);
    const csv = [
      "email;date_consentement",
      `${address("import-une")};${frenchDay(consent)}`,
      `${address("import-deux")};${isoDayInParis(consent)}`,
      `pas-une-adresse-${marker};${frenchDay(consent)}`,
      `${address("import-deja")};${frenchDay(consent)}`,
      `${address("import-parti")};${frenchDay(consent)}`,
    ].join("\r\n");
    const fileName = `abonnes-${marker}.csv`;
    const answer = await postImport({ attestation: "on" }, { name: fileName, content: csv });
    expect(answer.status).toBe(200);
    const summary = answer.document.querySelector('section[aria-labelledby="bilan-titre"]');
    const text = textOf(summary);
    expect(text).toContain(`Import du fichier « ${fileName} » terminé`);
    expect(text).toContain("2 adresses ajoutées");
    expect(text).toContain("1 déjà présente (inchangée)");
    expect(text).toContain("1 désabonné·e·s, non réinscrit·e·s");
    expect(text).toContain("1 ligne invalide");
    expect(text).toContain(`Ligne 4 : adresse e-mail invalide (« pas-une-adresse-${marker} »)`);
    expect(textOf(summary?.querySelector("[role=status]"))).toMatch(/^Import terminé/);

    for (const name of ["import-une", "import-deux"]) {
      const row = await subscriberByEmail(address(name));
      expect(row, name).toMatchObject({ status: "active", consentSource: "import" });
      // Midnight in Paris of the consent day.
      expect(formatDateTimeFr(row?.confirmedAt ?? new Date(0))).toBe(`${frenchDay(consent)} 00:00`);
      expect(row?.consentText).toContain(admin.account().email);
      expect(row?.consentText).toContain("Ces personnes ont accepté de recevoir la newsletter");
      expect(row?.consentText).toContain(fileName);
    }
    expect(await subscriberByEmail(address("import-deja"))).toMatchObject({
      status: "active",
      consentSource: "blog",
    });
    expect((await subscriberByEmail(address("import-parti")))?.status).toBe("unsubscribed");
  });

  it("works without JavaScript: the refusal keeps the ticked box, then the summary", async () => {
    const refused = await postImport({ attestation: "on" });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain("Choisissez le fichier CSV à importer.");
    expect(
      refused.document.querySelector('input[name="attestation"]')?.hasAttribute("checked"),
    ).toBe(true);

    const csv = `e-mail,date\n${address("sans-script")},${frenchDay(new Date(Date.now() - DAY_MS))}\n`;
    const imported = await postImport({ attestation: "on" }, { name: "liste.csv", content: csv });
    expect(imported.status).toBe(200);
    expect(
      textOf(imported.document.querySelector('section[aria-labelledby="bilan-titre"]')),
    ).toContain("1 adresse ajoutée");
    expect((await subscriberByEmail(address("sans-script")))?.status).toBe("active");
  });

  it("refuses a post without the attestation, a file over 2 MB or without its header line, and imports nothing", async () => {
    const csv = `email;date_consentement\n${address("serveur")};${frenchDay(new Date())}\n`;
    const unattested = await postImport({}, { name: "liste.csv", content: csv });
    expect(unattested.status).toBe(400);
    expect(unattested.html).toContain("Cochez cette case");

    const large = new Uint8Array(2.5 * 1024 * 1024).fill(0x20);
    large.set(new TextEncoder().encode(csv));
    const tooLarge = await postImport({ attestation: "on" }, { name: "liste.csv", content: large });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.html).toContain("Le fichier dépasse 2\u00a0Mo");

    const headless = await postImport(
      { attestation: "on" },
      { name: "liste.csv", content: `nom;ville\nMarie;Tulle\n` },
    );
    expect(headless.status).toBe(400);
    expect(headless.html).toContain("La première ligne doit nommer les colonnes");
    expect(await subscriberByEmail(address("serveur"))).toBeUndefined();
  });
});
