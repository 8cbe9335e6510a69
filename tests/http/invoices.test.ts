import { and, desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  accountantMailSettings,
  accountantMonthlyMails,
  contentRevisions,
  invoices,
  orders,
  refunds,
  siteDocuments,
  vouchers,
} from "../../app/server/db/schema";
import { invoiceNumber, type InvoiceSeries } from "../../app/lib/invoices/model";
import { useAdmin } from "../support/accounts";
import { flashedToast, pressButton } from "../support/admin-forms";
import { intentButton, plainSpaces, useDocumentsRestored } from "../support/admin-content";
import { expectFileRefusal } from "../support/file-refusal";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { ensurePdfTools, pdfText } from "../support/pdf-tools";
import { completeLegal, invoiceSellerForTests, subjectToVat } from "../support/seller";
import { serverDatabase } from "../support/server-under-test";
import { voucherOrderFields } from "../support/voucher-form";

/*
 * Invoices and credit notes as the server answers them, JavaScript off (decision 0181): an order paid at
 * the studio gets its invoice, listed on the buyer's page and downloaded there as a PDF; its refund its
 * credit note; another order's number, or any other name, is a 404; /admin/factures lists them for the
 * owner only. A server of the file's own: the seller's identity and the vouchers on sale change its pages.
 */

const home = useOwnServer();
const admin = useAdmin();
const original = useDocumentsRestored(["payments", "legal"] as const);

beforeAll(async () => {
  ensurePdfTools();
  const database = serverDatabase();
  await database
    .update(siteDocuments)
    .set({ data: { ...original("payments"), vouchersOnSale: true, studio: true } })
    .where(eq(siteDocuments.key, "payments"));
  await database
    .update(siteDocuments)
    .set({
      data: completeLegal,
    })
    .where(eq(siteDocuments.key, "legal"));
});

const adminPage = (path: string) => fetchPage(path, { cookie: admin.cookie() });
const adminPost = (path: string, fields: Record<string, string>) =>
  postForm(path, fields, { cookie: admin.cookie() });

/** Orders a voucher to pay at the studio, as the form without JavaScript does: its page's address. */
async function orderAtStudio(buyer: string): Promise<{ path: string; orderId: string }> {
  const form = await fetchPage("/bons-cadeaux");
  const key = form.document.querySelector<HTMLInputElement>('input[name="cle"]')?.value ?? "";
  const placed = await postForm(
    "/bons-cadeaux",
    voucherOrderFields({ paiement: "studio", acheteurNom: buyer, cle: key }),
  );
  expect(placed.status).toBe(303);
  const path = placed.headers.get("location") ?? "";
  const [order] = await serverDatabase()
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.buyerName, buyer));
  if (!order) throw new Error(`no order for ${buyer}`);
  return { path, orderId: order.id };
}

/** The order page's invoice links, by their text. */
const invoiceLinks = (page: FetchedPage) =>
  [...page.document.querySelectorAll('section[aria-labelledby="factures"] a')].map((link) => ({
    text: plainSpaces(textOf(link)),
    href: link.getAttribute("href") ?? "",
  }));

