import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { seedDocuments } from "~/content/seed";
import { isoDayInParis } from "~/lib/dates";
import { formatVoucherCode } from "~/lib/vouchers/code";
import {
  EVERY_DAY,
  distinctSlots,
  insertSessionType,
  studioIds,
} from "../../../tests/support/booking";
import { ARRHES_30_OF_120 } from "../../../tests/support/booking-deposits";
import { useAppDatabase } from "../../../tests/support/database";
import { parseAccountingCsv } from "../../../tests/support/accounting-csv";
import { completeLegal, subjectToVat } from "../../../tests/support/seller";
import {
  paidAmountVoucher,
  placeVoucherOrder,
  usesOf,
  voucherOrderOf,
  voucherRow,
} from "../../../tests/support/vouchers";
import { provideSiteOrderKinds } from "../boot/order-kinds.server";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { bookings, invoices, orders, voucherUses, vouchers } from "../db/schema";
import { invoicesOfBooking, issueMissingInvoices } from "../invoices/orders.server";
import {
  createOrder,
  markPaidOffline,
  markRefundedOffline,
  requestRefund,
} from "../payments/orders.server";
import { receiptsBook, salesJournal, vouchersOutstanding } from "../accounting/exports.server";
import { verifyJournal } from "../payments/journal.server";
import { useAmountVoucher } from "../vouchers/redemption.server";
import { cancelBooking, createBooking } from "./bookings.server";
import { recordBalancePaid, recordedBalance } from "./deposits.server";
import { PaymentRefusedError } from "../payments/refusals.server";
import { purgeOldBookings } from "./retention.server";

// « Solde payé au studio » by an amount voucher (decision 0201) on a real PostgreSQL: what it must refuse
// without taking anything, what it bills, and what the accountant's files and the other voucher paths
// read of it.

useAppDatabase({ jobs: true });

const RULE = ARRHES_30_OF_120;

let brive = "";
let depositType = "";
const nextSlot = distinctSlots(5);

const setLegal = (legal: typeof subjectToVat) =>
  saveDocument("legal", legal, { id: "", name: "Camille" }, "test");

beforeAll(async () => {
  provideSiteOrderKinds();
  await setLegal(subjectToVat);
  ({ brive } = await studioIds());
  depositType = await insertSessionType([brive], {
    name: "Portrait au solde",
    bookableHours: EVERY_DAY,
    stepMinutes: 60,
    deposit: RULE,
  });
});

const amountVoucher = (euros: number) => paidAmountVoucher(euros);

/** A booking of a 120 € session whose 30 € of arrhes an amount voucher paid: 90 € left to pay. */
async function bookedWithArrhes(email: string) {
  const arrhes = await amountVoucher(30);
  return createBooking({
    studioId: brive,
    sessionTypeId: depositType,
    slot: nextSlot(),
    client: { name: "Léa Martin", email, phone: "" },
    consentAt: new Date(),
    voucherCode: arrhes.code,
  });
}

const balanceOrders = (bookingId: string) =>
  db()
    .select()
    .from(orders)
    .where(eq(orders.idempotencyKey, `booking-balance:${bookingId}`));

/** The TTC that stands of a booking's invoices (credit notes counted). */
async function bookingTtc(bookingId: string) {
  const rows = await db().select().from(invoices).where(eq(invoices.bookingId, bookingId));
  return rows.reduce((sum, row) => sum + row.ttcCents, 0);
}

const plain = (text: string | null | undefined) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");

/**
 * « recorded », or the refusal's words, of the owner's entry of `amountCents` received (in cash) and
 * `voucher`'s part for the booking.
 */
const entryOutcome = (
  bookingId: string,
  amountCents: number,
  voucher: { code: string; amountCents: number },
) =>
  recordBalancePaid({ bookingId, amountCents, means: "cash", voucher })
    .then(() => "recorded")
    .catch((error: Error) => plain(error.message));

