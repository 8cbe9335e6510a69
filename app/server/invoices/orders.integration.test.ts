import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { seedDocuments } from "~/content/seed";
import type { Legal } from "~/content/schemas";
import { completeLegal, subjectToVat } from "../../../tests/support/seller";
import { useAppDatabase } from "../../../tests/support/database";
import { pdfText } from "../../../tests/support/pdf-tools";
import { placeCardOrder, placeOrder, usePaymentsInMemory } from "../../../tests/support/payments";
import { loadDocument, saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import { invoices } from "../db/schema";
import { applyPaymentStatus } from "../payments/apply-payment.server";
import { acceptHeldPayment } from "../payments/held-payments.server";
import { buyerPaymentEmail } from "../payments/emails.server";
import {
  completeRefund,
  markPaidOffline,
  markRefundedOffline,
  requestRefund,
} from "../payments/orders.server";
import { creditDue, invoicePdf, issueMissingInvoices, ordersWithoutInvoice } from "./orders.server";

// Every paid order its invoice, every refund its credit note (decision 0181), on a real PostgreSQL: issued
// in the transaction that paid or refunded, once whatever repeats, held back while the seller's identity
// is incomplete and issued in the order of the payments once it is complete.

useAppDatabase({ jobs: true });
usePaymentsInMemory();
const owner = { id: "", name: "Camille" };

const setLegal = (legal: Legal) => saveDocument("legal", legal, owner, "test");

const invoicesOf = (orderId: string) =>
  db().select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(invoices.issuedAt);

/** Pays a card order by its provider's report, as many times as given, all at once. */
async function payByCard(amountCents: number, times = 1) {
  const placed = await placeCardOrder(amountCents);
  const report = {
    provider: "stripe" as const,
    providerReference: placed.reference,
    status: "succeeded" as const,
    amountCents,
    currency: "eur",
    paymentReference: `pi_${placed.reference}`,
    source: "webhook" as const,
  };
  await Promise.all(Array.from({ length: times }, () => applyPaymentStatus(report)));
  return placed;
}

describe("an order's invoice", () => {
  it("is issued with the payment, once though the payment is reported three times at once", async () => {
    await setLegal(completeLegal);
    const { orderId } = await payByCard(17_500, 3);
    const issued = await invoicesOf(orderId);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({
      kind: "sale",
      series: "F",
      ttcCents: 17_500,
      htCents: 17_500,
      vatCents: 0,
      buyer: { name: "Camille Martin", address: null },
      seller: {
        companyName: "Atelier Lumière SARL",
        siren: "443 061 841",
        vatMention: "TVA non applicable, art. 293 B du CGI",
      },
      lines: [
        { label: "Bon cadeau séance portrait", quantity: 1, unitPriceCents: 17_500, vatRate: null },
      ],
    });
    expect(issued[0]?.paymentTerms).toMatch(
      /^Payée par carte bancaire le (?:1er|\d{1,2}) \S+ \d{4}\.$/,
    );
  });

  it("bears each line's TVA for a seller subject to it, none on a multi-purpose voucher", async () => {
    await setLegal(subjectToVat);
    const { orderId } = await placeOrder("studio", 12_000, {
      lines: [
        {
          label: "Bon cadeau séance famille",
          quantity: 1,
          unitPriceCents: 12_000,
          vatRate: 2000,
          voucherVatMode: "single",
        },
      ],
    });
    await markPaidOffline(orderId, "cash");
    const other = await placeOrder("studio", 5_000, {
      lines: [
        {
          label: "Bon cadeau de 50 €",
          quantity: 1,
          unitPriceCents: 5_000,
          vatRate: null,
          voucherVatMode: "multi",
        },
      ],
    });
    await markPaidOffline(other.orderId, "cheque");

    const [single] = await invoicesOf(orderId);
    expect(single).toMatchObject({ htCents: 10_000, vatCents: 2_000, ttcCents: 12_000 });
    expect(single?.seller).toMatchObject({ vatNumber: "FR64 443061841", vatMention: null });
    expect(single?.paymentTerms).toMatch(/^Payée en espèces le /);
    const [multi] = await invoicesOf(other.orderId);
    expect(multi).toMatchObject({ vatCents: 0, ttcCents: 5_000 });
    expect(multi?.lines[0]?.label).toBe(
      "Bon cadeau de 50 € (bon à usages multiples : TVA due à son utilisation)",
    );
    expect(multi?.paymentTerms).toMatch(/^Payée par chèque le /);
    await setLegal(completeLegal);
  });
});

describe("an accepted held payment", () => {
  it("of less than the order is invoiced for what was received, the difference a discount", async () => {
    await setLegal(subjectToVat);
    const placed = await placeCardOrder(15_000);
    const report = {
      provider: "stripe" as const,
      providerReference: placed.reference,
      status: "succeeded" as const,
      amountCents: 14_000,
      currency: "eur",
      paymentReference: `pi_${placed.reference}`,
      source: "webhook" as const,
    };
    expect((await applyPaymentStatus(report)).outcome).toBe("held");
    expect((await acceptHeldPayment(placed.orderId, placed.attemptId)).outcome).toBe("applied");
    const [invoice] = await invoicesOf(placed.orderId);
    // What the sales journal bills is what the money journal received.
    expect(invoice?.ttcCents).toBe(14_000);
    expect(invoice?.lines.at(-1)).toEqual({
      label: "Remise accordée : paiement reçu de 140,00\u00a0€",
      quantity: 1,
      unitPriceCents: -1_000,
      vatRate: invoice?.lines[0]?.vatRate,
    });
    await setLegal(completeLegal);
  });
});

describe("a refund's credit note", () => {
  it("credits what each refund gives back of the invoice, referring to it, once", async () => {
    await setLegal(completeLegal);
    const { orderId } = await payByCard(20_000);
    const [invoice] = await invoicesOf(orderId);
    // The card's refunds succeed at once (the provider in memory); the provider's event for the second
    // comes twice more.
    const first = await requestRefund(orderId, 5_000, "Geste commercial");
    const rest = await requestRefund(orderId, 15_000, "Rétractation");
    expect(rest.status).toBe("succeeded");
    await completeRefund(rest.id, "succeeded", rest.providerReference);
    await completeRefund(rest.id, "succeeded", rest.providerReference);

    const notes = (await invoicesOf(orderId)).filter((each) => each.kind === "credit_note");
    expect(notes.map((note) => [note.ttcCents, note.creditedInvoiceId, note.refundId])).toEqual([
      [-5_000, invoice?.id, first.id],
      [-15_000, invoice?.id, rest.id],
    ]);
    expect(notes.every((note) => note.series === "A" && note.number.startsWith("A-"))).toBe(true);

    // The buyer is told of each refund once, with its credit note's link.
    const told = await db().execute<{ refundId: string }>(sql`
      select data->>'refundId' as "refundId" from pgboss.job
      where name = 'mail' and data->>'kind' = 'payment-buyer' and data->>'event' = 'refunded'
        and data->>'orderId' = ${orderId} order by created_on`);
    expect(told.rows.map((row) => row.refundId)).toEqual([first.id, rest.id]);
    const mail = await buyerPaymentEmail({ orderId, event: "refunded", refundId: first.id });
    expect(mail?.subject).toBe("Remboursement effectué : 50\u00a0€");
    expect(mail?.text).toContain("Motif : Geste commercial.");
    expect(mail?.text).toMatch(
      new RegExp(
        `Avoir ${notes[0]?.number} : http\\S+/commande/[\\w-]+/facture/${notes[0]?.number}\\.pdf`,
      ),
    );
  });

  it("gives back each TVA rate of the invoice exactly over partial refunds, never a line of nothing", async () => {
    await setLegal(subjectToVat);
    const { orderId } = await placeOrder("studio", 3_000, {
      lines: [
        {
          label: "Bon cadeau séance famille",
          quantity: 1,
          unitPriceCents: 2_000,
          vatRate: 2000,
          voucherVatMode: "single",
        },
        {
          label: "Bon cadeau de 10 €",
          quantity: 1,
          unitPriceCents: 1_000,
          vatRate: null,
          voucherVatMode: "multi",
        },
      ],
    });
    await markPaidOffline(orderId, "cash");
    for (const amount of [1, 4, 4, 2_991]) {
      const refund = await requestRefund(orderId, amount, "Geste commercial");
      await markRefundedOffline(refund.id);
    }
    const [invoice, ...notes] = await invoicesOf(orderId);
    expect(notes).toHaveLength(4);
    const back = new Map<number | null, number>();
    for (const line of notes.flatMap((note) => note.lines)) {
      expect(line.unitPriceCents).toBeLessThan(0);
      back.set(line.vatRate, (back.get(line.vatRate) ?? 0) - line.unitPriceCents * line.quantity);
    }
    expect(Object.fromEntries(back)).toEqual(
      Object.fromEntries(
        invoice?.vatBreakdown.map((share) => [share.vatRate, share.ttcCents]) ?? [],
      ),
    );
    expect(invoice?.vatBreakdown.map((share) => share.ttcCents).sort()).toEqual([1_000, 2_000]);
    // Its HT and TVA too: nothing of it is left in the sales journal.
    expect(invoice?.vatCents).toBe(333);
    expect(notes.reduce((sum, note) => sum + note.htCents, 0)).toBe(-(invoice?.htCents ?? 0));
    expect(notes.reduce((sum, note) => sum + note.vatCents, 0)).toBe(-333);
    await setLegal(completeLegal);
  });

  it("states the TVA regime of the invoice it corrects after the seller changed hers, in both directions", async () => {
    const portrait = [
      { label: "Séance portrait", quantity: 1, unitPriceCents: 12_000, vatRate: 2000 },
    ];
    const moved = "12 rue de la Barrière, 19100 Brive-la-Gaillarde";
    const refundAfter = async (from: Legal, to: Legal) => {
      await setLegal(from);
      const { orderId } = await placeOrder("studio", 12_000, { lines: portrait });
      await markPaidOffline(orderId, "cash");
      await setLegal({ ...to, address: moved });
      const refund = await requestRefund(orderId, 12_000, "Séance annulée");
      await markRefundedOffline(refund.id);
      const [invoice, note] = await invoicesOf(orderId);
      if (!invoice || note?.kind !== "credit_note") throw new Error("no credit note");
      const text = pdfText((await invoicePdf(note)).bytes).replace(/[\s\u00a0\u202f]+/g, " ");
      return { invoice, note, text };
    };

    // Invoiced at 20 %, then the seller enters the franchise: the note gives back 20 % of TVA, with the
    // TVA number the invoice printed and without the franchise's mention.
    const taxed = await refundAfter(subjectToVat, completeLegal);
    expect(taxed.invoice.seller).toMatchObject({ vatNumber: "FR64 443061841", vatMention: null });
    expect(taxed.note.vatCents).toBe(-2_000);
    expect(taxed.note.seller).toMatchObject({
      vatNumber: taxed.invoice.seller.vatNumber,
      vatMention: null,
      address: moved,
    });
    expect(taxed.text).toMatch(/TVA 20 %/);
    expect(taxed.text).toContain(
      `N° de TVA intracommunautaire : ${taxed.invoice.seller.vatNumber}`,
    );
    expect(taxed.text).not.toMatch(/293 B/);

    // Invoiced under the franchise, then the seller charges TVA: the note bears none and says why.
    const franchise = await refundAfter(completeLegal, subjectToVat);
    expect(franchise.note.vatCents).toBe(0);
    expect(franchise.note.seller).toMatchObject({
      vatNumber: null,
      vatMention: "TVA non applicable, art. 293 B du CGI",
      address: moved,
    });
    expect(franchise.text).toContain("TVA non applicable, art. 293 B du CGI");
    expect(franchise.text).not.toMatch(/TVA 20 %|intracommunautaire/);
    await setLegal(completeLegal);
  });

  it("credits nothing for giving back a payment made twice, then the invoice when the order's money goes back", () => {
    // 100 € invoiced, paid twice: the first refund of 100 € gives back the second payment.
    expect(
      creditDue({
        invoicedCents: 10_000,
        paidCents: 20_000,
        refundedCents: 10_000,
        creditedCents: 0,
      }),
    ).toBe(0);
    expect(
      creditDue({
        invoicedCents: 10_000,
        paidCents: 20_000,
        refundedCents: 20_000,
        creditedCents: 0,
      }),
    ).toBe(10_000);
    // Never beyond the invoice, never twice.
    expect(
      creditDue({
        invoicedCents: 10_000,
        paidCents: 10_000,
        refundedCents: 10_000,
        creditedCents: 10_000,
      }),
    ).toBe(0);
  });
});

describe("while the seller's identity is incomplete", () => {
  it("issues nothing, then every invoice and credit note in the order of their payments once completed", async () => {
    // As a new site's: the seed's placeholders in place of the numbers.
    await setLegal(structuredClone(seedDocuments.legal));
    const first = await placeOrder("studio", 9_000);
    await markPaidOffline(first.orderId, "cash");
    const second = await placeOrder("studio", 11_000);
    await markPaidOffline(second.orderId, "transfer");
    const refund = await requestRefund(first.orderId, 9_000, "Annulation");
    await markRefundedOffline(refund.id);
    expect(await invoicesOf(first.orderId)).toEqual([]);
    expect(await ordersWithoutInvoice()).toBeGreaterThanOrEqual(2);

    // Nothing to issue yet: the catch-up changes nothing.
    expect(await issueMissingInvoices()).toBe(0);

    await setLegal(completeLegal);
    expect(await loadDocument("legal")).toMatchObject({ siret: "443 061 841 00047" });
    expect(await issueMissingInvoices()).toBe(3);
    expect(await issueMissingInvoices()).toBe(0);
    const [firstInvoice, note] = await invoicesOf(first.orderId);
    const [secondInvoice] = await invoicesOf(second.orderId);
    expect(firstInvoice?.sequence).toBeLessThan(secondInvoice?.sequence ?? 0);
    expect(note).toMatchObject({ kind: "credit_note", ttcCents: -9_000 });
    expect(await ordersWithoutInvoice()).toBe(0);
    const credits = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.kind, "credit_note"), eq(invoices.refundId, refund.id)));
    expect(credits).toHaveLength(1);
  });
});
