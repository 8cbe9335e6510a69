import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { journalRowsOf, mailJobsOf, memoryCardProvider } from "../../../tests/support/payments";
import {
  placeVoucherOrder,
  voucherMailJobs,
  voucherOrderOf,
  voucherRow,
  voucherSettings,
} from "../../../tests/support/vouchers";
import { formatCents } from "~/lib/prices";
import { addCalendarDays } from "~/lib/vouchers/terms";
import { setClockForTests } from "../clock.server";
import { db } from "../db/client.server";
import {
  orders,
  paymentAttempts,
  siteDocuments,
  users,
  voucherExpiryChanges,
  vouchers,
} from "../db/schema";
import { applyPaymentStatus } from "../payments/apply-payment.server";
import { provideOrderKinds } from "../payments/order-kinds.server";
import { ownerPaymentEmail } from "../payments/emails.server";
import { acceptHeldPayment } from "../payments/held-payments.server";
import { markPaidOffline, markRefundedOffline, requestRefund } from "../payments/orders.server";
import {
  expireVouchers,
  extendVoucher,
  remindExpiringVouchers,
  withdrawVoucherOrder,
} from "./lifecycle.server";
import { voucherDeliveryEmail } from "./emails.server";
import { voucherOrderKind } from "./order-kind.server";
import { useAmountVoucher } from "./redemption.server";

// The end of a voucher's life on a real PostgreSQL (decision 0167): the buyer's withdrawal within 14 days
// while unused, the expiry and its reminder once, the owner's extension.

useAppDatabase({ jobs: true });

const card = memoryCardProvider();

beforeAll(() => {
  card.install();
  provideOrderKinds([voucherOrderKind]);
});
afterAll(() => card.uninstall());
afterEach(() => setClockForTests(null));

/** Monday 7 December 2026, 10:00 in Paris: the withdrawal period ends on Monday 21 December. */
const ORDERED = new Date("2026-12-07T09:00:00Z");

async function paidAmountVoucher(method: "transfer" | "card" = "transfer", euros = 80) {
  setClockForTests(ORDERED);
  const { orderId, voucherId } = await placeVoucherOrder(
    voucherOrderOf({ kind: "amount", euros }, { method }),
  );
  if (method === "card") {
    const [attempt] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, orderId));
    const reference = attempt?.providerReference ?? "";
    card.pay(reference, euros * 100);
    await applyPaymentStatus({
      provider: "stripe",
      providerReference: reference,
      status: "succeeded",
      amountCents: euros * 100,
      currency: "eur",
      paymentReference: `pi_${reference}`,
      source: "webhook",
    });
  } else {
    await markPaidOffline(orderId, "transfer");
  }
  const voucher = await voucherRow(voucherId);
  return { orderId, voucherId, code: voucher.code ?? "", expiresOn: voucher.expiresOn ?? "" };
}

/** The owner's validity of new vouchers (Réglages › Paiements), in months. */
async function setValidityMonths(months: number) {
  const [row] = await db()
    .select({ data: siteDocuments.data })
    .from(siteDocuments)
    .where(eq(siteDocuments.key, "payments"));
  await db()
    .update(siteDocuments)
    .set({ data: { ...(row?.data as object), voucherValidityMonths: months } })
    .where(eq(siteDocuments.key, "payments"));
}

/** The data of the owner's payment e-mails queued for an order, oldest first. */
async function ownerMailJobsOf(orderId: string): Promise<unknown[]> {
  const result = await db().execute<{ data: unknown }>(sql`
    select data from pgboss.job where name = 'mail' and data->>'kind' = 'payment-owner'
      and data->>'orderId' = ${orderId} order by created_on`);
  return result.rows.map((row) => row.data);
}

const orderStatus = async (orderId: string) =>
  (await db().select().from(orders).where(eq(orders.id, orderId)))[0]?.status;