describe("an order's invoices", () => {
  let first: { path: string; orderId: string };
  let invoiceHref = "";

  it("has none before it is paid, then its invoice on its page, downloaded as a PDF", async () => {
    first = await orderAtStudio("Zoé Facture");
    expect(invoiceLinks(await fetchPage(first.path))).toEqual([]);

    const paid = await adminPost(`/admin/ventes/${first.orderId}`, {
      intent: "mark-paid",
      means: "cash",
    });
    expect(paid.status).toBe(302);
    const links = invoiceLinks(await fetchPage(first.path));
    expect(links).toHaveLength(1);
    expect(links[0]?.text).toMatch(/^Facture F-\d{4}-\d{6} \(PDF\)$/);
    invoiceHref = links[0]?.href ?? "";
    expect(invoiceHref).toMatch(new RegExp(`^${first.path}/facture/F-\\d{4}-\\d{6}\\.pdf$`));

    const pdf = await fetch(new URL(invoiceHref, home()));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("cache-control")).toBe("no-store");
    const number = /F-\d{4}-\d{6}/.exec(invoiceHref)?.[0] ?? "";
    expect(pdf.headers.get("content-disposition")).toBe(
      `attachment; filename="facture-${number}.pdf"`,
    );
    const text = pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toContain(number);
    expect(text).toContain("Atelier Lumière SARL");
    expect(text).toContain("Zoé Facture");
    expect(text).toContain("TVA non applicable, art. 293 B du CGI");
    expect(text).toContain("Payée en espèces le");
  });

  it("answers 404 for another order's number, an unknown one and any other name", async () => {
    const second = await orderAtStudio("Léon Autre");
    await adminPost(`/admin/ventes/${second.orderId}`, { intent: "mark-paid", means: "cheque" });
    const [other] = invoiceLinks(await fetchPage(second.path));
    const otherNumber = /F-\d{4}-\d{6}/.exec(other?.href ?? "")?.[0] ?? "";
    expect(otherNumber).not.toBe("");
    for (const file of [`${otherNumber}.pdf`, "F-2001-000001.pdf", "facture.pdf", "F-2026-1.pdf"]) {
      // A French page (the link may come from her e-mail), which says no more than « no such file ».
      expectFileRefusal(await fetchPage(`${first.path}/facture/${file}`), 404, file);
    }
  });

  it("gets a credit note for its refund, referring to the invoice", async () => {
    const refund = await adminPost(`/admin/ventes/${first.orderId}`, {
      intent: "refund",
      amount: "30",
      reason: "Geste commercial",
    });
    expect(refund.status).toBe(302);
    // Paid in cash, it is given back in cash: « Remboursé » once the owner has.
    const [toGiveBack] = await serverDatabase()
      .select({ id: refunds.id })
      .from(refunds)
      .where(eq(refunds.orderId, first.orderId));
    const done = await adminPost(`/admin/ventes/${first.orderId}`, {
      intent: "refunded-offline",
      id: toGiveBack?.id ?? "",
    });
    expect(done.status).toBe(302);

    const links = invoiceLinks(await fetchPage(first.path));
    expect(links.map((link) => link.text)).toEqual([
      expect.stringMatching(/^Facture F-/),
      expect.stringMatching(/^Avoir A-\d{4}-\d{6} \(PDF\)$/),
    ]);
    const note = await fetch(new URL(links[1]?.href ?? "", home()));
    const text = pdfText(new Uint8Array(await note.arrayBuffer()));
    expect(text).toContain(/F-\d{4}-\d{6}/.exec(invoiceHref)?.[0] ?? "?");
    expect(text).toMatch(/-30,00\s€/);
  });
});

