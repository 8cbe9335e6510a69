import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedDocuments } from "~/content/seed";
import type { Legal } from "~/content/schemas";
import { formatCents } from "~/lib/prices";
import { subjectToVat } from "../../../tests/support/seller";
import { lockWaiters, useAppDatabase } from "../../../tests/support/database";
import { memoryCardProvider, reportCardPaid } from "../../../tests/support/payments";
import {
  paidAmountVoucher,
  placeVoucherOrder,
  voucherOrderOf,
  voucherRow,
} from "../../../tests/support/vouchers";
import { provideSiteOrderKinds } from "../boot/order-kinds.server";
import { setClockForTests } from "../clock.server";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { invoices, orders, paymentAttempts, refunds, voucherUses } from "../db/schema";
import { acceptHeldPayment } from "../payments/held-payments.server";
import type { Executor } from "../jobs/queue.server";
import { markRefundedOffline, requestOwnerRefund, requestRefund } from "../payments/orders.server";
import { useAmountVoucher } from "../vouchers/redemption.server";
import { issueMissingInvoices } from "./orders.server";

// What two app servers do at the same instant with the invoices of vouchers' uses (decisions 0177, 0198,
// 0200, 0203): the interleavings are forced by locks this file's transactions hold, and each waiter is
// seen waiting in PostgreSQL before the next step; no timing.

useAppDatabase({ jobs: true });
const owner = { id: "", name: "Camille" };
const setLegal = (legal: Legal) => saveDocument("legal", legal, owner, "test");
const incompleteLegal = () => structuredClone(seedDocuments.legal);

const card = memoryCardProvider();
beforeAll(() => {
  card.install();
  provideSiteOrderKinds();
});
afterAll(() => card.uninstall());
afterEach(() => setClockForTests(null));

/** The series `F`'s lock of issueInvoice (decision 0177): held, every issue of an invoice waits. */
const SERIES_F = sql`select pg_advisory_xact_lock(${0x0f_ac_01}::int, ascii('F'))`;

/**
 * A transaction that took what `take` locks and holds it until `end()`; `end` answers once it committed.
 */
async function holding(take: (tx: Executor) => Promise<unknown>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let taken = () => {};
  const ready = new Promise<void>((resolve) => (taken = resolve));
  const done = db().transaction(async (tx) => {
    await take(tx);
    taken();
    await released;
  });
  await Promise.race([ready, done]);
  return {
    end: async () => {
      release();
      await done;
    },
  };
}

/** How many sessions wait for an advisory lock (the series' or another of the site's). */
async function advisoryWaiters(): Promise<number> {
  const rows = await db().execute<{ count: number }>(sql`
    select count(*)::int as count from pg_locks where locktype = 'advisory' and not granted`);
  return rows.rows[0]?.count ?? 0;
}

/** The SQLSTATE of each rejected outcome (40P01: PostgreSQL aborted one to break a deadlock). */
const failuresOf = (outcomes: PromiseSettledResult<unknown>[]) =>
  outcomes.flatMap((outcome) =>
    outcome.status === "rejected"
      ? [String((outcome.reason as { cause?: { code?: string } }).cause?.code ?? outcome.reason)]
      : [],
  );

const invoicesOfUse = (useId: string) =>
  db().select().from(invoices).where(eq(invoices.voucherUseId, useId));

