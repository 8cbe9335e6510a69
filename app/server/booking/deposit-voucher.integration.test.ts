import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { instantLabelFr } from "~/lib/booking/words";
import { seedDocuments } from "~/content/seed";
import { formatDateFr, isoDayInParis } from "~/lib/dates";
import {
  EVERY_DAY,
  distinctSlots,
  insertSessionType,
  studioIds,
} from "../../../tests/support/booking";
import { ARRHES_30_OF_120 } from "../../../tests/support/booking-deposits";
import { lockWaiters, useAppDatabase } from "../../../tests/support/database";
import { parseAccountingCsv } from "../../../tests/support/accounting-csv";
import { subjectToVat } from "../../../tests/support/seller";
import { paidAmountVoucher, voucherRow } from "../../../tests/support/vouchers";
import { provideSiteOrderKinds } from "../boot/order-kinds.server";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { bookings, invoices, orders, voucherUses, vouchers } from "../db/schema";
import { env } from "../env.server";
import { invoicesOfBooking, issueMissingInvoices } from "../invoices/orders.server";
import { clientInvoicesOfBooking, useInvoicesHeld } from "../invoices/voucher-uses.server";
import { createOrder, markRefundedOffline, requestRefund } from "../payments/orders.server";
import { vouchersOutstanding } from "../accounting/exports.server";
import { voucherPage } from "../vouchers/admin-vouchers.server";
import { cancelIssuedVoucher } from "../vouchers/order-kind.server";
import { takeBalanceFromVoucher } from "../vouchers/redemption.server";
import { verifyJournal } from "../payments/journal.server";
import { cancelBooking, createBooking, declineRequest } from "./bookings.server";
import {
  depositForClient,
  depositForOwner,
  recordBalancePaid,
  recordedBalance,
} from "./deposits.server";
import { clientBookingEmail, ownerBookingEmail } from "./emails.server";
import { VoucherCodeRefusedError } from "./refusals.server";
import { voucherForOwner, voucherPaymentOfBooking } from "./vouchers.server";

// An amount voucher pays a booking's deposit (decision 0199) on a real PostgreSQL: all of it taken from
// its balance in the booking's transaction, the booking confirmed at once with the rules its client
// accepted, the use invoiced as the deposit (decision 0198); given back with its credit note when the
// booking is called off in time; deducted from the final invoice as a paid deposit's invoice is.

useAppDatabase({ jobs: true });

const RULE = ARRHES_30_OF_120;

let brive = "";
let depositType = "";
let requestType = "";
let typeName = "";
/** A distinct hour from 3 days on: before the cut-off, the client may cancel online. */
const nextSlot = distinctSlots(3);

beforeAll(async () => {
  provideSiteOrderKinds();
  await saveDocument("legal", subjectToVat, { id: "", name: "Camille" }, "test");
  ({ brive } = await studioIds());
  typeName = "Portrait en arrhes";
  depositType = await insertSessionType([brive], {
    name: typeName,
    bookableHours: EVERY_DAY,
    stepMinutes: 60,
    deposit: RULE,
  });
  requestType = await insertSessionType([brive], {
    name: "Portrait sur demande",
    mode: "request",
    bookableHours: EVERY_DAY,
    stepMinutes: 60,
    deposit: RULE,
  });
});

const amountVoucher = (euros: number) => paidAmountVoucher(euros);

const book = (voucherCode: string, email: string, sessionTypeId = depositType) =>
  createBooking({
    studioId: brive,
    sessionTypeId,
    slot: nextSlot(),
    client: { name: "Léa Martin", email, phone: "" },
    consentAt: new Date(),
    voucherCode,
  });

const bookingRow = async (id: string) =>
  (await db().select().from(bookings).where(eq(bookings.id, id)))[0];

const owner = { actor: "owner" as const, userId: null, name: "Camille" };

const plain = (text: string | null | undefined) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");

/** What her booking's page lists under « Factures »: each document's kind, number and amount. */
const herInvoices = async (bookingId: string) =>
  (await clientInvoicesOfBooking(bookingId)).map((each) => [each.kind, each.number, each.ttcCents]);