describe("/admin/factures", () => {
  it("lists the invoices and credit notes for the owner, each with its PDF; nobody else", async () => {
    const anonymous = await fetchPage("/admin/factures");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/admin\/login/);
    const pdfAnonymous = await fetch(new URL("/admin/factures/F-2026-000001.pdf", home()), {
      redirect: "manual",
    });
    expect(pdfAnonymous.status).toBe(401);

    const list = await adminPage("/admin/factures");
    expect(list.status).toBe(200);
    const items = [
      ...list.document.querySelectorAll('ul[aria-label="Factures et avoirs"] > li'),
    ].map((item) => plainSpaces(textOf(item)));
    expect(items[0]).toMatch(/Avoir A-\d{4}-\d{6} \(PDF\).*Zoé Facture/);
    expect(items.some((item) => /Facture F-\d{4}-\d{6} \(PDF\).*Léon Autre/.test(item))).toBe(true);
    const href =
      list.document
        .querySelector('ul[aria-label="Factures et avoirs"] a[href$=".pdf"]')
        ?.getAttribute("href") ?? "";
    const pdf = await fetch(new URL(href, home()), { headers: { cookie: admin.cookie() } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expectFileRefusal(await adminPage("/admin/factures/F-2001-000001.pdf"), 404);
    expectFileRefusal(await fetchPage(href), 401);
  });
});

describe("/admin/factures: its search", () => {
  /**
   * A document written straight into the table, in a year long before the site's, so that its number is
   * known and no period of the accountant's files holds it.
   */
  const storedInvoice = (
    series: InvoiceSeries,
    year: number,
    sequence: number,
    buyer: { name: string; email: string },
    creditedInvoiceId: string | null = null,
  ) => {
    const cents = series === "A" ? -5000 : 15000;
    return {
      series,
      year,
      sequence,
      number: invoiceNumber(series, year, sequence),
      kind: series === "A" ? ("credit_note" as const) : ("sale" as const),
      creditedInvoiceId,
      // A credit note a month after the invoices of its year, as it follows the invoice it corrects.
      issuedAt: new Date(Date.UTC(year, series === "A" ? 6 : 5, 1, 12, sequence)),
      seller: invoiceSellerForTests,
      buyer: { ...buyer, address: null },
      lines: [{ label: "Séance portrait", quantity: 1, unitPriceCents: cents, vatRate: null }],
      htCents: cents,
      vatCents: 0,
      ttcCents: cents,
      vatBreakdown: [{ vatRate: null, htCents: cents, vatCents: 0, ttcCents: cents }],
      paymentTerms: "Payée en espèces.",
    };
  };
  const helene = { name: "Hélène Martin", email: "Helene.Martin@exemple.fr" };

  beforeAll(async () => {
    const database = serverDatabase();
    const [invoice] = await database
      .insert(invoices)
      .values(storedInvoice("F", 2004, 123, helene))
      .returning({ id: invoices.id });
    await database.insert(invoices).values([
      storedInvoice("A", 2004, 2, helene, invoice?.id ?? null),
      storedInvoice("F", 2004, 1234, { name: "Jeanne Roux", email: "jeanne.roux@exemple.fr" }),
      storedInvoice("F", 2003, 123, { name: "Paul Durand", email: "paul.durand@exemple.fr" }),
      ...Array.from({ length: 51 }, (_, index) =>
        storedInvoice("F", 2002, index + 1, {
          name: `Client Liste ${index + 1}`,
          email: `client.liste.${index + 1}@exemple.fr`,
        }),
      ),
    ]);
  });

  const search = (typed: string) => adminPage(`/admin/factures?q=${encodeURIComponent(typed)}`);
  /** The numbers the list shows, in its order. */
  const numbers = (page: FetchedPage) =>
    [...page.document.querySelectorAll('ul[aria-label="Factures et avoirs"] a[href$=".pdf"]')].map(
      (link) => /[FA]-\d{4}-\d{6,}/.exec(textOf(link))?.[0],
    );
  const heading = (page: FetchedPage) => textOf(page.document.querySelector("#liste-factures"));

  it("finds an invoice by its number, in any case, with or without its dashes or its zeros", async () => {
    for (const typed of [
      "F-2004-000123",
      "f-2004-000123",
      "F2004000123",
      "f 2004 000123",
      "F-2004-123",
    ]) {
      const found = await search(typed);
      expect(numbers(found), typed).toEqual(["F-2004-000123"]);
      expect(heading(found), typed).toBe("1 document");
      // What was typed stays in the box for the next search.
      expect(found.document.querySelector<HTMLInputElement>('input[name="q"]')?.value).toBe(typed);
    }
    // Its last digits alone: that number in every year, and nothing that only contains them.
    expect(numbers(await search("123"))).toEqual(["F-2004-000123", "F-2003-000123"]);
  });

  it("finds a client's invoices and credit notes by her name, accents and case aside, or her e-mail", async () => {
    for (const typed of ["helene martin", "HÉLÈNE", "helene.martin@EXEMPLE.fr"]) {
      const found = await search(typed);
      expect(numbers(found), typed).toEqual(["A-2004-000002", "F-2004-000123"]);
      expect(heading(found), typed).toBe("2 documents");
    }
  });

  it("says so in French when nothing matches", async () => {
    const none = await search("Personne Inconnue");
    expect(numbers(none)).toEqual([]);
    expect(heading(none)).toBe("0 document");
    expect(textOf(none.document.body)).toContain("Aucune facture ne correspond à cette recherche.");
  });

  it("keeps the search in the links between pages, and counts only what it finds", async () => {
    const first = await search("liste");
    expect(heading(first)).toBe("51 documents");
    expect(numbers(first)).toHaveLength(50);
    const next = [...first.document.querySelectorAll("nav a")].find((link) =>
      textOf(link).includes("Page suivante"),
    );
    expect(next?.getAttribute("href")).toContain("q=liste");
    const second = await adminPage(next?.getAttribute("href") ?? "");
    expect(numbers(second)).toEqual(["F-2002-000001"]);
    const previous = [...second.document.querySelectorAll("nav a")].find((link) =>
      textOf(link).includes("Page précédente"),
    );
    expect(previous?.getAttribute("href")).toContain("q=liste");
  });
});

describe("/admin/comptabilite", () => {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());

  it("offers the last month by default, and a period's four files with their rows and totals", async () => {
    const page = await adminPage("/admin/comptabilite");
    expect(page.status).toBe(200);
    const from = page.document.querySelector<HTMLInputElement>('input[name="du"]')?.value ?? "";
    const to = page.document.querySelector<HTMLInputElement>('input[name="au"]')?.value ?? "";
    expect(from).toMatch(/^\d{4}-\d{2}-01$/);
    expect(to < today && from <= to).toBe(true);

    const period = await adminPage(`/admin/comptabilite?du=${today}&au=${today}`);
    const files = [
      ...period.document.querySelectorAll('ul[aria-label="Fichiers du comptable"] > li'),
    ].map((item) => plainSpaces(textOf(item)));
    expect(files).toHaveLength(4);
    // Two orders paid (100 € each, in cash and by cheque) and 30 € given back.
    expect(files[0]).toMatch(/^Livre des recettes.*3 lignes · total 170 €/);
    expect(files[1]).toMatch(/^Journal des ventes.*3 lignes · total 170 €/);

    const link =
      period.document
        .querySelector('ul[aria-label="Fichiers du comptable"] a[href*="livre-des-recettes.csv"]')
        ?.getAttribute("href") ?? "";
    expect(link).toBe(`/admin/comptabilite/livre-des-recettes.csv?du=${today}&au=${today}`);
    const csv = await fetch(new URL(link, home()), { headers: { cookie: admin.cookie() } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(
      `attachment; filename="livre-des-recettes-${today}-${today}.csv"`,
    );
    const bytes = new Uint8Array(await csv.arrayBuffer());
    // The BOM that tells a spreadsheet it is UTF-8 (fetch's text() would take it off).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text).toMatch(/"Zoé Facture";"Bon cadeau de 100\s€";100,00;"Espèces";""\r\n/);
    expect(text).toContain(";-30,00;");
  });

  it("refuses a period that is not one in French, keeping what was typed; the files for the owner only", async () => {
    const refused = await adminPage("/admin/comptabilite?du=2026-02-30&au=2026-01-01");
    expect(refused.status).toBe(200);
    expect(textOf(refused.document.getElementById("champ-du-erreur"))).toBe(
      "Indiquez le premier jour de la période (jj/mm/aaaa).",
    );
    expect(refused.document.querySelector<HTMLInputElement>('input[name="du"]')?.value).toBe(
      "2026-02-30",
    );
    expect(refused.document.querySelector('ul[aria-label="Fichiers du comptable"]')).toBeNull();

    const path = "/admin/comptabilite/journal-des-ventes.csv?du=2026-03-01&au=2026-02-01";
    // The owner opens these in her browser: French pages (decision 0202), never a bare line.
    expect(expectFileRefusal(await adminPage(path), 400)).toContain(
      "Le dernier jour doit venir après le premier.",
    );
    expectFileRefusal(
      await adminPage("/admin/comptabilite/grand-livre.csv?du=2026-01-01&au=2026-01-31"),
      404,
    );
    expectFileRefusal(await fetchPage(path), 401);
  });
});

describe("/admin/comptabilite: the accountant's e-mail (decision 0189)", () => {
  const period = { du: "2026-10-01", au: "2026-10-31" };
  const form = (page: FetchedPage) =>
    page.document.querySelector('form[aria-label="Envoi au cabinet comptable"]');

  it("refuses « Envoyer maintenant » in French while no address is saved, or for a period that is not one", async () => {
    const refused = await adminPost("/admin/comptabilite", { intent: "send-now", ...period });
    expect(refused.status).toBe(400);
    expect(
      textOf(
        refused.document.querySelector(
          'form[aria-label="Envoi des fichiers de la période"] [role="alert"]',
        ),
      ),
    ).toContain("Indiquez d'abord l'adresse e-mail de votre cabinet comptable");
    const badPeriod = await adminPost("/admin/comptabilite", {
      intent: "send-now",
      du: "2026-02-30",
      au: "2026-01-01",
    });
    expect(badPeriod.status).toBe(400);
    const unknown = await adminPost("/admin/comptabilite", { intent: "tout-effacer" });
    expect(unknown.status).toBe(400);
  });

  it("refuses at the field, in French, an address that is not one or the monthly e-mail without one, keeping what was typed", async () => {
    const invalid = await adminPost("/admin/comptabilite", {
      intent: "accountant-mail",
      email: "cabinet@exemple",
      envoiMensuel: "on",
      ...period,
    });
    expect(invalid.status).toBe(400);
    expect(textOf(invalid.document.getElementById("champ-email-erreur"))).toBe(
      "Cette adresse e-mail n'est pas valide (exemple : cabinet@exemple.fr).",
    );
    expect(invalid.document.querySelector<HTMLInputElement>("#champ-email")?.value).toBe(
      "cabinet@exemple",
    );
    expect(invalid.document.querySelector("#champ-envoiMensuel")?.hasAttribute("checked")).toBe(
      true,
    );

    const empty = await adminPost("/admin/comptabilite", {
      intent: "accountant-mail",
      email: "",
      envoiMensuel: "on",
      ...period,
    });
    expect(empty.status).toBe(400);
    expect(textOf(empty.document.getElementById("champ-email-erreur"))).toBe(
      "Indiquez l'adresse de votre comptable : c'est là que partent les fichiers.",
    );
    const page = await adminPage("/admin/comptabilite");
    expect(page.document.querySelector<HTMLInputElement>("#champ-email")?.value).toBe("");
  });

  it("saves the address and the switch with a toast, then sends the period's files at once", async () => {
    const saved = await adminPost("/admin/comptabilite", {
      intent: "accountant-mail",
      email: " cabinet@exemple.fr ",
      envoiMensuel: "on",
      ...period,
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/comptabilite?du=2026-10-01&au=2026-10-31");
    expect(flashedToast(saved.headers)).toMatchObject({
      type: "success",
      title: "Envoi au cabinet comptable enregistré",
    });
    const page = await adminPage("/admin/comptabilite");
    expect(form(page)?.querySelector<HTMLInputElement>("#champ-email")?.value).toBe(
      "cabinet@exemple.fr",
    );
    expect(page.document.querySelector("#champ-envoiMensuel")?.hasAttribute("checked")).toBe(true);

    const sent = await adminPost("/admin/comptabilite", { intent: "send-now", ...period });
    expect(sent.status).toBe(302);
    expect(flashedToast(sent.headers)).toMatchObject({
      type: "success",
      title: "Fichiers envoyés au cabinet comptable",
      description: expect.stringContaining("(octobre 2026)") as unknown as string,
    });
    const again = await adminPost("/admin/comptabilite", { intent: "send-now", ...period });
    expect(flashedToast(again.headers)).toMatchObject({
      title: "Fichiers déjà envoyés il y a moins d'une heure",
    });
  });

  it("tells an earlier month whose files did not leave, with a link to its period, after a later one left", async () => {
    await serverDatabase()
      .insert(accountantMonthlyMails)
      .values([
        { month: "2026-08", recipient: "cabinet@exemple.fr" },
        {
          month: "2026-09",
          recipient: "cabinet@exemple.fr",
          sentAt: new Date("2026-10-01T05:01:00Z"),
        },
      ]);
    try {
      const page = await adminPage("/admin/comptabilite");
      const text = plainSpaces(textOf(form(page)));
      expect(text).toContain(
        "Dernier envoi mensuel : les fichiers de septembre 2026, le 1er octobre 2026 à 07:01.",
      );
      expect(text).toContain(
        "Les fichiers d'un mois précédent ne sont pas parvenus à votre comptable :",
      );
      const link = form(page)?.querySelector(
        'a[href="/admin/comptabilite?du=2026-08-01&au=2026-08-31"]',
      );
      expect(textOf(link)).toBe("Fichiers d'août 2026");
    } finally {
      await serverDatabase()
        .delete(accountantMonthlyMails)
        .where(sql`${accountantMonthlyMails.month} in ('2026-08', '2026-09')`);
    }
  });

  it("counts a whole month sent from the page, the monthly switch on, as that month's e-mail, and says so", async () => {
    const paris = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());
    const [y, m] = paris.split("-").map(Number) as [number, number];
    const from = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 10);
    const to = new Date(Date.UTC(y, m - 1, 0)).toISOString().slice(0, 10);
    const month = from.slice(0, 7);
    await serverDatabase()
      .delete(accountantMonthlyMails)
      .where(eq(accountantMonthlyMails.month, month));
    const saved = await adminPost("/admin/comptabilite", {
      intent: "accountant-mail",
      email: "cabinet@exemple.fr",
      envoiMensuel: "on",
      du: from,
      au: to,
    });
    expect(saved.status).toBe(302);
    // Ticked in the middle of that month: the 1st's run has that month still to send.
    await serverDatabase()
      .update(accountantMailSettings)
      .set({ monthlySince: new Date(`${month}-15T12:00:00Z`) });
    try {
      const sent = await adminPost("/admin/comptabilite", { intent: "send-now", du: from, au: to });
      expect(sent.status).toBe(302);
      expect(flashedToast(sent.headers)?.description).toMatch(
        /Ils comptent comme l'envoi mensuel d[e'] ?[a-zéû]+ \d{4}, qui ne repartira pas\.$/,
      );
      const [claimed] = await serverDatabase()
        .select()
        .from(accountantMonthlyMails)
        .where(eq(accountantMonthlyMails.month, month));
      expect(claimed?.recipient).toBe("cabinet@exemple.fr");
      const page = await adminPage("/admin/comptabilite");
      expect(plainSpaces(textOf(form(page)))).toContain(
        "cet envoi compte comme l'envoi mensuel de ce mois.",
      );
    } finally {
      await serverDatabase()
        .delete(accountantMonthlyMails)
        .where(eq(accountantMonthlyMails.month, month));
    }
  });
});

describe("invoices held back by incomplete legal details", () => {
  const invoicesOf = (orderId: string) =>
    serverDatabase().select().from(invoices).where(eq(invoices.orderId, orderId));

  it("are issued as soon as a complete version is restored from the history, as after a save", async () => {
    const legalForm = async () => {
      const page = await adminPage("/admin/site");
      const form = [...page.document.querySelectorAll("form")].find((candidate) =>
        candidate.querySelector('input[name="document"][value="legal"]'),
      );
      if (!form) throw new Error("no legal form");
      return form;
    };
    const save = async () =>
      pressButton("/admin/site", intentButton(await legalForm(), "save"), {
        cookie: admin.cookie(),
      });
    // Saved complete (a version of the history), then incomplete (its SIRET gone, as the site's details were
    // before the owner filled them in): no invoice is issued.
    expect((await save()).status).toBe(302);
    await serverDatabase()
      .update(siteDocuments)
      .set({ data: { ...completeLegal, siret: "" } })
      .where(eq(siteDocuments.key, "legal"));
    const { orderId } = await orderAtStudio("Rose Attente");
    await adminPost(`/admin/ventes/${orderId}`, { intent: "mark-paid", means: "cash" });
    expect(await invoicesOf(orderId)).toEqual([]);

    const [complete] = await serverDatabase()
      .select({ id: contentRevisions.id })
      .from(contentRevisions)
      .where(
        and(
          eq(contentRevisions.subject, "document:legal"),
          sql`${contentRevisions.data} ->> 'siret' = ${completeLegal.siret}`,
        ),
      )
      .orderBy(desc(contentRevisions.createdAt))
      .limit(1);
    const restored = await adminPost("/admin/site", {
      intent: "restore",
      revision: complete?.id ?? "",
    });
    expect(flashedToast(restored.headers)).toMatchObject({ title: "Version restaurée" });
    // At once, not at the reconciliation job's next round.
    expect(await invoicesOf(orderId)).toHaveLength(1);
  });

  it("are never printed from a restored version their fonts cannot draw: that version is refused", async () => {
    // A version saved before the save checked the fonts (decision 0178), as the history may hold one.
    const [older] = await serverDatabase()
      .insert(contentRevisions)
      .values({
        subject: "document:legal",
        data: { ...completeLegal, companyName: "Studio ✨ Lumière" },
        authorName: "Propriétaire",
      })
      .returning({ id: contentRevisions.id });
    const before = await serverDatabase()
      .select({ data: siteDocuments.data })
      .from(siteDocuments)
      .where(eq(siteDocuments.key, "legal"));

    const restored = await adminPost("/admin/site", {
      intent: "restore",
      revision: older?.id ?? "",
    });
    expect(flashedToast(restored.headers)).toEqual({
      type: "error",
      title: "Version non restaurée",
      description:
        "Ces caractères ne peuvent pas être imprimés sur la facture : ✨. Retirez-les ou remplacez-les. La version en ligne n'a pas changé.",
    });
    expect(
      await serverDatabase()
        .select({ data: siteDocuments.data })
        .from(siteDocuments)
        .where(eq(siteDocuments.key, "legal")),
    ).toEqual(before);
  });
});

describe("an amount voucher used at the studio (decision 0198)", () => {
  it("is invoiced with its TVA when the seller charges it, the invoice listed with the voucher", async () => {
    const database = serverDatabase();
    await database
      .update(siteDocuments)
      .set({ data: subjectToVat })
      .where(eq(siteDocuments.key, "legal"));
    try {
      const { orderId } = await orderAtStudio("Inès Multiple");
      await adminPost(`/admin/ventes/${orderId}`, { intent: "mark-paid", means: "cash" });
      const [voucher] = await database.select().from(vouchers).where(eq(vouchers.orderId, orderId));
      if (!voucher?.code) throw new Error("no voucher issued");
      const used = await adminPost("/admin/bons-cadeaux", {
        intent: "use-amount",
        id: voucher.id,
        amount: "40",
      });
      expect(used.status).toBe(302);
      const toast = flashedToast(used.headers);
      const number = /F-\d{4}-\d{6}/.exec(toast?.description ?? "")?.[0] ?? "";
      expect(toast?.description).toBe(`Il reste 60\u00a0€. Facture ${number} émise.`);

      const list = await adminPage(`/admin/bons-cadeaux?q=${voucher.code}`);
      const link = [...list.document.querySelectorAll('li[aria-label^="Bon"] a')].find(
        (anchor) => textOf(anchor) === `Facture ${number}`,
      );
      expect(link?.getAttribute("href")).toBe(`/admin/factures/${number}.pdf`);
      const pdf = await fetch(new URL(link?.getAttribute("href") ?? "", home()), {
        headers: { cookie: admin.cookie() },
      });
      expect(pdf.status).toBe(200);
      const text = plainSpaces(pdfText(new Uint8Array(await pdf.arrayBuffer())));
      expect(text).toContain(number);
      expect(text).toContain("Léa Martin");
      expect(text).toContain("TVA 20 % sur 33,33 € 6,67 €");
      expect(text).toContain("Total TTC 40,00 €");
      expect(text).toContain("Réglée par le bon cadeau");
    } finally {
      await database
        .update(siteDocuments)
        .set({ data: completeLegal })
        .where(eq(siteDocuments.key, "legal"));
    }
  });
});
