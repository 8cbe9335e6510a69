import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { DepositRule } from "~/lib/booking/deposit";
import { instantLabelFr } from "~/lib/booking/words";
import { formatDateFr } from "~/lib/dates";
import { formatVoucherCode } from "~/lib/vouchers/code";
import {
  EVERY_DAY,
  distinctSlots,
  insertSessionType,
  studioIds,
} from "../../../tests/support/booking";
import { useAppDatabase } from "../../../tests/support/database";
import { subjectToVat } from "../../../tests/support/seller";
import { placeVoucherOrder, voucherOrderOf, voucherRow } from "../../../tests/support/vouchers";
import { provideSiteOrderKinds } from "../boot/order-kinds.server";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { bookings, invoices, voucherUses } from "../db/schema";
import { invoicesOfBooking } from "../invoices/orders.server";
import { markPaidOffline } from "../payments/orders.server";
import { verifyJournal } from "../payments/journal.server";
import { cancelBooking, createBooking, declineRequest } from "./bookings.server";
import { depositForClient, recordBalancePaid } from "./deposits.server";
import { clientBookingEmail } from "./emails.server";
import { VoucherCodeRefusedError } from "./refusals.server";
import { voucherPaymentOfBooking } from "./vouchers.server";

// An amount voucher pays a booking's deposit (decision 0199) on a real PostgreSQL: all of it taken from
// its balance in the booking's transaction, the booking confirmed at once with the rules its client
// accepted, the use invoiced as the deposit (decision 0198); given back with its credit note when the
// booking is called off in time; deducted from the final invoice as a paid deposit's invoice is.

useAppDatabase({ jobs: true });

const RULE: DepositRule = {
  amount: "fixed",
  value: 3_000,
  priceCents: 12_000,
  nature: "arrhes",
  methods: ["card", "transfer"],
  transferHours: 24,
  refundAtOnce: false,
};

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

/** A paid amount voucher of `euros`; its id and typed code. */
async function amountVoucher(euros: number) {
  const { orderId, voucherId } = await placeVoucherOrder(voucherOrderOf({ kind: "amount", euros }));
  await markPaidOffline(orderId, "cash");
  const code = (await voucherRow(voucherId)).code ?? "";
  return { voucherId, code: formatVoucherCode(code) };
}

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

const plain = (text: string | undefined) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");

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
    });
    const row = await bookingRow(made.id);
    if (!row) throw new Error("no booking");
    const deposit = await depositForClient(row, 48, payment);
    expect(deposit?.lines.map(plain)).toEqual([
      `Arrhes de 30 € réglées par le bon cadeau ${voucher.code}.`,
      expect.stringContaining("arrhes"),
      "Annulée jusqu'à 48 h avant la séance, la somme revient sur votre bon cadeau ; après, elle reste acquise au studio.",
    ]);
    expect(plain(deposit?.onCancel ?? "")).toBe(
      `Les 30 € réglés par votre bon cadeau ${voucher.code} reviennent sur son solde.`,
    );
    const mail = await clientBookingEmail({ bookingId: made.id, event: "booked" });
    expect(plain(mail?.text)).toContain(`Arrhes de 30 € réglées par le bon cadeau ${voucher.code}`);

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
  });
});