describe("withdrawVoucherOrder", () => {
  it("refunds a card payment through the provider and cancels the voucher, on the period's last day", async () => {
    const { orderId, voucherId, code } = await paidAmountVoucher("card");
    setClockForTests(new Date("2026-12-21T21:00:00Z"));
    const refunded = card.calls.refund.length;
    const [refund, ...others] = await withdrawVoucherOrder(orderId);
    expect(others).toEqual([]);
    expect(refund).toMatchObject({ amountCents: 8_000, status: "succeeded" });
    expect(card.calls.refund.length).toBe(refunded + 1);
    expect(await voucherRow(voucherId)).toMatchObject({ status: "cancelled" });
    expect(await orderStatus(orderId)).toBe("refunded");
    // Refunded on her card by the provider: nothing for the owner to do, no e-mail to her.
    expect((await mailJobsOf(orderId)).filter((job) => job.startsWith("payment-owner"))).toEqual(
      [],
    );
    const journal = await journalRowsOf(orderId);
    expect(journal.map((row) => [row.kind, row.amountCents])).toEqual([
      ["payment", 8_000],
      ["voucher_issue", 8_000],
      ["voucher_cancellation", -8_000],
      ["refund", -8_000],
    ]);
    expect(await useAmountVoucher({ code, amountCents: 100 })).toMatchObject({
      ok: false,
      reason: "cancelled",
    });
    // Posted again (a double click, a second tab): answered as the first, never « n'est pas payée », and
    // nothing more asked of the provider or journalled.
    expect(await withdrawVoucherOrder(orderId)).toEqual([]);
    expect(card.calls.refund.length).toBe(refunded + 1);
    expect(await journalRowsOf(orderId)).toHaveLength(journal.length);
  });

  it("answers a withdrawal posted twice at once as the first, refunding once", async () => {
    const { orderId } = await paidAmountVoucher("transfer");
    const answers = await Promise.all([
      withdrawVoucherOrder(orderId),
      withdrawVoucherOrder(orderId),
    ]);
    expect(answers.map((asked) => asked.length).sort()).toEqual([0, 1]);
    const kinds = (await journalRowsOf(orderId)).map((row) => row.kind);
    expect(kinds.filter((kind) => kind === "voucher_cancellation")).toHaveLength(1);
  });

  it("tells a buyer refunded in full by the owner that her money came back, not that she never paid", async () => {
    const { orderId } = await paidAmountVoucher("transfer");
    const refund = await requestRefund(orderId, 8_000, "Annulation");
    await markRefundedOffline(refund.id);
    expect(await orderStatus(orderId)).toBe("refunded");
    await expect(withdrawVoucherOrder(orderId)).rejects.toMatchObject({
      code: "nothing_to_refund",
      message: expect.stringMatching(/^Le prix de cette commande vous a déjà été remboursé/),
    });
  });

  it("marks an offline payment for the owner to give back, the voucher cancelled at once", async () => {
    const { orderId, voucherId } = await paidAmountVoucher("transfer");
    const [refund] = await withdrawVoucherOrder(orderId);
    expect(refund).toMatchObject({ amountCents: 8_000, status: "to_refund_offline" });
    expect(await voucherRow(voucherId)).toMatchObject({ status: "cancelled" });
    // Nobody but the owner can give it back: she is told by e-mail, once, what and to whom.
    expect((await mailJobsOf(orderId)).filter((job) => job.startsWith("payment-owner"))).toEqual([
      "payment-owner:refund_to_make",
    ]);
    const [job] = await ownerMailJobsOf(orderId);
    const mail = await ownerPaymentEmail(job as Parameters<typeof ownerPaymentEmail>[0]);
    expect(mail?.subject).toBe(`Remboursement à faire : ${formatCents(8_000)} à Noël Lefèvre`);
    expect(mail?.text).toContain("a annulé sa commande dans le délai de rétractation de 14 jours");
    expect(mail?.text).toContain("le bon cadeau est annulé");
    expect(mail?.text).toContain("cliquez sur « Remboursé »");
    expect(mail?.text).toContain(`/admin/ventes/${orderId}`);
    await markRefundedOffline(refund?.id ?? "");
    // Given back before the e-mail left: nothing more to tell her.
    expect(await ownerPaymentEmail(job as Parameters<typeof ownerPaymentEmail>[0])).toBeNull();
    expect(await orderStatus(orderId)).toBe("refunded");
    // One cancellation row: the refund's completion finds the voucher already cancelled.
    const kinds = (await journalRowsOf(orderId)).map((row) => row.kind);
    expect(kinds.filter((kind) => kind === "voucher_cancellation")).toHaveLength(1);
  });

  it("after an earlier partial refund, refunds what is still paid and cancels the voucher for its balance", async () => {
    const { orderId, voucherId, code } = await paidAmountVoucher("transfer");
    // The owner's goodwill: 10 € given back, marked « Remboursé ».
    const goodwill = await requestRefund(orderId, 1_000, "Geste commercial");
    await markRefundedOffline(goodwill.id);
    expect(await orderStatus(orderId)).toBe("paid");

    const asked = await withdrawVoucherOrder(orderId);
    expect(asked.map((refund) => [refund.amountCents, refund.status, refund.reason])).toEqual([
      [7_000, "to_refund_offline", "Rétractation de l'acheteur"],
    ]);
    expect(await voucherRow(voucherId)).toMatchObject({ status: "cancelled" });
    expect(await useAmountVoucher({ code, amountCents: 100 })).toMatchObject({
      reason: "cancelled",
    });
    // A second click: answered as the first, nothing more asked.
    expect(await withdrawVoucherOrder(orderId)).toEqual([]);
    await markRefundedOffline(asked[0]?.id ?? "");
    expect(await orderStatus(orderId)).toBe("refunded");

    // The vouchers' rows sum to nothing owed; the money to nothing kept.
    const journal = await journalRowsOf(orderId);
    const sum = (kinds: string[]) =>
      journal
        .filter((row) => kinds.includes(row.kind))
        .reduce((total, row) => total + row.amountCents, 0);
    expect(sum(["voucher_issue", "voucher_redemption", "voucher_cancellation"])).toBe(0);
    expect(sum(["payment", "refund"])).toBe(0);
    expect(journal.filter((row) => row.kind === "refund").map((row) => row.amountCents)).toEqual([
      -1_000, -7_000,
    ]);
  });

  it("refunds what an accepted held payment took, below the voucher's price", async () => {
    setClockForTests(ORDERED);
    const { orderId, voucherId } = await placeVoucherOrder(
      voucherOrderOf({ kind: "amount", euros: 150 }, { method: "card" }),
    );
    const [attempt] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, orderId));
    const reference = attempt?.providerReference ?? "";
    card.pay(reference, 14_000);
    const report = {
      provider: "stripe" as const,
      providerReference: reference,
      status: "succeeded" as const,
      amountCents: 14_000,
      currency: "eur",
      paymentReference: `pi_${reference}`,
      source: "webhook" as const,
    };
    expect((await applyPaymentStatus(report)).outcome).toBe("held");
    expect((await acceptHeldPayment(orderId, attempt?.id ?? "")).outcome).toBe("applied");
    expect(await voucherRow(voucherId)).toMatchObject({ status: "active", balanceCents: 15_000 });

    const asked = await withdrawVoucherOrder(orderId);
    expect(asked.map((refund) => [refund.amountCents, refund.status])).toEqual([
      [14_000, "succeeded"],
    ]);
    expect(await orderStatus(orderId)).toBe("refunded");
    const journal = await journalRowsOf(orderId);
    expect(
      journal.filter((row) => row.kind !== "payment").map((row) => [row.kind, row.amountCents]),
    ).toEqual([
      ["voucher_issue", 15_000],
      ["voucher_cancellation", -15_000],
      ["refund", -14_000],
    ]);
  });

  it("cancels nothing when nothing is left to refund, and says so in French", async () => {
    const { orderId, voucherId } = await paidAmountVoucher("transfer");
    // The owner is giving it all back already (not marked « Remboursé » yet): the order is still paid.
    await requestRefund(orderId, 8_000, "Annulation");
    await expect(withdrawVoucherOrder(orderId)).rejects.toMatchObject({
      code: "nothing_to_refund",
      status: 409,
      message: expect.stringMatching(/^Le prix de cette commande vous a déjà été remboursé/),
    });
    expect(await voucherRow(voucherId)).toMatchObject({ status: "active", cancelledAt: null });
    const kinds = (await journalRowsOf(orderId)).map((row) => row.kind);
    expect(kinds).not.toContain("voucher_cancellation");
  });

  it("refuses in French after the period, and once the voucher has served", async () => {
    const late = await paidAmountVoucher();
    setClockForTests(new Date("2026-12-22T09:00:00Z"));
    await expect(withdrawVoucherOrder(late.orderId)).rejects.toThrow(
      "Le délai de rétractation est passé : il courait jusqu'au 21 décembre 2026.",
    );
    expect((await voucherRow(late.voucherId)).status).toBe("active");

    const used = await paidAmountVoucher();
    expect((await useAmountVoucher({ code: used.code, amountCents: 1_000 })).ok).toBe(true);
    await expect(withdrawVoucherOrder(used.orderId)).rejects.toThrow(/déjà servi/);
    expect(await voucherRow(used.voucherId)).toMatchObject({
      status: "active",
      balanceCents: 7_000,
    });
    expect(await orderStatus(used.orderId)).toBe("paid");
  });
});