describe("two catch-ups of held invoices at once, on two servers", () => {
  it("both finish, each invoice and credit note issued once, whatever each had listed", async () => {
    setClockForTests(new Date("2027-03-02T10:00:00Z"));
    await setLegal(subjectToVat);
    const voucher = await paidAmountVoucher(100);
    // The identity then incomplete: a use of 60 € is held back, and 70 € of the voucher are given back
    // (its 40 € left and 30 € of the use), their credit note held back too.
    await setLegal(incompleteLegal());
    const used = await useAmountVoucher({ code: voucher.code, amountCents: 6_000 });
    if (!used.ok) throw new Error(used.message);
    const refund = await requestRefund(voucher.orderId, 7_000, "Geste commercial");
    await markRefundedOffline(refund.id);

    // The reconciliation job's catch-up starts while the identity is incomplete: it skips the order's
    // credit note, and reaches the held use (held here by another transaction) …
    const useHeld = await holding((tx) =>
      tx.execute(sql`select 1 from voucher_uses where id = ${used.use.id} for update`),
    );
    const job = issueMissingInvoices();
    job.catch(() => undefined);
    await expect.poll(() => lockWaiters(db())).toBe(1);
    // … when the owner completes her identity, whose save runs its own catch-up on the other server.
    await setLegal(subjectToVat);
    const seriesHeld = await holding((tx) => tx.execute(SERIES_F));
    await useHeld.end();
    // The job issues the use's invoice (it waits for the series) …
    await expect.poll(advisoryWaiters).toBe(1);
    const saved = issueMissingInvoices();
    saved.catch(() => undefined);
    // … and the owner's catch-up the refund's credit note, under the voucher's order's lock.
    await expect.poll(() => lockWaiters(db())).toBe(2);
    await seriesHeld.end();

    const outcomes = await Promise.allSettled([job, saved]);
    expect(failuresOf(outcomes)).toEqual([]);
    const useInvoices = await invoicesOfUse(used.use.id);
    expect(useInvoices.map((invoice) => invoice.ttcCents)).toEqual([6_000]);
    const refundNotes = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.refundId, refund.id), eq(invoices.kind, "credit_note")));
    expect(refundNotes.map((note) => note.ttcCents)).toEqual([-7_000]);
    // The studio keeps 30 € of the use: one credit note of the other 30 €.
    const useNotes = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.creditedInvoiceId, useInvoices[0]?.id ?? ""));
    expect(useNotes.map((note) => note.ttcCents)).toEqual([-3_000]);
    const [row] = await db().select().from(voucherUses).where(eq(voucherUses.id, used.use.id));
    expect(row?.invoicePending).toBe(false);
    expect(await db().select().from(refunds).where(eq(refunds.id, refund.id))).toHaveLength(1);
  });
});

/** An amount voucher of `euros` for which the owner accepted a card payment of `paidCents` (decision 0172). */
async function shortPaidVoucher(euros: number, paidCents: number) {
  const { orderId, voucherId } = await placeVoucherOrder(
    voucherOrderOf({ kind: "amount", euros }, { method: "card" }),
  );
  expect((await reportCardPaid(orderId, paidCents)).outcome).toBe("held");
  const [attempt] = await db()
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.orderId, orderId));
  expect((await acceptHeldPayment(orderId, attempt?.id ?? "")).outcome).toBe("applied");
  return { orderId, voucherId, code: (await voucherRow(voucherId)).code ?? "" };
}

describe("an owner's use of a voucher sold short while the catch-up invoices its held use", () => {
  it.each(["the use", "the catch-up"])(
    "bills the two uses' shares of what was paid to the cent (decision 0203), neither aborted: %s first",
    async (first) => {
      setClockForTests(new Date("2027-03-03T10:00:00Z"));
      await setLegal(subjectToVat);
      // An 80 € voucher paid 70 €: 26,67 € of it brings 23,34 €, 53,34 € bring 46,67 €.
      const voucher = await shortPaidVoucher(80, 7_000);
      await setLegal(incompleteLegal());
      const held = await useAmountVoucher({ code: voucher.code, amountCents: 2_667 });
      if (!held.ok) throw new Error(held.message);
      await setLegal(subjectToVat);

      // Both reach the issue of their invoice before either has one (the series held here).
      const seriesHeld = await holding((tx) => tx.execute(SERIES_F));
      const started: Promise<unknown>[] = [];
      const start = <T>(promise: Promise<T>) => {
        promise.catch(() => undefined);
        started.push(promise);
        return promise;
      };
      const useIt = () => start(useAmountVoucher({ code: voucher.code, amountCents: 2_667 }));
      const catchUpIt = () => start(issueMissingInvoices());
      if (first === "the use") useIt();
      else catchUpIt();
      await expect.poll(() => lockWaiters(db())).toBe(1);
      if (first === "the use") catchUpIt();
      else useIt();
      await expect.poll(() => lockWaiters(db())).toBe(2);
      await seriesHeld.end();

      const outcomes = await Promise.allSettled(started);
      expect(failuresOf(outcomes)).toEqual([]);
      const [used] = await db()
        .select()
        .from(voucherUses)
        .where(
          and(
            eq(voucherUses.voucherId, voucher.voucherId),
            sql`${voucherUses.id} <> ${held.use.id}`,
          ),
        );
      if (!used) throw new Error("the owner's use was not made");
      const billed = [...(await invoicesOfUse(held.use.id)), ...(await invoicesOfUse(used.id))].map(
        (invoice) => invoice.ttcCents,
      );
      expect(billed).toHaveLength(2);
      expect(billed.reduce((sum, cents) => sum + cents, 0)).toBe(4_667);
    },
  );
});