describe("an amount voucher paying a deposit", () => {
  it("takes the whole deposit, confirms the booking and invoices the arrhes; cancelled in time, gives it back with a credit note", async () => {
    const voucher = await amountVoucher(50);
    const made = await book(voucher.code, "lea-bon-arrhes@example.test");
    expect(made.state).toBe("confirmed");
    expect(made.deposit).toBeNull();
    expect(await bookingRow(made.id)).toMatchObject({
      state: "confirmed",
      depositRules: RULE,
      depositOrderId: null,
    });
    expect(await voucherRow(voucher.voucherId)).toMatchObject({
      status: "active",
      balanceCents: 2_000,
    });

    const [invoice, ...more] = await invoicesOfBooking(made.id);
    expect(more).toEqual([]);
    expect(invoice).toMatchObject({ kind: "voucher_use", ttcCents: 3_000 });
    const [issued] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.number, invoice?.number ?? ""));
    expect(issued).toMatchObject({
      vatCents: 500,
      bookingId: made.id,
      buyer: { name: "Léa Martin", email: "lea-bon-arrhes@example.test", address: null },
      lines: [
        {
          label: `Arrhes : ${typeName} du ${instantLabelFr(made.startsAt)} (réglé par le bon cadeau ${voucher.code})`,
          unitPriceCents: 3_000,
          vatRate: 2000,
        },
      ],
    });

    // What she reads: on her page, the rules she accepted and where the sum goes if she cancels.
    const payment = await voucherPaymentOfBooking(made.id);
    expect(payment).toEqual({
      code: voucher.code,
      kind: "amount",
      amountCents: 3_000,
      nature: "arrhes",
      lost: null,
      expiredOn: null,
    });
    const row = await bookingRow(made.id);
    if (!row) throw new Error("no booking");
    const deposit = await depositForClient(row, 48, payment);
    expect(deposit?.lines.map(plain)).toEqual([
      `Arrhes de 30 € réglées par le bon cadeau ${voucher.code}.`,
      expect.stringContaining("arrhes"),
      "Annulée en ligne jusqu'à 48 h avant la séance, ou par le studio, la somme revient sur votre bon cadeau ; après ce délai, elle reste acquise au studio.",
    ]);
    expect(plain(deposit?.onCancel ?? "")).toBe(
      `Les 30 € réglés par votre bon cadeau ${voucher.code} reviennent sur son solde.`,
    );
    const mail = await clientBookingEmail({ bookingId: made.id, event: "booked" });
    expect(plain(mail?.text)).toContain(`Arrhes de 30 € réglées par le bon cadeau ${voucher.code}`);
    // Its invoice is hers, from her booking's page (she has no order): listed there, linked by her e-mails.
    const invoiceUrl = `${env().SITE_URL}/reservation/${made.manageToken}/facture/${invoice?.number}.pdf`;
    expect(plain(mail?.text)).toContain(
      `Arrhes de 30 € réglées par le bon cadeau ${voucher.code}\nFacture : ${invoiceUrl}\n`,
    );
    expect(mail?.html).toContain(`<li>Facture : ${invoiceUrl}</li>`);
    expect((await clientInvoicesOfBooking(made.id)).map((each) => each.number)).toEqual([
      invoice?.number,
    ]);

    await cancelBooking(made.id, { actor: "client" });
    expect(await voucherRow(voucher.voucherId)).toMatchObject({
      status: "active",
      balanceCents: 5_000,
    });
    const [use] = await db().select().from(voucherUses).where(eq(voucherUses.bookingId, made.id));
    expect(use?.cancelledAt).not.toBeNull();
    const notes = await db()
      .select()
      .from(invoices)
      .where(
        and(eq(invoices.kind, "credit_note"), eq(invoices.creditedInvoiceId, issued?.id ?? "")),
      );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ ttcCents: -3_000, vatCents: -500, bookingId: made.id });
    expect(await voucherPaymentOfBooking(made.id)).toBeNull();
    expect((await verifyJournal()).ok).toBe(true);
    // Her page then says where the sum went, not that a deposit is to be paid.
    const after = await bookingRow(made.id);
    if (!after) throw new Error("no booking");
    expect((await depositForClient(after, 48, null))?.lines.map(plain)).toEqual([
      `Arrhes de 30 € réglées par le bon cadeau ${voucher.code} : rendues sur votre bon cadeau.`,
    ]);
    // Her cancellation e-mail says it too, and the owner's copy.
    const cancelled = await clientBookingEmail({ bookingId: made.id, event: "cancelled" });
    expect(plain(cancelled?.text)).toContain(
      `Arrhes de 30 € réglées par le bon cadeau ${voucher.code} : rendues sur votre bon cadeau.`,
    );
    // Given back, the invoice is no longer said; her page lists it with the credit note that cancels it.
    expect(cancelled?.text).not.toContain("Facture : ");
    expect(await herInvoices(made.id)).toEqual([
      ["voucher_use", invoice?.number, 3_000],
      ["credit_note", notes[0]?.number, -3_000],
    ]);
    const ownersCopy = await ownerBookingEmail({ bookingId: made.id, event: "cancelled" });
    expect(plain(ownersCopy?.text)).toContain(
      `Arrhes de 30 € réglées par le bon cadeau ${voucher.code} : rendues sur son bon cadeau.`,
    );
    // The owner's voucher card no longer lists the credited invoice.
    const card = (await voucherPage({ status: null, search: voucher.code }, null)).rows.find(
      (candidate) => candidate.id === voucher.voucherId,
    );
    expect(card?.useInvoices).toEqual([]);
  });

  it("gives the arrhes back when the studio cancels after the cut-off, and says the law owes twice", async () => {
    const voucher = await amountVoucher(50);
    const made = await book(voucher.code, "lea-bon-studio@example.test");
    await cancelBooking(made.id, owner, { now: new Date(made.startsAt.getTime() - 3_600_000) });
    expect(await voucherRow(voucher.voucherId)).toMatchObject({
      status: "active",
      balanceCents: 5_000,
    });
    const seen = await depositForOwner(made.id);
    expect(seen?.orderId).toBeNull();
    expect(seen?.lines.map(plain)).toEqual([
      `Arrhes de 30 € réglées par le bon cadeau ${voucher.code} : rendues sur son bon cadeau.`,
      expect.stringContaining("arrhes"),
      "Vous avez annulé une séance réservée avec des arrhes : la loi (article L214-1 du Code de la consommation) vous oblige à rendre le double, soit 60 €. Les 30 € sont revenus sur son bon cadeau ; versez la même somme en plus à la cliente.",
    ]);
  });

  it("comes back on a voucher a partial refund emptied, less what the refunds gave back beyond its balance", async () => {
    // 50 € voucher, 30 € of arrhes: 20 € left, refunded; the 30 € stay hers.
    const first = await amountVoucher(50);
    const kept = await book(first.code, "lea-bon-rembourse@example.test");
    const gesture = await requestRefund(first.orderId, 2_000, "Geste commercial");
    await markRefundedOffline(gesture.id);
    expect(await voucherRow(first.voucherId)).toMatchObject({
      status: "cancelled",
      balanceCents: 0,
    });
    await cancelBooking(kept.id, { actor: "client" });
    expect(await voucherRow(first.voucherId)).toMatchObject({
      status: "active",
      balanceCents: 3_000,
      cancelledAt: null,
    });
    // 40 € refunded of the same: 20 € came off the balance, 20 € of the arrhes went back in money.
    const second = await amountVoucher(50);
    const refunded = await book(second.code, "lea-bon-rembourse-plus@example.test");
    const more = await requestRefund(second.orderId, 4_000, "Geste commercial");
    await markRefundedOffline(more.id);
    await cancelBooking(refunded.id, { actor: "client" });
    expect(await voucherRow(second.voucherId)).toMatchObject({
      status: "active",
      balanceCents: 1_000,
    });
    expect((await verifyJournal()).ok).toBe(true);
    const outstanding = parseAccountingCsv(
      (await vouchersOutstanding(isoDayInParis(new Date()))).csv,
    );
    const leftOf = (code: string) => outstanding.find((row) => row[0] === code)?.[6];
    expect([leftOf(first.code), leftOf(second.code)]).toEqual(["30,00", "10,00"]);
  });

  it("held while the identity is incomplete, given back: waits for no invoice; kept: invoiced before the final invoice deducts it", async () => {
    await saveDocument(
      "legal",
      structuredClone(seedDocuments.legal),
      { id: "", name: "Camille" },
      "test",
    );
    try {
      const back = await amountVoucher(30);
      const cancelled = await book(back.code, "lea-bon-retenue@example.test");
      const kept = await amountVoucher(30);
      const made = await book(kept.code, "lea-bon-retenue-solde@example.test");
      expect(await useInvoicesHeld()).toBe(2);
      await cancelBooking(cancelled.id, { actor: "client" });
      expect(await useInvoicesHeld()).toBe(1);
      const { orderId } = await recordBalancePaid({
        bookingId: made.id,
        amountCents: 9_000,
        means: "cash",
      });
      await saveDocument("legal", subjectToVat, { id: "", name: "Camille" }, "test");
      await issueMissingInvoices();
      expect(await useInvoicesHeld()).toBe(0);
      expect(await invoicesOfBooking(cancelled.id)).toEqual([]);
      const [arrhes, final] = await invoicesOfBooking(made.id);
      expect(arrhes).toMatchObject({ kind: "voucher_use", ttcCents: 3_000 });
      expect(final).toMatchObject({ kind: "final", ttcCents: 9_000 });
      const [row] = await db().select().from(invoices).where(eq(invoices.orderId, orderId));
      expect(row?.sequence).toBeGreaterThan(Number(arrhes?.number.slice(-6)));
      expect(row?.lines.map((line) => line.label)).toContain(
        `Arrhes déjà facturées : facture ${arrhes?.number} du ${formatDateFr(arrhes?.issuedAt ?? "")}`,
      );
    } finally {
      await saveDocument("legal", subjectToVat, { id: "", name: "Camille" }, "test");
    }
  });

  it("whose order is refunded in full while it pays a deposit: the owner is warned, nobody is told the sum comes back", async () => {
    const voucher = await amountVoucher(50);
    const made = await book(voucher.code, "lea-bon-rembourse-entier@example.test");
    const refund = await requestRefund(voucher.orderId, 5_000, "Geste commercial");
    await markRefundedOffline(refund.id);
    expect(await voucherRow(voucher.voucherId)).toMatchObject({ status: "cancelled" });
    const warning = `Arrhes de 30 € réglées par le bon cadeau ${voucher.code}, dont la commande a été remboursée en entier : si cette séance est annulée, le bon ne redeviendra pas utilisable.`;
    expect(plain((await voucherForOwner(made.id)).line)).toBe(warning);
    const owners = await depositForOwner(made.id);
    expect(owners?.orderId).toBeNull();
    expect(owners?.lines.map(plain)).toEqual([warning, expect.stringContaining("arrhes")]);
    expect(plain(owners?.onCancel ?? "")).toBe(
      "Le bon ayant été remboursé, les 30 € réglés par son bon cadeau ne reviennent pas sur son solde.",
    );
    // Her e-mails about the booking warn her too (a move, say); the client's say what paid it.
    const ownersMail = await ownerBookingEmail({ bookingId: made.id, event: "moved" });
    expect(plain(ownersMail?.text)).toContain(warning);
    const clientsMail = await clientBookingEmail({ bookingId: made.id, event: "moved" });
    expect(plain(clientsMail?.text)).toContain(
      `Arrhes de 30 € réglées par le bon cadeau ${voucher.code}`,
    );
    expect(plain(clientsMail?.text)).not.toContain("remboursée en entier");
    const row = await bookingRow(made.id);
    if (!row) throw new Error("no booking");
    const client = await depositForClient(row, 48, await voucherPaymentOfBooking(made.id));
    expect(client?.lines.map(plain)).toEqual([
      `Arrhes de 30 € réglées par le bon cadeau ${voucher.code}.`,
      expect.stringContaining("arrhes"),
      "Le bon ayant été remboursé, la somme ne revient pas sur le bon si la séance est annulée.",
    ]);
    expect(plain(client?.onCancel ?? "")).toBe(
      `Le bon ayant été remboursé, les 30 € réglés par votre bon cadeau ${voucher.code} ne reviennent pas sur son solde.`,
    );

    // Called off with the arrhes kept (after the cut-off: the use stands), the warning is moot: the
    // owner's page and e-mail say what paid it, no more.
    await db().update(bookings).set({ state: "cancelled" }).where(eq(bookings.id, made.id));
    const paid = `Arrhes de 30 € réglées par le bon cadeau ${voucher.code}`;
    const cancelledMail = plain(
      (await ownerBookingEmail({ bookingId: made.id, event: "cancelled" }))?.text,
    );
    expect(cancelledMail).toContain(paid);
    expect(cancelledMail).not.toContain("si cette séance est annulée");
    expect((await depositForOwner(made.id))?.lines.map(plain)[0]).toBe(`${paid}.`);
  });

  it("whose order was refunded in full, once the booking is cancelled: not said « rendues sur … bon cadeau », the voucher stayed cancelled", async () => {
    const voucher = await amountVoucher(50);
    const made = await book(voucher.code, "lea-bon-rembourse-annule@example.test");
    const refund = await requestRefund(voucher.orderId, 5_000, "Geste commercial");
    await markRefundedOffline(refund.id);
    await cancelBooking(made.id, { actor: "client" });
    expect(await voucherRow(voucher.voucherId)).toMatchObject({ status: "cancelled" });
    expect((await verifyJournal()).ok).toBe(true);
    const kept = `Arrhes de 30 € réglées par le bon cadeau ${voucher.code} : le bon ayant été remboursé, elles ne reviennent pas sur le bon.`;
    const row = await bookingRow(made.id);
    if (!row) throw new Error("no booking");
    expect((await depositForClient(row, 48, null))?.lines.map(plain)).toEqual([kept]);
    expect((await depositForOwner(made.id))?.lines.map(plain)).toEqual([
      kept,
      expect.stringContaining("arrhes"),
    ]);
    const mail = await clientBookingEmail({ bookingId: made.id, event: "cancelled" });
    expect(plain(mail?.text)).toContain(kept);
    expect(plain(mail?.text)).not.toContain("rendues sur votre bon cadeau");
  });

  it("refuses, in French, a voucher whose balance does not cover the deposit, and takes nothing", async () => {
    const voucher = await amountVoucher(20);
    const refused = await book(voucher.code, "lea-bon-court@example.test").catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(VoucherCodeRefusedError);
    expect(plain((refused as VoucherCodeRefusedError).message)).toBe(
      "Ce bon ne couvre pas les 30 € à régler d'avance : il ne reste que 20 € sur ce bon. Effacez le code pour régler cette somme autrement ; le bon servira au studio.",
    );
    expect(await voucherRow(voucher.voucherId)).toMatchObject({
      status: "active",
      balanceCents: 2_000,
    });
    const left = await db()
      .select()
      .from(bookings)
      .where(eq(bookings.clientEmail, "lea-bon-court@example.test"));
    expect(left).toEqual([]);
  });

  it("holds a request's deposit on the voucher, and gives it back when the owner declines", async () => {
    const voucher = await amountVoucher(30);
    const asked = await book(voucher.code, "lea-bon-demande@example.test", requestType);
    expect(asked.state).toBe("pending");
    expect(await voucherRow(voucher.voucherId)).toMatchObject({
      status: "used",
      balanceCents: 0,
    });
    await declineRequest(asked.id, { actor: "owner", userId: null, name: "Camille" });
    expect(await voucherRow(voucher.voucherId)).toMatchObject({
      status: "active",
      balanceCents: 3_000,
    });
    const mail = await clientBookingEmail({ bookingId: asked.id, event: "declined" });
    expect(plain(mail?.text)).toContain(
      `Arrhes de 30 € réglées par le bon cadeau ${voucher.code} : rendues sur votre bon cadeau.`,
    );
  });

  it("is deducted by the final invoice as a paid deposit's invoice is", async () => {
    const voucher = await amountVoucher(30);
    const made = await book(voucher.code, "lea-bon-solde@example.test");
    const [deposit] = await invoicesOfBooking(made.id);
    const { orderId } = await recordBalancePaid({
      bookingId: made.id,
      amountCents: 9_000,
      means: "cash",
    });
    const [final] = await db().select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(final?.lines).toEqual([
      {
        label: `${typeName} du ${instantLabelFr(made.startsAt)}`,
        quantity: 1,
        unitPriceCents: 12_000,
        vatRate: 2000,
      },
      {
        label: `Arrhes déjà facturées : facture ${deposit?.number} du ${formatDateFr(deposit?.issuedAt ?? "")}`,
        quantity: 1,
        unitPriceCents: -3_000,
        vatRate: 2000,
      },
    ]);
    expect(final).toMatchObject({ kind: "final", ttcCents: 9_000, vatCents: 1_500 });
    // Her booking's page lists the use's invoice and the final invoice: no other page of hers serves
    // the balance order's (decision 0201, amended); then the credit note of a part given back.
    expect((await clientInvoicesOfBooking(made.id)).map((each) => each.number)).toEqual([
      deposit?.number,
      final?.number,
    ]);
    const gesture = await requestRefund(orderId, 2_000, "Geste commercial");
    await markRefundedOffline(gesture.id);
    const [note] = await db()
      .select()
      .from(invoices)
      .where(
        and(eq(invoices.kind, "credit_note"), eq(invoices.creditedInvoiceId, final?.id ?? "")),
      );
    expect(note).toMatchObject({ ttcCents: -2_000, orderId });
    expect(await herInvoices(made.id)).toEqual([
      ["voucher_use", deposit?.number, 3_000],
      ["final", final?.number, 9_000],
      ["credit_note", note?.number, -2_000],
    ]);
  });
});

