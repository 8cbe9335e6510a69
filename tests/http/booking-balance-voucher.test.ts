import { createHash, randomBytes } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bookings,
  invoices,
  orders,
  photographers,
  sessionTypes,
  siteDocuments,
  studios,
  vouchers,
} from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { activeVoucher } from "../support/admin-sales";
import { voucherState } from "../support/booking-vouchers";
import { expectFileRefusal } from "../support/file-refusal";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { useOwnServerWithMail } from "../support/own-server";
import { ensurePdfTools, pdfText } from "../support/pdf-tools";
import { completeLegal, subjectToVat } from "../support/seller";
import { serverDatabase } from "../support/server-under-test";
import { managePath } from "~/lib/booking/urls";
import { instantLabelFr } from "~/lib/booking/words";
import { formatDateFr } from "~/lib/dates";
import { formatVoucherCode } from "~/lib/vouchers/code";

/*
 * « Solde payé au studio » on the owner's booking page with part or all of the balance taken from an amount
 * voucher (decision 0201), JavaScript off: the voucher's part is one use of the booking's balance with its
 * own invoice, the money's part the balance order whose final invoice deducts that use; refused input comes
 * back in French at its field with everything typed kept, and nothing taken. The client's own page lists the
 * use's invoice and the balance's final invoice and serves their PDFs, and no other number (decision 0201,
 * amended); the e-mail of a balance paid in money leads to its order's page. A server of the file's own
 * (with its mailbox): a use is invoiced only for a seller subject to TVA, and that identity changes every
 * invoice and the legal pages of the site.
 */

const { url: home, mailsTo } = useOwnServerWithMail();
const admin = useAdmin();
const marker = randomBytes(4).toString("hex");
const TYPE_NAME = `Portrait solde ${marker}`;
const ids = { type: "", studio: "", photographer: "" };

/** The seller's legal details: subject to TVA for the file, under the franchise for one test. */
const setLegal = (data: typeof subjectToVat) =>
  serverDatabase().update(siteDocuments).set({ data }).where(eq(siteDocuments.key, "legal"));

beforeAll(async () => {
  ensurePdfTools();
  const database = serverDatabase();
  await setLegal(subjectToVat);
  const [brive] = await database
    .select({ id: studios.id })
    .from(studios)
    .where(eq(studios.slug, "brive"));
  const [photographer] = await database
    .select({ id: photographers.id })
    .from(photographers)
    .where(eq(photographers.active, true));
  const [type] = await database
    .insert(sessionTypes)
    .values({ slug: `solde-bon-${marker}`, name: TYPE_NAME, durationMinutes: 60 })
    .returning({ id: sessionTypes.id });
  ids.type = type?.id ?? "";
  ids.studio = brive?.id ?? "";
  ids.photographer = photographer?.id ?? "";
});

let hour = 0;

/**
 * A confirmed booking far ahead (a row without occupancies), each at an hour of its own, with its client's
 * page (`client`, its token the only key).
 */
async function confirmedBooking() {
  const index = hour++;
  const token = randomBytes(32).toString("base64url");
  const startsAt = new Date(Date.UTC(2033, 4, 10 + Math.floor(index / 8), 7 + (index % 8)));
  const [booking] = await serverDatabase()
    .insert(bookings)
    .values({
      sessionTypeId: ids.type,
      studioId: ids.studio,
      photographerId: ids.photographer,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3_600_000),
      state: "confirmed",
      source: "owner",
      clientName: "Léa Martin",
      clientEmail: `lea-${marker}-${index}@example.test`,
      clientPhone: "06 12 34 56 78",
      answers: {},
      consentAt: new Date(),
      manageTokenHash: createHash("sha256").update(token).digest("hex"),
    })
    .returning({ id: bookings.id });
  const id = booking?.id ?? "";
  return {
    id,
    page: `/admin/reservations/${id}`,
    client: managePath(token),
    email: `lea-${marker}-${index}@example.test`,
    session: `${TYPE_NAME} du ${instantLabelFr(startsAt)}`,
  };
}