describe("a use of an amount voucher and a refund of its order at the same instant", () => {
  /** The owner's use of 40 € and her refund of 80 €, asked with the page showing 100 € usable. */
  async function useAndRefund(first: "the use" | "the refund") {
    setClockForTests(new Date("2027-03-04T10:00:00Z"));
    await setLegal(subjectToVat);
    const voucher = await paidAmountVoucher(100);
    // Both wait for the voucher's order's row, here held; the first queued has it first.
    const orderHeld = await holding((tx) =>
      tx.select().from(orders).where(eq(orders.id, voucher.orderId)).for("update"),
    );
    const use = () => useAmountVoucher({ code: voucher.code, amountCents: 4_000 });
    const refund = () =>
      requestOwnerRefund(voucher.orderId, 8_000, "Geste commercial", {
        shownVoucherCents: 10_000,
      });
    const settle = (promise: Promise<unknown>) =>
      promise.then(
        (value): PromiseSettledResult<unknown> => ({ status: "fulfilled", value }),
        (reason: unknown): PromiseSettledResult<unknown> => ({ status: "rejected", reason }),
      );
    const settled = [settle(first === "the use" ? use() : refund())];
    await expect.poll(() => lockWaiters(db())).toBe(1);
    settled.push(settle(first === "the use" ? refund() : use()));
    await expect.poll(() => lockWaiters(db())).toBe(2);
    await orderHeld.end();
    const [firstOutcome, secondOutcome] = await Promise.all(settled);
    const usesMade = await db()
      .select()
      .from(voucherUses)
      .where(eq(voucherUses.voucherId, voucher.voucherId));
    const refundsAsked = await db()
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, voucher.orderId));
    return { voucher, firstOutcome, secondOutcome, usesMade, refundsAsked };
  }

  it("the use first: the refund asked on the page's 100 € is refused, in French, rather than give back 20 € the use spent", async () => {
    const { firstOutcome, secondOutcome, usesMade, refundsAsked } = await useAndRefund("the use");
    expect(firstOutcome).toMatchObject({ status: "fulfilled", value: { ok: true } });
    expect(usesMade.map((use) => use.amountCents)).toEqual([4_000]);
    expect(secondOutcome).toMatchObject({
      status: "rejected",
      reason: {
        code: "voucher_used_meanwhile",
        message: `Le bon a servi entre-temps : il ne reste que ${formatCents(6_000)} sur son solde, et non ${formatCents(10_000)}. Au-delà, ce remboursement rendrait ce qui a déjà servi : vérifiez le montant, puis confirmez de nouveau.`,
      },
    });
    expect(refundsAsked).toEqual([]);
  });

  it("the refund first: the use can take only what the refund leaves of its balance, and says why", async () => {
    const { firstOutcome, secondOutcome, usesMade, refundsAsked } =
      await useAndRefund("the refund");
    expect(firstOutcome).toMatchObject({ status: "fulfilled" });
    expect(refundsAsked.map((refund) => refund.amountCents)).toEqual([8_000]);
    expect(secondOutcome).toMatchObject({
      status: "fulfilled",
      value: {
        ok: false,
        message: `Il ne reste que ${formatCents(2_000)} utilisables sur ce bon : ${formatCents(8_000)} de son solde partent dans un remboursement en cours.`,
      },
    });
    expect(usesMade).toEqual([]);
  });
});