describe("expiry", () => {
  it("marks vouchers past their last day expired, reminds once 30 days before, and the owner's extension revives one", async () => {
    const { voucherId, code, expiresOn } = await paidAmountVoucher();
    // Delivered to its buyer (what the delivery job's afterDelivery records).
    await db().update(vouchers).set({ deliveredAt: ORDERED }).where(eq(vouchers.id, voucherId));

    setClockForTests(new Date(`${addCalendarDays(expiresOn, -31)}T10:00:00Z`));
    await remindExpiringVouchers();
    expect((await voucherRow(voucherId)).reminderSentAt).toBeNull();

    setClockForTests(new Date(`${addCalendarDays(expiresOn, -30)}T10:00:00Z`));
    await remindExpiringVouchers();
    await remindExpiringVouchers();
    expect((await voucherRow(voucherId)).reminderSentAt).not.toBeNull();
    const reminders = (await voucherMailJobs({ voucherId })).filter(
      (job) => job.kind === "voucher-reminder",
    );
    expect(reminders).toHaveLength(1);

    setClockForTests(new Date(`${expiresOn}T12:00:00Z`));
    await expireVouchers();
    expect((await voucherRow(voucherId)).status).toBe("active");
    setClockForTests(new Date(`${addCalendarDays(expiresOn, 1)}T12:00:00Z`));
    await expireVouchers();
    expect((await voucherRow(voucherId)).status).toBe("expired");
    expect(await useAmountVoucher({ code, amountCents: 100 })).toMatchObject({
      reason: "expired",
    });

    await expect(extendVoucher(voucherId, expiresOn)).rejects.toThrow(/date à venir/);
    const later = addCalendarDays(expiresOn, 60);
    expect(await extendVoucher(voucherId, later)).toMatchObject({
      status: "active",
      expiresOn: later,
      reminderSentAt: null,
    });
    await expect(extendVoucher(voucherId, addCalendarDays(expiresOn, 30))).rejects.toThrow(
      /après sa fin actuelle/,
    );
    expect(await useAmountVoucher({ code, amountCents: 100 })).toMatchObject({ ok: true });
  });

  it("records each extension in the transaction that moves the last day, with the day it replaces", async () => {
    const { voucherId, expiresOn } = await paidAmountVoucher();
    await db()
      .insert(users)
      .values({ id: "owner-extends", name: "Camille", email: "c@example.test" });
    const at = new Date(`${addCalendarDays(expiresOn, 10)}T09:00:00Z`);
    setClockForTests(at);
    const later = addCalendarDays(expiresOn, 90);
    await extendVoucher(voucherId, later, "owner-extends");
    const changes = () =>
      db().select().from(voucherExpiryChanges).where(eq(voucherExpiryChanges.voucherId, voucherId));
    expect(await changes()).toEqual([
      expect.objectContaining({
        previousExpiresOn: expiresOn,
        newExpiresOn: later,
        at,
        by: "owner-extends",
      }),
    ]);
    // Written by the very transaction that moved the voucher's last day.
    const writers = await db().execute<{ same: boolean }>(sql`
      select v.xmin::text = c.xmin::text as same from vouchers v
      join voucher_expiry_changes c on c.voucher_id = v.id where v.id = ${voucherId}`);
    expect(writers.rows).toEqual([{ same: true }]);
    // A record that cannot be written (no such administrator) leaves the last day as it was.
    await expect(
      extendVoucher(voucherId, addCalendarDays(later, 30), "no-such-owner"),
    ).rejects.toThrow();
    expect((await voucherRow(voucherId)).expiresOn).toBe(later);
    expect(await changes()).toHaveLength(1);
  });

  it("counts a voucher sent on a later day from that day: never expired nor reminded before it is sent", async () => {
    const recipient = { name: "Élodie Françoise", email: `elodie-${randomUUID()}@example.test` };
    const gift = (deliveryDay: string) =>
      voucherOrderOf(
        { kind: "amount", euros: 80 },
        { sendTo: "recipient", recipient, deliveryDay },
      );
    const reminders = async (voucherId: string) =>
      (await voucherMailJobs({ voucherId })).filter((job) => job.kind === "voucher-reminder");

    // 12 months, paid on 7 December 2026, sent on 27 November 2027.
    setClockForTests(ORDERED);
    const yearly = await placeVoucherOrder(gift("2027-11-27"));
    await markPaidOffline(yearly.orderId, "transfer");
    expect((await voucherRow(yearly.voucherId)).expiresOn).toBe("2028-11-27");
    // 12 November 2027, 15 days before the gift's day: its code reaches no one.
    setClockForTests(new Date("2027-11-12T08:30:00Z"));
    await remindExpiringVouchers();
    expect(await reminders(yearly.voucherId)).toEqual([]);

    // 6 months, sent on 3 October 2027: still valid on 8 June 2027, and delivered on its day.
    await setValidityMonths(6);
    try {
      setClockForTests(ORDERED);
      const short = await placeVoucherOrder(gift("2027-10-03"), {
        settings: voucherSettings({ voucherValidityMonths: 6 }),
      });
      await markPaidOffline(short.orderId, "transfer");
      expect((await voucherRow(short.voucherId)).expiresOn).toBe("2028-04-03");
      setClockForTests(new Date("2027-06-08T08:30:00Z"));
      await expireVouchers();
      expect((await voucherRow(short.voucherId)).status).toBe("active");
      setClockForTests(new Date("2027-10-03T07:00:00Z"));
      expect(await voucherDeliveryEmail({ voucherId: short.voucherId })).toMatchObject({
        to: recipient.email,
      });
    } finally {
      await setValidityMonths(12);
    }
  });

  it("keeps the validity its buyer accepted when the owner changes hers before the payment", async () => {
    // Ordered by transfer under « valable 12 mois », paid after the owner set 6 months for new orders.
    setClockForTests(ORDERED);
    const accepted = await placeVoucherOrder(voucherOrderOf({ kind: "amount", euros: 80 }), {
      settings: voucherSettings({ voucherValidityMonths: 12 }),
    });
    await setValidityMonths(6);
    try {
      setClockForTests(new Date("2026-12-10T09:00:00Z"));
      await markPaidOffline(accepted.orderId, "transfer");
      expect((await voucherRow(accepted.voucherId)).expiresOn).toBe("2027-12-10");
    } finally {
      await setValidityMonths(12);
    }
  });

  it("reminds a voucher near its last day only once it is delivered", async () => {
    // A voucher issued before its validity counted from its delivery day: its last day 7 December 2027,
    // its gift's day 27 November.
    const recipient = { name: "Élodie Françoise", email: `elodie-${randomUUID()}@example.test` };
    setClockForTests(ORDERED);
    const { orderId, voucherId } = await placeVoucherOrder(
      voucherOrderOf(
        { kind: "amount", euros: 80 },
        { sendTo: "recipient", recipient, deliveryDay: "2027-11-27" },
      ),
    );
    await markPaidOffline(orderId, "transfer");
    await db().update(vouchers).set({ expiresOn: "2027-12-07" }).where(eq(vouchers.id, voucherId));
    const reminders = async () =>
      (await voucherMailJobs({ voucherId })).filter((job) => job.kind === "voucher-reminder");

    setClockForTests(new Date("2027-11-12T08:30:00Z"));
    await remindExpiringVouchers();
    expect(await reminders()).toEqual([]);
    expect((await voucherRow(voucherId)).reminderSentAt).toBeNull();

    // Delivered on its day at 9:00; reminded at the next run, once.
    const delivered = new Date("2027-11-27T08:00:00Z");
    await db().update(vouchers).set({ deliveredAt: delivered }).where(eq(vouchers.id, voucherId));
    setClockForTests(new Date("2027-11-27T08:30:00Z"));
    await remindExpiringVouchers();
    await remindExpiringVouchers();
    expect(await reminders()).toHaveLength(1);
  });

  it("refuses to extend a used voucher", async () => {
    const { voucherId, code, expiresOn } = await paidAmountVoucher("transfer", 50);
    await useAmountVoucher({ code, amountCents: 5_000 });
    await expect(extendVoucher(voucherId, addCalendarDays(expiresOn, 30))).rejects.toThrow(
      /déjà été utilisé/,
    );
  });
});