/** An active amount voucher of 100 € with `balanceCents` left, and its code as printed. */
async function amountVoucher(balanceCents = 10_000) {
  const voucher = await activeVoucher("Élodie Françoise", 10_000);
  await serverDatabase().update(vouchers).set({ balanceCents }).where(eq(vouchers.id, voucher.id));
  return { id: voucher.id, code: formatVoucherCode(voucher.code) };
}

const post = (path: string, fields: Record<string, string>) =>
  postForm(path, { intent: "balance", ...fields }, { cookie: admin.cookie() });

const balanceSection = (page: FetchedPage) =>
  page.document.querySelector('section[aria-labelledby="solde"]');

/** The balance order of a booking, paid or not (none when a voucher paid it all). */
const balanceOrders = (bookingId: string) =>
  serverDatabase()
    .select()
    .from(orders)
    .where(eq(orders.idempotencyKey, `booking-balance:${bookingId}`));

/** The booking's invoices, in the order they were issued. */
const invoicesOf = (bookingId: string) =>
  serverDatabase()
    .select()
    .from(invoices)
    .where(eq(invoices.bookingId, bookingId))
    .orderBy(asc(invoices.issuedAt), asc(invoices.number));

/** The balance form's control `name`, its value as drawn, and its own error message. */
function field(page: FetchedPage, name: string) {
  const control = balanceSection(page)?.querySelector(`[name="${name}"]`);
  const errorId = `champ-${name}-erreur`;
  const error = page.document.getElementById(errorId);
  return {
    value:
      control?.tagName.toLowerCase() === "select"
        ? control.querySelector("option[selected]")?.getAttribute("value")
        : control?.getAttribute("value"),
    invalid: control?.getAttribute("aria-invalid") === "true",
    // The message is tied to the control for assistive technologies.
    describedByError: (control?.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .includes(errorId),
    error: error ? textOf(error) : null,
  };
}

const DAY = String.raw`(?:1er|\d{1,2}) \S+ \d{4}`;

describe("the balance paid at the studio in part by an amount voucher", () => {
  it("takes 20 € from the voucher once and 70 € as money, says both, and invoices the use, then the balance less it", async () => {
    const booking = await confirmedBooking();
    const voucher = await amountVoucher();
    const entry = {
      amount: "70",
      means: "card_terminal",
      voucherCode: voucher.code,
      voucherAmount: "20",
    };
    expect((await post(booking.page, entry)).status).toBe(302);
    // The same form posted again (a second click) finds the first: nothing more taken.
    expect((await post(booking.page, entry)).status).toBe(302);

    const state = await voucherState(voucher.id, serverDatabase());
    expect(state.balanceCents).toBe(8_000);
    expect(state.status).toBe("active");
    expect(
      state.uses.map((use) => [use.amountCents, use.balanceOfBookingId, use.bookingId, use.by]),
    ).toEqual([[2_000, booking.id, null, "owner"]]);
    expect(state.uses[0]?.idempotencyKey).toBe(`booking-balance:${booking.id}`);
    const [order, ...others] = await balanceOrders(booking.id);
    expect(others).toEqual([]);
    expect(order).toMatchObject({ kind: "booking_balance", status: "paid", amountCents: 7_000 });

    const shown = await fetchPage(booking.page, { cookie: admin.cookie() });
    const section = balanceSection(shown);
    expect(textOf(section)).toMatch(
      new RegExp(
        `Solde enregistré : 70 € réglés le ${DAY}, carte au studio, et 20 € par le bon cadeau ${voucher.code}\\.`,
      ),
    );
    expect(section?.querySelector('button[value="balance"]')).toBeNull();
    const voucherLink = [...(section?.querySelectorAll("a") ?? [])].find(
      (link) => textOf(link) === `Voir le bon cadeau ${voucher.code}`,
    );
    expect(voucherLink?.getAttribute("href")).toBe(`/admin/bons-cadeaux?q=${voucher.code}`);
    expect(section?.querySelector(`a[href="/admin/ventes/${order?.id}"]`)?.textContent).toBe(
      "Voir la commande du solde (rembourser)",
    );
    const list = await fetchPage(voucherLink?.getAttribute("href") ?? "", {
      cookie: admin.cookie(),
    });
    expect(textOf(list.document.querySelector("main"))).toContain(voucher.code);
    expect(textOf(list.document.querySelector("main"))).toContain("80 € sur 100 €");

    // The use's invoice first (the balance's voucher part, at 20 %), then the final invoice deducting it.
    const [useInvoice, final, ...more] = await invoicesOf(booking.id);
    expect(more).toEqual([]);
    expect(useInvoice).toMatchObject({
      kind: "voucher_use",
      voucherUseId: state.uses[0]?.id,
      ttcCents: 2_000,
      lines: [
        {
          label: `Solde : ${booking.session} (réglé par le bon cadeau ${voucher.code})`,
          quantity: 1,
          unitPriceCents: 2_000,
          vatRate: 2000,
        },
      ],
    });
    expect(final).toMatchObject({ kind: "final", orderId: order?.id });
    expect(final?.lines).toEqual([
      { label: booking.session, quantity: 1, unitPriceCents: 9_000, vatRate: 2000 },
      {
        label: `Réglé par le bon cadeau ${voucher.code} : facture ${useInvoice?.number} du ${formatDateFr(useInvoice?.issuedAt ?? "")}`,
        quantity: 1,
        unitPriceCents: -2_000,
        vatRate: 2000,
      },
    ]);
    // The money received, with the TVA of that part alone: the use's was invoiced with it.
    expect(final).toMatchObject({ ttcCents: 7_000, htCents: 5_833, vatCents: 1_167 });
    expect(final?.paymentTerms).toMatch(/^Net à payer : 70,00\u00a0€ \(bon cadeau déduit\)\./);

    // The booking's page lists both, each its PDF.
    const links = [...shown.document.querySelectorAll('a[href^="/admin/factures/"]')];
    expect(links.map((link) => [textOf(link), link.getAttribute("href")])).toEqual([
      [`Facture ${useInvoice?.number}`, `/admin/factures/${useInvoice?.number}.pdf`],
      [`Facture de solde ${final?.number}`, `/admin/factures/${final?.number}.pdf`],
    ]);
  });

  it("posted twice at once, takes from the voucher once and makes one order", async () => {
    const booking = await confirmedBooking();
    const voucher = await amountVoucher();
    const entry = {
      amount: "65,50",
      means: "cash",
      voucherCode: voucher.code,
      voucherAmount: "24,50",
    };
    const answers = await Promise.all([post(booking.page, entry), post(booking.page, entry)]);
    // Each either recorded it or was told another entry was on its way; at least one recorded it.
    expect(answers.map((answer) => answer.status)).toContain(302);
    for (const answer of answers) expect([302, 409]).toContain(answer.status);
    const state = await voucherState(voucher.id, serverDatabase());
    expect(state.balanceCents).toBe(7_550);
    expect(state.uses).toHaveLength(1);
    const recorded = await balanceOrders(booking.id);
    expect(recorded.map((order) => [order.status, order.amountCents])).toEqual([["paid", 6_550]]);
    expect((await invoicesOf(booking.id)).map((invoice) => invoice.kind)).toEqual([
      "voucher_use",
      "final",
    ]);
  });
});

describe("the balance paid at the studio wholly by an amount voucher", () => {
  it("makes no order: the use's invoice is the balance's, the page says so and links the voucher", async () => {
    const booking = await confirmedBooking();
    const voucher = await amountVoucher();
    // « Montant reçu » left empty; the means as the form draws it by default.
    const entry = {
      amount: "",
      means: "card_terminal",
      voucherCode: voucher.code,
      voucherAmount: "90",
    };
    expect((await post(booking.page, entry)).status).toBe(302);
    expect((await post(booking.page, entry)).status).toBe(302);

    expect(await balanceOrders(booking.id)).toEqual([]);
    const state = await voucherState(voucher.id, serverDatabase());
    expect(state.balanceCents).toBe(1_000);
    expect(state.uses.map((use) => [use.amountCents, use.balanceOfBookingId])).toEqual([
      [9_000, booking.id],
    ]);
    const shown = await fetchPage(booking.page, { cookie: admin.cookie() });
    const section = balanceSection(shown);
    expect([...(section?.querySelectorAll("p") ?? [])].map((line) => textOf(line))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Solde enregistré : 90 € réglés le ${DAY} par le bon cadeau ${voucher.code}\\.$`,
        ),
      ),
      `Voir le bon cadeau ${voucher.code}`,
    ]);
    expect(section?.querySelector('a[href^="/admin/ventes/"]')).toBeNull();
    expect(section?.querySelector('button[value="balance"]')).toBeNull();
    const issued = await invoicesOf(booking.id);
    expect(
      issued.map((invoice) => [invoice.kind, invoice.ttcCents, invoice.lines[0]?.label]),
    ).toEqual([
      [
        "voucher_use",
        9_000,
        `Solde : ${booking.session} (réglé par le bon cadeau ${voucher.code})`,
      ],
    ]);
    expect(
      [...shown.document.querySelectorAll('a[href^="/admin/factures/"]')].map((link) =>
        textOf(link),
      ),
    ).toEqual([`Facture ${issued[0]?.number}`]);
    // Asked to cancel, the owner is told the voucher's part stays taken (no order to refund from).
    const asked = await fetchPage(`${booking.page}?annuler`, { cookie: admin.cookie() });
    expect(textOf(asked.document.querySelector('form[aria-labelledby="confirmer"]'))).toMatch(
      new RegExp(
        `Solde enregistré : 90 € réglés le ${DAY} par le bon cadeau ${voucher.code}\\. L'annulation ne remet pas sur le bon cadeau ce qui en a été pris\\.`,
      ),
    );
  });

  it("refuses another entry afterwards with a 409, its reason written in the page with JavaScript off, taking nothing", async () => {
    const booking = await confirmedBooking();
    const voucher = await amountVoucher();
    const entry = {
      amount: "",
      means: "card_terminal",
      voucherCode: voucher.code,
      voucherAmount: "90",
    };
    expect((await post(booking.page, entry)).status).toBe(302);
    const other = await post(booking.page, { amount: "90", means: "cash" });
    expect(other.status).toBe(409);
    // No order to open: the sentence does not send the owner to one.
    const main = textOf(other.document.querySelector("main"));
    expect(main).toMatch(
      new RegExp(
        `Le solde de cette séance est déjà enregistré : 90 € réglés le ${DAY} par le bon cadeau ${voucher.code}\\.`,
      ),
    );
    expect(main).not.toContain("ouvrez sa commande");
    expect(await balanceOrders(booking.id)).toEqual([]);
    const state = await voucherState(voucher.id, serverDatabase());
    expect(state.balanceCents).toBe(1_000);
    expect(state.uses).toHaveLength(1);
  });
});