describe("an amount voucher's deposit given back at the same time as something else", () => {
  it("stays cancelled when the owner cancels the voucher while the booking gives its arrhes back", async () => {
    const voucher = await amountVoucher(50);
    const made = await book(voucher.code, "lea-bon-annule@example.test");
    expect(await voucherRow(voucher.voucherId)).toMatchObject({ balanceCents: 2_000 });
    // The owner's « Annuler le bon » holds the voucher's row while the client's cancellation comes: the
    // give-back waits for it, then finds the voucher cancelled (without the lock it read the voucher
    // active, then wrote it back active with 50 €).
    const cancelling = await db().transaction(async (tx) => {
      await tx.select().from(vouchers).where(eq(vouchers.id, voucher.voucherId)).for("update");
      const cancellation = cancelBooking(made.id, { actor: "client" });
      await expect.poll(() => lockWaiters(tx)).toBe(1);
      await cancelIssuedVoucher(tx, voucher.orderId, { reason: "Bon perdu" });
      return { cancellation };
    });
    await cancelling.cancellation;
    expect(await voucherRow(voucher.voucherId)).toMatchObject({
      status: "cancelled",
      balanceCents: 5_000,
    });
    expect((await verifyJournal()).ok).toBe(true);
  });

  it("gives back the arrhes' TVA for what a refund of the voucher's order took beyond its balance", async () => {
    /** What stands of a booking's arrhes invoice, and its credit notes' amounts, in cents. */
    const arrhesOf = async (bookingId: string) => {
      const rows = await db().select().from(invoices).where(eq(invoices.bookingId, bookingId));
      const arrhes = rows.find((row) => row.kind === "voucher_use");
      const notes = rows.filter((row) => row.creditedInvoiceId === arrhes?.id);
      return {
        standing: notes.reduce((sum, note) => sum + note.ttcCents, arrhes?.ttcCents ?? 0),
        notes: notes.map((note) => note.ttcCents),
      };
    };
    // 50 € voucher, 30 € of arrhes, 40 € refunded: 20 € came off the balance, 20 € of the arrhes went back
    // in money, their TVA with them.
    const held = await amountVoucher(50);
    const goesAhead = await book(held.code, "lea-bon-tva@example.test");
    const refund = await requestRefund(held.orderId, 4_000, "Geste commercial");
    await markRefundedOffline(refund.id);
    expect(await arrhesOf(goesAhead.id)).toEqual({ standing: 1_000, notes: [-2_000] });
    // The session goes ahead: the final invoice deducts the 10 € that stand of the arrhes.
    const { orderId } = await recordBalancePaid({
      bookingId: goesAhead.id,
      amountCents: 11_000,
      means: "cash",
    });
    const [final] = await db().select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(final?.lines[1]?.unitPriceCents).toBe(-1_000);
    expect(final).toMatchObject({ ttcCents: 11_000 });

    // The same, the booking then cancelled in time: 10 € back on the voucher, credited; nothing stands.
    const back = await amountVoucher(50);
    const cancelled = await book(back.code, "lea-bon-tva-annule@example.test");
    const again = await requestRefund(back.orderId, 4_000, "Geste commercial");
    await markRefundedOffline(again.id);
    await cancelBooking(cancelled.id, { actor: "client" });
    expect(await voucherRow(back.voucherId)).toMatchObject({ balanceCents: 1_000 });
    expect(await arrhesOf(cancelled.id)).toEqual({ standing: 0, notes: [-2_000, -1_000] });
  });

  it("comes back expired, not active, to a voucher past its last day", async () => {
    const voucher = await amountVoucher(30);
    const made = await book(voucher.code, "lea-bon-expire@example.test");
    expect(await voucherRow(voucher.voucherId)).toMatchObject({ status: "used" });
    await db()
      .update(vouchers)
      .set({ expiresOn: "2026-03-31" })
      .where(eq(vouchers.id, voucher.voucherId));
    await cancelBooking(made.id, { actor: "client" });
    expect(await voucherRow(voucher.voucherId)).toMatchObject({
      status: "expired",
      balanceCents: 3_000,
    });

    // She is told the truth, and the way out: not « rendues sur votre bon cadeau. » alone, a value she
    // cannot use; the owner, that it came back expired and where to extend it.
    const paid = `Arrhes de 30 € réglées par le bon cadeau ${voucher.code}`;
    const mail = plain(
      (await clientBookingEmail({ bookingId: made.id, event: "cancelled" }))?.text,
    );
    expect(mail).toContain(
      `${paid} : rendues sur votre bon cadeau, mais sa validité a pris fin le 31 mars 2026. Le studio peut le prolonger : répondez à cet e-mail.`,
    );
    const row = await bookingRow(made.id);
    if (!row) throw new Error("no booking");
    expect((await depositForClient(row, 48, null))?.lines.map(plain)).toEqual([
      `${paid} : rendues sur votre bon cadeau, mais sa validité a pris fin le 31 mars 2026. Le studio peut le prolonger : contactez-le.`,
    ]);
    const owners = `${paid} : rendues sur son bon cadeau, expiré depuis sa fin de validité le 31 mars 2026 : la cliente ne peut pas s'en servir tant que vous ne le prolongez pas.`;
    expect((await depositForOwner(made.id))?.lines.map(plain)).toEqual([
      owners,
      expect.stringContaining("arrhes"),
    ]);
    expect((await voucherForOwner(made.id)).toExtend).toBe(voucher.code);
    const ownersMail = plain(
      (await ownerBookingEmail({ bookingId: made.id, event: "cancelled" }))?.text,
    );
    expect(ownersMail).toContain(owners);
    expect(ownersMail).toContain(
      `Prolonger le bon : ${env().SITE_URL.replace(/\/$/, "")}/admin/bons-cadeaux?q=${voucher.code}`,
    );

    const line = async () =>
      (await voucherPage({ status: null, search: voucher.code }, null)).rows.find(
        (candidate) => candidate.id === voucher.voucherId,
      );
    expect((await line())?.expiredBackNote).toBe(
      "Revenu après sa fin de validité, par l'annulation d'une réservation : la cliente ne peut pas s'en servir tant que vous ne le prolongez pas (« Nouvelle fin de validité »).",
    );

    // Extended, it is usable again: nothing more to say than that the sum came back.
    await db()
      .update(vouchers)
      .set({ expiresOn: sql`current_date + 30`, status: "active" })
      .where(eq(vouchers.id, voucher.voucherId));
    expect((await depositForClient(row, 48, null))?.lines.map(plain)).toEqual([
      `${paid} : rendues sur votre bon cadeau.`,
    ]);
    expect((await voucherForOwner(made.id)).toExtend).toBeNull();
    expect((await line())?.expiredBackNote).toBeNull();
  });
});