describe("the voucher's part of a balance", () => {
  it("is taken with its order or not at all: an unpaid order of another entry refuses it, nothing taken", async () => {
    const made = await bookedWithArrhes("solde-stuck-order@example.test");
    // An earlier entry of 90 € that stopped after its order, before its payment (the code's own
    // comment: « one that stopped before its payment »): awaiting_payment, invisible to recordedBalance.
    await createOrder({
      kind: "booking_balance",
      method: "studio",
      buyer: { name: "Léa Martin", email: "solde-stuck-order@example.test", phone: "" },
      termsAcceptedAt: new Date(),
      rulesSnapshot: { bookingId: made.id, startsAt: made.startsAt.toISOString() },
      lines: [
        { label: "Solde : Portrait au solde", quantity: 1, unitPriceCents: 9_000, vatRate: 2000 },
      ],
      idempotencyKey: `booking-balance:${made.id}`,
      studioId: brive,
    });
    expect(await recordedBalance(made.id)).toBeNull(); // the page shows the form

    const gift = await amountVoucher(100);
    // Refused (another amount is on its way), before anything is taken: with money, and whole by it.
    expect(await entryOutcome(made.id, 7_000, { code: gift.code, amountCents: 2_000 })).toBe(
      "Un autre solde de cette séance est en cours d'enregistrement : rechargez la page pour le voir.",
    );
    expect(await entryOutcome(made.id, 0, { code: gift.code, amountCents: 9_000 })).toBe(
      "Un autre solde de cette séance vient d'être enregistré : rechargez la page pour le voir.",
    );
    expect(await usesOf(gift.voucherId)).toEqual([]);
    expect(await voucherRow(gift.voucherId)).toMatchObject({ balanceCents: 10_000 });
    // The page still offers the form: nothing is recorded.
    expect(await recordedBalance(made.id)).toBeNull();
  });

  it("and money entered at the same moment by another form: one of the two is recorded, never both", async () => {
    const made = await bookedWithArrhes("solde-money-or-voucher@example.test");
    const gift = await amountVoucher(100);
    const outcomes = await Promise.allSettled([
      recordBalancePaid({ bookingId: made.id, amountCents: 9_000, means: "cash" }),
      recordBalancePaid({
        bookingId: made.id,
        amountCents: 0,
        means: "cash",
        voucher: { code: gift.code, amountCents: 9_000 },
      }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const paidOrders = (await balanceOrders(made.id)).filter((order) => order.status === "paid");
    expect(paidOrders.length + (await usesOf(gift.voucherId)).length).toBe(1);
    expect(await bookingTtc(made.id)).toBe(12_000);
  });
});

describe("a balance paid whole by a voucher", () => {
  it("refuses another tab's entry of the same voucher part plus money: the session stays billed 120 €", async () => {
    const made = await bookedWithArrhes("solde-stale-tab@example.test");
    const gift = await amountVoucher(100);
    await recordBalancePaid({
      bookingId: made.id,
      amountCents: 0,
      means: "cash",
      voucher: { code: gift.code, amountCents: 9_000 },
    });
    // A second tab, opened before, with the same voucher part and 30 € typed in « Montant reçu ».
    const outcome = await entryOutcome(made.id, 3_000, { code: gift.code, amountCents: 9_000 });
    // Refused as another entry (« Le solde de cette séance est déjà enregistré : 90 € … »).
    expect(outcome).toMatch(/^Le solde de cette séance est déjà enregistré/);
    // The booking's invoices bill the 120 € session, not 150 €.
    expect(await bookingTtc(made.id)).toBe(12_000);
  });
});

describe("a refund of the voucher's own order beyond its balance", () => {
  it("credits the owner's plain uses first, the balance use (which a final invoice deducts) last", async () => {
    const made = await bookedWithArrhes("solde-credit-order@example.test");
    const gift = await amountVoucher(100);
    // An older plain use at the studio (« Utiliser »), then the balance's use.
    const plainUse = await useAmountVoucher({ code: gift.code, amountCents: 1_000 });
    if (!plainUse.ok) throw new Error(plainUse.message);
    const { orderId } = await recordBalancePaid({
      bookingId: made.id,
      amountCents: 7_000,
      means: "cash",
      voucher: { code: gift.code, amountCents: 2_000 },
    });
    expect(orderId).not.toBeNull();
    expect(await bookingTtc(made.id)).toBe(12_000);
    // 70 € left on the voucher; 80 € given back to its buyer: 10 € of money the uses had spent.
    const refund = await requestRefund(gift.orderId, 8_000, "Geste commercial");
    await markRefundedOffline(refund.id);
    const notes = await db()
      .select({ credited: invoices.creditedInvoiceId, ttc: invoices.ttcCents })
      .from(invoices)
      .where(
        and(
          eq(invoices.kind, "credit_note"),
          inArray(
            invoices.creditedInvoiceId,
            db()
              .select({ id: invoices.id })
              .from(invoices)
              .innerJoin(voucherUses, eq(voucherUses.id, invoices.voucherUseId))
              .where(eq(voucherUses.voucherId, gift.voucherId)),
          ),
        ),
      );
    expect(notes).toEqual([{ credited: plainUse.invoice?.id, ttc: -1_000 }]);
    // The booking's documents still bill the session.
    expect(await bookingTtc(made.id)).toBe(12_000);
  });
});

describe("a balance paid in part by a voucher", () => {
  it("bills the session and its TVA across the booking's invoices, as the accountant's files read them; a refund of the money leaves the voucher's use", async () => {
    const made = await bookedWithArrhes("solde-money@example.test");
    const gift = await amountVoucher(50);
    // Typed as a person would: lower case, spaces around and inside.
    const { orderId } = await recordBalancePaid({
      bookingId: made.id,
      amountCents: 7_000,
      means: "card_terminal",
      voucher: { code: `  ${gift.code.toLowerCase().replaceAll("-", " ")} `, amountCents: 2_000 },
    });
    // Again, typed differently: the same entry.
    expect(
      await recordBalancePaid({
        bookingId: made.id,
        amountCents: 7_000,
        means: "card_terminal",
        voucher: { code: gift.code.replaceAll("-", ""), amountCents: 2_000 },
      }),
    ).toEqual({ orderId });
    const rows = await db().select().from(invoices).where(eq(invoices.bookingId, made.id));
    expect(rows.reduce((sum, row) => sum + row.ttcCents, 0)).toBe(12_000);
    expect(rows.reduce((sum, row) => sum + row.vatCents, 0)).toBe(2_000);

    const today = isoDayInParis(new Date());
    const period = { from: today, to: today };
    const journal = parseAccountingCsv((await salesJournal(period)).csv);
    const numbers = rows.map((row) => row.number);
    const ofBooking = journal.filter((line) => numbers.includes(line[1] ?? ""));
    expect(ofBooking.map((line) => line[2])).toEqual([
      "Facture réglée par bon cadeau",
      "Facture réglée par bon cadeau",
      "Facture",
    ]);
    const receipts = parseAccountingCsv((await receiptsBook(period)).csv);
    const final = rows.find((row) => row.kind === "final");
    const paid = receipts.filter((line) => line[1] === final?.number);
    expect(paid).toHaveLength(1);
    expect(paid[0]?.[4]).toBe("70,00");
    const outstanding = parseAccountingCsv((await vouchersOutstanding(today)).csv);
    const left = outstanding.find((line) => line[0] === gift.code);
    expect(left?.join(";")).toContain("30,00");

    // The balance order refunded in full: a credit note of the final invoice only; the voucher's use stands.
    const refund = await requestRefund(orderId ?? "", 7_000, "Erreur");
    await markRefundedOffline(refund.id);
    expect(await bookingTtc(made.id)).toBe(5_000);
    expect(plain((await recordedBalance(made.id))?.sentence)).toMatch(
      /^70 € réglés le .+, remboursés depuis, et 20 € par le bon cadeau/,
    );
    expect(await voucherRow(gift.voucherId)).toMatchObject({ balanceCents: 3_000 });
    expect((await verifyJournal()).ok).toBe(true);
  });

  it("posted twice at the same moment takes one use and makes one order", async () => {
    const made = await bookedWithArrhes("solde-twice@example.test");
    const gift = await amountVoucher(50);
    const entry = {
      bookingId: made.id,
      amountCents: 7_000,
      means: "cash" as const,
      voucher: { code: gift.code, amountCents: 2_000 },
    };
    const [a, b] = await Promise.all([recordBalancePaid(entry), recordBalancePaid(entry)]);
    expect(a).toEqual(b);
    expect(await usesOf(gift.voucherId)).toHaveLength(1);
    expect(await balanceOrders(made.id)).toHaveLength(1);
    expect(await voucherRow(gift.voucherId)).toMatchObject({ balanceCents: 3_000 });
    expect(await bookingTtc(made.id)).toBe(12_000);
  });

  it("two different entries at once, one whole by the voucher: one is recorded, the other refused in French, the voucher taken once", async () => {
    const made = await bookedWithArrhes("solde-two-entries@example.test");
    const gift = await amountVoucher(100);
    const outcomes = await Promise.allSettled([
      recordBalancePaid({
        bookingId: made.id,
        amountCents: 0,
        means: "cash",
        voucher: { code: gift.code, amountCents: 9_000 },
      }),
      recordBalancePaid({
        bookingId: made.id,
        amountCents: 7_000,
        means: "cash",
        voucher: { code: gift.code, amountCents: 2_000 },
      }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const refusal = outcomes.find((outcome) => outcome.status === "rejected");
    expect(refusal?.reason).toBeInstanceOf(PaymentRefusedError);
    expect(await usesOf(gift.voucherId)).toHaveLength(1);
    expect(await bookingTtc(made.id)).toBe(12_000);
  });

  it("refuses a voucher expired, cancelled, of a session, or with a refund on its way, taking nothing and making no order", async () => {
    const made = await bookedWithArrhes("solde-refusals@example.test");
    const attempt = (code: string) => entryOutcome(made.id, 7_000, { code, amountCents: 2_000 });

    const expired = await amountVoucher(50);
    await db()
      .update(vouchers)
      .set({ expiresOn: "2020-01-01" })
      .where(eq(vouchers.id, expired.voucherId));
    expect(await attempt(expired.code)).toMatch(/^Ce bon a expiré le /);

    const cancelled = await amountVoucher(50);
    await db()
      .update(vouchers)
      .set({ status: "cancelled", cancelledAt: new Date() })
      .where(eq(vouchers.id, cancelled.voucherId));
    expect(await attempt(cancelled.code)).toBe("Ce bon a été annulé.");

    const session = await placeVoucherOrder(
      voucherOrderOf({ kind: "session", sessionTypeId: depositType, studioSlug: null, euros: 120 }),
    );
    await markPaidOffline(session.orderId, "cash");
    const sessionCode = formatVoucherCode((await voucherRow(session.voucherId)).code ?? "");
    expect(await attempt(sessionCode)).toMatch(/^Ce bon offre une séance/);

    const held = await amountVoucher(50);
    await requestRefund(held.orderId, 4_000, "Geste commercial");
    expect(await attempt(held.code)).toMatch(/Il ne reste que 10 € utilisables sur ce bon/);
    expect(await attempt("ABCD")).toMatch(/caractères/);

    expect(await balanceOrders(made.id)).toEqual([]);
    expect(await recordedBalance(made.id)).toBeNull();
    for (const id of [expired.voucherId, cancelled.voucherId, held.voucherId]) {
      expect(await usesOf(id)).toEqual([]);
    }
  });

  it("under the franchise: no use invoice, the final invoice bills the money only", async () => {
    await setLegal(completeLegal);
    try {
      const made = await bookedWithArrhes("solde-franchise@example.test");
      const gift = await amountVoucher(50);
      const { orderId } = await recordBalancePaid({
        bookingId: made.id,
        amountCents: 7_000,
        means: "cash",
        voucher: { code: gift.code, amountCents: 2_000 },
      });
      const [final] = await db()
        .select()
        .from(invoices)
        .where(eq(invoices.orderId, orderId ?? ""));
      expect(final).toMatchObject({ kind: "final", ttcCents: 7_000, vatCents: 0 });
      expect(await invoicesOfBooking(made.id)).toHaveLength(1);
    } finally {
      await setLegal(subjectToVat);
    }
  });

  it("identity incomplete, the balance paid whole by a voucher: its use is invoiced as the balance by the catch-up", async () => {
    await setLegal(structuredClone(seedDocuments.legal));
    try {
      const made = await bookedWithArrhes("solde-held@example.test");
      const gift = await amountVoucher(100);
      await recordBalancePaid({
        bookingId: made.id,
        amountCents: 0,
        means: "cash",
        voucher: { code: gift.code, amountCents: 9_000 },
      });
      expect(await invoicesOfBooking(made.id)).toEqual([]);
      await setLegal(subjectToVat);
      await issueMissingInvoices();
      const documents = await invoicesOfBooking(made.id);
      expect(documents.map(({ kind, ttcCents }) => ({ kind, ttcCents }))).toEqual([
        { kind: "voucher_use", ttcCents: 3_000 },
        { kind: "voucher_use", ttcCents: 9_000 },
      ]);
      const [use] = await db()
        .select()
        .from(invoices)
        .where(eq(invoices.number, documents[1]?.number ?? ""));
      expect(use?.lines[0]?.label).toMatch(/^Solde : Portrait au solde du /);
      expect(use?.buyer).toMatchObject({ name: "Léa Martin", email: "solde-held@example.test" });
    } finally {
      await setLegal(subjectToVat);
    }
  });

  it("cancelled then purged: the balance use stays taken (documented), the voucher's outstanding and journal agree", async () => {
    const made = await bookedWithArrhes("solde-purge@example.test");
    const gift = await amountVoucher(100);
    await recordBalancePaid({
      bookingId: made.id,
      amountCents: 0,
      means: "cash",
      voucher: { code: gift.code, amountCents: 9_000 },
    });
    await cancelBooking(made.id, { actor: "owner", userId: null, name: "Camille" });
    expect(await voucherRow(gift.voucherId)).toMatchObject({ balanceCents: 1_000 });
    const [use] = await usesOf(gift.voucherId);
    expect(use).toMatchObject({ cancelledAt: null, balanceOfBookingId: made.id });

    await db()
      .update(bookings)
      .set({ endsAt: new Date("2020-01-01"), startsAt: new Date("2019-12-31T23:00:00Z") })
      .where(eq(bookings.id, made.id));
    await db().execute(sql`update bookings set updated_at = '2020-01-01' where id = ${made.id}`);
    expect(await purgeOldBookings(db())).toBeGreaterThanOrEqual(1);
    const [after] = await usesOf(gift.voucherId);
    expect(after).toMatchObject({ balanceOfBookingId: null, amountCents: 9_000 });
    const outstanding = parseAccountingCsv(
      (await vouchersOutstanding(isoDayInParis(new Date()))).csv,
    );
    expect(outstanding.find((line) => line[0] === gift.code)?.join(";")).toContain("10,00");
    expect((await verifyJournal()).ok).toBe(true);
  });
});