describe("a balance entry refused", () => {
  it("for a booking called off meanwhile: the reason at the top of the page, where no balance section is drawn", async () => {
    const booking = await confirmedBooking();
    await serverDatabase()
      .update(bookings)
      .set({ state: "cancelled" })
      .where(eq(bookings.id, booking.id));
    const answer = await post(booking.page, { amount: "90", means: "cash" });
    expect(answer.status).toBe(400);
    expect(balanceSection(answer)).toBeNull();
    expect(textOf(answer.document.querySelector('main [role="alert"]'))).toBe(
      "Le solde s'enregistre pour une séance confirmée ou effectuée.",
    );
    expect(await balanceOrders(booking.id)).toEqual([]);
  });

  const cases: {
    what: string;
    typed: Record<string, string>;
    errors: Record<string, string>;
  }[] = [
    {
      what: "a voucher's code without the amount taken from it",
      typed: { amount: "70", means: "cheque", voucherAmount: "" },
      errors: {
        voucherAmount: "Indiquez le montant pris sur le bon en euros (par exemple 50 ou 49,50).",
      },
    },
    {
      what: "a voucher's code with an amount that is not one",
      typed: { amount: "70", means: "cash", voucherAmount: "vingt" },
      errors: {
        voucherAmount: "Indiquez le montant pris sur le bon en euros (par exemple 50 ou 49,50).",
      },
    },
    {
      what: "an amount taken from a voucher without its code",
      typed: { amount: "70", means: "transfer", voucherCode: "", voucherAmount: "20" },
      errors: { voucherCode: "Indiquez le code du bon cadeau." },
    },
    {
      what: "nothing received and no voucher",
      typed: { amount: "", means: "card_terminal", voucherCode: "", voucherAmount: "" },
      errors: { amount: "Indiquez le montant reçu en euros (par exemple 90 ou 89,50)." },
    },
  ];

  it.each(cases)(
    "for $what: a 400 with the French message at its field, everything typed kept, nothing taken",
    async ({ typed, errors }) => {
      const booking = await confirmedBooking();
      const voucher = await amountVoucher();
      const fields = { voucherCode: voucher.code, ...typed };
      const answer = await post(booking.page, fields);
      expect(answer.status).toBe(400);
      expect(textOf(balanceSection(answer))).toContain(
        "Le solde n'est pas enregistré : corrigez les champs signalés.",
      );
      for (const name of ["amount", "means", "voucherCode", "voucherAmount"]) {
        const shown = field(answer, name);
        expect(shown.value, name).toBe(fields[name as keyof typeof fields]);
        const message = errors[name] ?? null;
        expect(shown.error, name).toBe(message);
        expect(shown.invalid, name).toBe(message !== null);
        expect(shown.describedByError, name).toBe(message !== null);
      }
      // Nothing recorded: the voucher untouched, no order, no invoice, the form still offered.
      const state = await voucherState(voucher.id, serverDatabase());
      expect(state.balanceCents).toBe(10_000);
      expect(state.uses).toEqual([]);
      expect(await balanceOrders(booking.id)).toEqual([]);
      expect(await invoicesOf(booking.id)).toEqual([]);
      const page = await fetchPage(booking.page, { cookie: admin.cookie() });
      expect(balanceSection(page)?.querySelector('button[value="balance"]')).not.toBeNull();
    },
  );

  it("by a voucher with too little left: a 400 with its reason for the section and at the code's field, everything typed kept, nothing taken", async () => {
    const booking = await confirmedBooking();
    const voucher = await amountVoucher(1_000);
    const fields = { amount: "70", means: "cash", voucherCode: voucher.code, voucherAmount: "20" };
    const answer = await post(booking.page, fields);
    expect(answer.status).toBe(400);
    const section = balanceSection(answer);
    expect(textOf(section?.querySelector('[role="alert"]'))).toBe(
      "Il ne reste que 10 € sur ce bon.",
    );
    for (const name of ["amount", "means", "voucherCode", "voucherAmount"]) {
      const shown = field(answer, name);
      expect(shown.value, name).toBe(fields[name as keyof typeof fields]);
      expect(shown.error, name).toBe(
        name === "voucherCode" ? "Il ne reste que 10 € sur ce bon." : null,
      );
    }
    const state = await voucherState(voucher.id, serverDatabase());
    expect(state.balanceCents).toBe(1_000);
    expect(state.uses).toEqual([]);
    expect(await balanceOrders(booking.id)).toEqual([]);
    expect(await invoicesOf(booking.id)).toEqual([]);
    // With what is left, the same entry goes through.
    const fits = await post(booking.page, { ...fields, amount: "80", voucherAmount: "10" });
    expect(fits.status).toBe(302);
    expect((await voucherState(voucher.id, serverDatabase())).status).toBe("used");
  });
});