// « Solde payé au studio » with an amount voucher (decision 0201): the voucher's part taken first as a use
// of the booking's balance, invoiced as that balance; the money's final invoice deducts it.
describe("a balance paid at the studio in part or whole by an amount voucher", () => {
  const balanceOrders = (bookingId: string) =>
    db()
      .select()
      .from(orders)
      .where(eq(orders.idempotencyKey, `booking-balance:${bookingId}`));

  it("takes the voucher's part as a use invoiced as the balance, and the final invoice deducts it with the arrhes", async () => {
    const arrhes = await amountVoucher(30);
    const made = await book(arrhes.code, "lea-solde-bon@example.test");
    const gift = await amountVoucher(50);
    const entry = {
      bookingId: made.id,
      amountCents: 7_000,
      means: "card_terminal" as const,
      voucher: { code: gift.code.toLowerCase().replaceAll("-", " "), amountCents: 2_000 },
    };
    const { orderId } = await recordBalancePaid(entry);
    // The same form posted again takes nothing more.
    expect(await recordBalancePaid(entry)).toEqual({ orderId });
    expect(await voucherRow(gift.voucherId)).toMatchObject({
      status: "active",
      balanceCents: 3_000,
    });
    const uses = await db()
      .select()
      .from(voucherUses)
      .where(eq(voucherUses.voucherId, gift.voucherId));
    expect(uses).toEqual([
      expect.objectContaining({
        amountCents: 2_000,
        bookingId: null,
        balanceOfBookingId: made.id,
        by: "owner",
      }),
    ]);

    const [deposit, use, final, ...more] = await invoicesOfBooking(made.id);
    expect(more).toEqual([]);
    expect(deposit).toMatchObject({ kind: "voucher_use", ttcCents: 3_000 });
    expect(use).toMatchObject({ kind: "voucher_use", ttcCents: 2_000 });
    const [useRow] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.number, use?.number ?? ""));
    expect(useRow).toMatchObject({
      vatCents: 333,
      bookingId: made.id,
      buyer: { name: "Léa Martin", email: "lea-solde-bon@example.test", address: null },
      lines: [
        {
          label: `Solde : ${typeName} du ${instantLabelFr(made.startsAt)} (réglé par le bon cadeau ${gift.code})`,
          unitPriceCents: 2_000,
          vatRate: 2000,
        },
      ],
    });
    expect(final).toMatchObject({ kind: "final", ttcCents: 7_000 });
    const [finalRow] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, orderId ?? ""));
    expect(finalRow?.lines).toEqual([
      {
        label: `${typeName} du ${instantLabelFr(made.startsAt)}`,
        quantity: 1,
        unitPriceCents: 12_000,
        vatRate: 2000,
      },
      {
        label: `Arrhes déjà facturées : facture ${deposit?.number} du ${formatDateFr(deposit?.issuedAt ?? "")}`,
        quantity: 1,
        unitPriceCents: -3_000,
        vatRate: 2000,
      },
      {
        label: `Réglé par le bon cadeau ${gift.code} : facture ${use?.number} du ${formatDateFr(use?.issuedAt ?? "")}`,
        quantity: 1,
        unitPriceCents: -2_000,
        vatRate: 2000,
      },
    ]);
    // The TVA of the 70 € received alone: 120 € less the 30 € and 20 € already invoiced.
    expect(finalRow).toMatchObject({ ttcCents: 7_000, vatCents: 1_167 });
    expect(finalRow?.paymentTerms).toMatch(
      /^Net à payer : 70,00\s€ \(arrhes déduites, bon cadeau déduit\)\./,
    );
    expect(plain((await recordedBalance(made.id))?.sentence)).toMatch(
      new RegExp(`^70 € réglés le .+, carte au studio, et 20 € par le bon cadeau ${gift.code}\\.$`),
    );
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });

  it("paid whole by the voucher: no order, the use's invoice is the balance's", async () => {
    const arrhes = await amountVoucher(30);
    const made = await book(arrhes.code, "lea-solde-bon-entier@example.test");
    const gift = await amountVoucher(100);
    const result = await recordBalancePaid({
      bookingId: made.id,
      amountCents: 0,
      means: "cash",
      voucher: { code: gift.code, amountCents: 9_000 },
    });
    expect(result).toEqual({ orderId: null });
    expect(await balanceOrders(made.id)).toEqual([]);
    expect(await voucherRow(gift.voucherId)).toMatchObject({ balanceCents: 1_000 });
    const documents = await invoicesOfBooking(made.id);
    expect(documents.map(({ kind, ttcCents }) => ({ kind, ttcCents }))).toEqual([
      { kind: "voucher_use", ttcCents: 3_000 },
      { kind: "voucher_use", ttcCents: 9_000 },
    ]);
    const recorded = await recordedBalance(made.id);
    expect(recorded).toMatchObject({
      orderId: null,
      amountCents: 0,
      voucher: { voucherId: gift.voucherId, code: gift.code, amountCents: 9_000 },
    });
    expect(plain(recorded?.sentence)).toBe(
      `90 € réglés le ${plain(formatDateFr(new Date()))} par le bon cadeau ${gift.code}.`,
    );
  });

  it("refuses a voucher with too little left, or another entry once one is recorded, taking nothing", async () => {
    const arrhes = await amountVoucher(30);
    const made = await book(arrhes.code, "lea-solde-bon-refus@example.test");
    const small = await amountVoucher(10);
    await expect(
      recordBalancePaid({
        bookingId: made.id,
        amountCents: 7_000,
        means: "cash",
        voucher: { code: small.code, amountCents: 2_000 },
      }),
    ).rejects.toThrow(/Il ne reste que 10\s€ sur ce bon\./);
    expect(await voucherRow(small.voucherId)).toMatchObject({ balanceCents: 1_000 });
    expect(await balanceOrders(made.id)).toEqual([]);
    expect(await recordedBalance(made.id)).toBeNull();

    await recordBalancePaid({ bookingId: made.id, amountCents: 9_000, means: "cash" });
    const gift = await amountVoucher(50);
    await expect(
      recordBalancePaid({
        bookingId: made.id,
        amountCents: 7_000,
        means: "cash",
        voucher: { code: gift.code, amountCents: 2_000 },
      }),
    ).rejects.toThrow(
      /^Le solde de cette séance est déjà enregistré : 90\s€ réglés le .+, espèces\. Pour le corriger, ouvrez sa commande\.$/,
    );
    expect(await voucherRow(gift.voucherId)).toMatchObject({ balanceCents: 5_000 });
  });

  it("goes on after an entry that stopped before its payment, and a held-back use is invoiced before the final invoice", async () => {
    await saveDocument(
      "legal",
      structuredClone(seedDocuments.legal),
      { id: "", name: "Camille" },
      "test",
    );
    try {
      const arrhes = await amountVoucher(30);
      const made = await book(arrhes.code, "lea-solde-bon-retenu@example.test");
      const gift = await amountVoucher(50);
      const entry = {
        bookingId: made.id,
        amountCents: 7_000,
        means: "cheque" as const,
        voucher: { code: gift.code, amountCents: 2_000 },
      };
      // An entry that stopped after its order and its voucher's part (one transaction), before its
      // payment: the booking's page offers the form again, and the same entry finishes it.
      const key = `booking-balance:${made.id}`;
      await createOrder({
        kind: "booking_balance",
        method: "studio",
        buyer: { name: "Léa Martin", email: "lea-solde-bon-retenu@example.test", phone: "" },
        termsAcceptedAt: new Date(),
        rulesSnapshot: {
          bookingId: made.id,
          startsAt: made.startsAt.toISOString(),
          sessionLabel: `${typeName} du ${instantLabelFr(made.startsAt)}`,
        },
        lines: [{ label: "Solde", quantity: 1, unitPriceCents: 7_000, vatRate: 2000 }],
        idempotencyKey: key,
        studioId: brive,
        inTransaction: async (tx) => {
          const taken = await takeBalanceFromVoucher(tx, {
            code: gift.code,
            amountCents: 2_000,
            bookingId: made.id,
            idempotencyKey: key,
          });
          if (!taken.ok) throw new Error(taken.message);
        },
      });
      expect(await recordedBalance(made.id)).toBeNull();
      const { orderId } = await recordBalancePaid(entry);
      expect(await voucherRow(gift.voucherId)).toMatchObject({ balanceCents: 3_000 });
      expect(await invoicesOfBooking(made.id)).toEqual([]);

      await saveDocument("legal", subjectToVat, { id: "", name: "Camille" }, "test");
      await issueMissingInvoices();
      const [deposit, use, final] = await invoicesOfBooking(made.id);
      expect(deposit).toMatchObject({ kind: "voucher_use", ttcCents: 3_000 });
      expect(use).toMatchObject({ kind: "voucher_use", ttcCents: 2_000 });
      expect(final).toMatchObject({ kind: "final", ttcCents: 7_000 });
      const [finalRow] = await db()
        .select()
        .from(invoices)
        .where(eq(invoices.orderId, orderId ?? ""));
      expect(finalRow?.sequence).toBeGreaterThan(Number(use?.number.slice(-6)));
      expect(finalRow?.lines.map((line) => line.label)).toContain(
        `Réglé par le bon cadeau ${gift.code} : facture ${use?.number} du ${formatDateFr(use?.issuedAt ?? "")}`,
      );
    } finally {
      await saveDocument("legal", subjectToVat, { id: "", name: "Camille" }, "test");
    }
  });
});