/** Spaces of any kind as one plain space (the site writes amounts with no-break spaces). */
const plainSpaces = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ").trim();

/** The « Factures » section of a client's page: each line as read, and its link's address. */
const invoiceItems = (page: FetchedPage) =>
  [...page.document.querySelectorAll('section[aria-labelledby="factures"] li')].map((item) => ({
    text: plainSpaces(textOf(item)),
    href: item.querySelector("a")?.getAttribute("href") ?? "",
  }));

const fetchFile = (path: string) => fetch(new URL(path, home()));

/** What a client's page says of her balance (« Solde reçu »), as the owner's page words it; null when nothing. */
const balanceOnClientPage = (page: FetchedPage) => {
  const term = [...page.document.querySelectorAll('section[aria-labelledby="seance"] dt')].find(
    (candidate) => textOf(candidate) === "Solde reçu",
  );
  return term ? plainSpaces(textOf(term.nextElementSibling)) : null;
};

describe("the client's own page of a booking whose balance a voucher paid", () => {
  it("lists the use's invoice and the balance's final invoice and serves their PDFs as an order's are served; the balance's e-mail opens its order's page; another booking's number, a made-up one or token answer 404", async () => {
    const whole = await confirmedBooking();
    const voucher = await amountVoucher();
    // Nothing recorded yet: her page says nothing of a balance.
    expect(balanceOnClientPage(await fetchPage(whole.client))).toBeNull();
    const entry = { amount: "", means: "card_terminal", voucherCode: voucher.code };
    expect((await post(whole.page, { ...entry, voucherAmount: "90" })).status).toBe(302);
    const [useInvoice] = await invoicesOf(whole.id);
    const number = useInvoice?.number ?? "";
    expect(number).toMatch(/^F-\d{4}-\d{6}$/);

    const page = await fetchPage(whole.client);
    expect(page.status).toBe(200);
    // Her balance received, as the owner's page says it (decision 0201, amended): the voucher she gave.
    expect(balanceOnClientPage(page)).toMatch(
      new RegExp(`^90 € réglés le ${DAY} par le bon cadeau ${voucher.code}\\.$`),
    );
    expect(textOf(page.document.querySelector('section[aria-labelledby="factures"] h2'))).toBe(
      "Factures",
    );
    expect(invoiceItems(page)).toEqual([
      {
        text: `Facture ${number} (PDF) du ${formatDateFr(useInvoice?.issuedAt ?? "")}, 90 €`,
        href: `${whole.client}/facture/${number}.pdf`,
      },
    ]);

    const pdf = await fetchFile(`${whole.client}/facture/${number}.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("cache-control")).toBe("no-store");
    expect(pdf.headers.get("x-robots-tag")).toBe("noindex");
    expect(pdf.headers.get("content-disposition")).toBe(
      `attachment; filename="facture-${number}.pdf"`,
    );
    expect(pdf.headers.get("content-security-policy")).toContain("default-src 'self'");
    const text = plainSpaces(pdfText(new Uint8Array(await pdf.arrayBuffer())));
    expect(text).toContain(number);
    expect(text).toContain("Léa Martin");
    expect(text).toContain("Total TTC 90,00 €");
    expect(text).toContain(`Réglée par le bon cadeau ${voucher.code}`);

    // Paid in part by a voucher: the use's invoice is listed, then the balance order's final invoice, which
    // no other page of hers lists (decision 0201, amended).
    const mixed = await confirmedBooking();
    const other = await amountVoucher();
    const mixedEntry = {
      amount: "70",
      means: "cash",
      voucherCode: other.code,
      voucherAmount: "20",
    };
    expect((await post(mixed.page, mixedEntry)).status).toBe(302);
    const [mixedUse, final] = await invoicesOf(mixed.id);
    expect([mixedUse?.kind, final?.kind]).toEqual(["voucher_use", "final"]);
    const mixedPage = await fetchPage(mixed.client);
    expect(invoiceItems(mixedPage)).toEqual([
      {
        text: `Facture ${mixedUse?.number} (PDF) du ${formatDateFr(mixedUse?.issuedAt ?? "")}, 20 €`,
        href: `${mixed.client}/facture/${mixedUse?.number}.pdf`,
      },
      {
        text: `Facture ${final?.number} (PDF) du ${formatDateFr(final?.issuedAt ?? "")}, 70 €`,
        href: `${mixed.client}/facture/${final?.number}.pdf`,
      },
    ]);
    // The money's day and means, then the voucher's part; nothing of the owner's order or links.
    expect(balanceOnClientPage(mixedPage)).toMatch(
      new RegExp(`^70 € réglés le ${DAY}, espèces, et 20 € par le bon cadeau ${other.code}\\.$`),
    );
    expect(mixedPage.html).not.toContain("/admin/");
    expect((await fetchFile(`${mixed.client}/facture/${mixedUse?.number}.pdf`)).status).toBe(200);
    const finalPdf = await fetchFile(`${mixed.client}/facture/${final?.number}.pdf`);
    expect(finalPdf.status).toBe(200);
    expect(finalPdf.headers.get("cache-control")).toBe("no-store");
    expect(finalPdf.headers.get("content-disposition")).toBe(
      `attachment; filename="facture-${final?.number}.pdf"`,
    );
    const finalText = plainSpaces(pdfText(new Uint8Array(await finalPdf.arrayBuffer())));
    expect(finalText).toContain(`${final?.number}`);
    expect(finalText).toContain(
      `Réglé par le bon cadeau ${other.code} : facture ${mixedUse?.number}`,
    );
    expect(finalText).toContain("Net à payer : 70,00 €");

    // The e-mail of the money received leads to a page of hers that answers, with the same invoice.
    const paidMails = () =>
      mailsTo(mixed.email).filter((mail) => plainSpaces(mail.subject) === "Paiement reçu : 70 €");
    await expect.poll(() => paidMails().length, { timeout: 15_000 }).toBe(1);
    const [paidMail] = paidMails();
    const orderLink = /https?:\/\/\S+(\/commande\/[A-Za-z0-9_-]{43})/.exec(
      paidMail?.text ?? "",
    )?.[1];
    expect(orderLink).toBeDefined();
    const orderPage = await fetchPage(orderLink ?? "");
    expect(orderPage.status).toBe(200);
    expect(invoiceItems(orderPage).map((item) => item.href)).toEqual([
      `${orderLink}/facture/${final?.number}.pdf`,
    ]);
    expect(
      [...orderPage.document.querySelectorAll("a")]
        .find((link) => textOf(link) === "Voir ma réservation")
        ?.getAttribute("href"),
    ).toMatch(/^\/reservation\/[A-Za-z0-9_-]{43}$/);

    for (const path of [
      `${whole.client}/facture/${final?.number}.pdf`,
      `${mixed.client}/facture/${number}.pdf`,
      `${whole.client}/facture/${mixedUse?.number}.pdf`,
      `${whole.client}/facture/F-2001-000001.pdf`,
      `${whole.client}/facture/${number}`,
      `${whole.client}/facture/facture.pdf`,
      managePath(`${"A".repeat(43)}/facture/${number}.pdf`),
      managePath(`inconnu/facture/${number}.pdf`),
    ]) {
      expectFileRefusal(await fetchPage(path), 404, path);
    }
  });

  it("lists nothing under the franchise: no invoice is issued for the use", async () => {
    await setLegal(completeLegal);
    try {
      const booking = await confirmedBooking();
      const voucher = await amountVoucher();
      const entry = { amount: "", means: "cash", voucherCode: voucher.code, voucherAmount: "90" };
      expect((await post(booking.page, entry)).status).toBe(302);
      expect((await voucherState(voucher.id, serverDatabase())).uses).toHaveLength(1);
      expect(await invoicesOf(booking.id)).toEqual([]);
      const page = await fetchPage(booking.client);
      expect(page.status).toBe(200);
      expect(page.document.querySelector('section[aria-labelledby="factures"]')).toBeNull();
    } finally {
      await setLegal(subjectToVat);
    }
  });
});
