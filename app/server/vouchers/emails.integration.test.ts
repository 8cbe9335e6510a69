import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { ensurePdfTools, pdfText } from "../../../tests/support/pdf-tools";
import { mailAttachments, startSmtpCapture } from "../../../tests/support/smtp-capture";
import { orderRow } from "../../../tests/support/payments";
import { placeVoucherOrder, voucherOrderOf, voucherRow } from "../../../tests/support/vouchers";
import { instantLabelFr } from "~/lib/booking/words";
import { formatVoucherCode } from "~/lib/vouchers/code";
import { formatCalendarDayFr } from "~/lib/vouchers/terms";
import { startWorkers } from "../boot/jobs.server";
import { provideOrderKinds } from "../payments/order-kinds.server";
import { completeRefund, markPaidOffline, requestRefund } from "../payments/orders.server";

import { insertSessionType, studioIds } from "../../../tests/support/booking";
import { isoDayInParis } from "~/lib/dates";
import { addCalendarDays } from "~/lib/vouchers/terms";
import { eq } from "drizzle-orm";
import { db } from "../db/client.server";
import { orders, vouchers } from "../db/schema";
import {
  correctVoucherBuyerEmail,
  queueVoucherDeliveryMail,
  queueVoucherReminderMail,
  redeliverVoucher,
  voucherDeliveryEmail,
  voucherOrderEmail,
  voucherPdfOf,
  voucherReminderEmail,
} from "./emails.server";
import { orderHistory } from "../payments/admin-orders.server";
import { voucherPage } from "./admin-vouchers.server";
import { voucherOrderKind } from "./order-kind.server";

// A gift voucher's e-mails through the queue to a real SMTP server on loopback (decision 0167): the
// buyer's order with how to pay, the voucher's PDF (read back as a person's computer reads it) sent once
// to the buyer or the recipient.

useAppDatabase({ jobs: true });

let capture: Awaited<ReturnType<typeof startSmtpCapture>>;

beforeAll(async () => {
  ensurePdfTools();
  provideOrderKinds([voucherOrderKind]);
  capture = await startSmtpCapture({ refuses: (address) => address.startsWith("mistyped-") });
  await startWorkers({
    mail: { url: capture.smtpUrl, from: "Studio <site@example.com>", ratePerMinute: 6000 },
    photoWorkers: 0,
  });
});
afterAll(async () => {
  await capture.close();
});

/** The owner's list's flag of a voucher's reminder before expiry given up (null: none). */
async function listedReminderRefusal(voucherId: string) {
  const { code } = await voucherRow(voucherId);
  const { rows } = await voucherPage({ status: null, search: code ?? "" }, null);
  return rows.find((row) => row.id === voucherId)?.reminderUndelivered ?? null;
}

const mailsTo = (address: string) => capture.received.filter((mail) => mail.to.includes(address));
// pdftotext writes no-break spaces as they are and breaks lines where the page does: compare words.
const words = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ");

describe("a voucher's e-mails", () => {
  it("tells the transfer's buyer the IBAN, holder, reference, amount and deadline, then sends the voucher's PDF once paid", async () => {
    const order = voucherOrderOf({ kind: "amount", euros: 80 });
    const { orderId, voucherId, transferReference } = await placeVoucherOrder(order);
    const buyer = order.buyer.email;
    await expect.poll(() => mailsTo(buyer).length).toBe(1);
    const [placed] = mailsTo(buyer);
    expect(placed?.text).toContain("FR76 3000 6000 0112 3456 7890 189");
    expect(placed?.text).toContain("Titulaire : Atelier Lumière");
    expect(placed?.text).toContain(`Référence à indiquer : ${transferReference}`);
    expect(words(placed?.text ?? "")).toContain(words("virement de 80 € avant le"));
    // The instant it lapses, written as the order's page writes it.
    const { payBy } = await orderRow(orderId);
    expect(placed?.text).toContain(`avant le ${instantLabelFr(payBy ?? new Date(0))} :`);
    expect(placed?.text).toMatch(/\/commande\/[A-Za-z0-9_-]+/);
    expect(placed?.text).not.toContain("\n\n\n");
    // The seller, under every e-mail of the shop (decision 0176).
    expect(placed?.text).toMatch(
      /— Studio Photo Exemple SARL, .* · TVA non applicable, art\. 293 B du CGI$/,
    );

    await markPaidOffline(orderId, "transfer");
    // The core's « paiement reçu » and the voucher itself.
    await expect.poll(() => mailsTo(buyer).length).toBe(3);
    const delivered = mailsTo(buyer).find((mail) => /bon cadeau pour/.test(mail.subject));
    const voucher = await voucherRow(voucherId);
    const code = voucher.code ?? "";
    expect(delivered?.subject).toBe("Le bon cadeau pour Élodie Françoise");
    expect(delivered?.text).toContain(formatVoucherCode(code));
    const [pdf] = mailAttachments(delivered?.raw ?? "");
    expect(pdf).toMatchObject({
      type: "application/pdf",
      filename: `bon-cadeau-${formatVoucherCode(code)}.pdf`,
    });
    const text = words(pdfText(pdf?.bytes ?? Buffer.alloc(0)));
    expect(text).toContain(formatVoucherCode(code));
    expect(text).toContain("Élodie Françoise");
    expect(text).toContain("De la part de Noël Lefèvre");
    expect(text).toContain(words("« sœur de cœur »"));
    expect(text).toContain(
      words(`Valable jusqu'au ${formatCalendarDayFr(voucher.expiresOn ?? "")}`),
    );
    expect(text).toContain(words("Valable pour 80 €"));
    await expect.poll(async () => (await voucherRow(voucherId)).deliveredAt).not.toBeNull();
    // Delivered: a job run again writes nothing.
    expect(await voucherDeliveryEmail({ voucherId })).toBeNull();
  });

  it("sends the voucher to the recipient when the buyer asked, and tells a studio payment's buyer to pay there", async () => {
    const recipient = `elodie-${Date.now()}@example.test`;
    const order = voucherOrderOf(
      { kind: "amount", euros: 120 },
      { method: "studio", sendTo: "recipient", recipient: { name: "Élodie", email: recipient } },
    );
    const { orderId } = await placeVoucherOrder(order);
    await expect.poll(() => mailsTo(order.buyer.email).length).toBe(1);
    expect(words(mailsTo(order.buyer.email)[0]?.text ?? "")).toContain(
      words("Vous la réglerez au studio (120 €)"),
    );
    await markPaidOffline(orderId, "card_terminal");
    await expect.poll(() => mailsTo(recipient).length).toBe(1);
    const [mail] = mailsTo(recipient);
    expect(mail?.subject).toBe("Noël Lefèvre vous offre un bon cadeau");
    expect(mailAttachments(mail?.raw ?? "")).toHaveLength(1);
  });

  it("tells the buyer to whom and on which day the voucher will be sent, never « vous » for a gift sent to its recipient later", async () => {
    const recipient = `chloe-${Date.now()}@example.test`;
    const day = addCalendarDays(isoDayInParis(new Date()), 30);
    const gift = voucherOrderOf(
      { kind: "amount", euros: 80 },
      { sendTo: "recipient", recipient: { name: "Chloé", email: recipient }, deliveryDay: day },
    );
    const placed = await placeVoucherOrder(gift);
    const text = words((await voucherOrderEmail({ orderId: placed.orderId }))?.text ?? "");
    expect(text).not.toContain("vous sera envoyé");
    expect(text).toContain(
      words(
        `Le bon sera envoyé à Chloé (${recipient}) le ${formatCalendarDayFr(day)} à 9 h, ou dès réception du paiement s'il arrive après.`,
      ),
    );
    // At the studio, sent to the buyer as soon as it is paid.
    const own = voucherOrderOf({ kind: "amount", euros: 80 }, { method: "studio" });
    const atStudio = await placeVoucherOrder(own);
    const studioText = words((await voucherOrderEmail({ orderId: atStudio.orderId }))?.text ?? "");
    expect(studioText).toContain(words("Vous la réglerez au studio (80 €)."));
    expect(studioText).toContain(
      words(`Le bon sera envoyé à votre adresse (${own.buyer.email}) dès réception du paiement.`),
    );
  });

  it("cancels the delivery of a voucher refunded before its day, and shows a job that found nothing to send as never sent", async () => {
    const recipient = `chloe-${Date.now()}@example.test`;
    const day = addCalendarDays(isoDayInParis(new Date()), 10);
    const { orderId, voucherId } = await placeVoucherOrder(
      voucherOrderOf(
        { kind: "amount", euros: 70 },
        { sendTo: "recipient", recipient: { name: "Chloé", email: recipient }, deliveryDay: day },
      ),
    );
    await markPaidOffline(orderId, "cash");
    const delivery = async (id = orderId) =>
      (await orderHistory(id, [])).mails.find((mail) => mail.kind === "voucher-delivery");
    expect((await delivery())?.state).toBe("created");
    const refund = await requestRefund(orderId, 7_000, "Annulation");
    await completeRefund(refund.id, "refunded_offline", null);
    expect((await voucherRow(voucherId)).status).toBe("cancelled");
    // Not « à envoyer » until its day: cancelled with the voucher.
    expect(await delivery()).toMatchObject({ state: "cancelled", sentAt: null });

    // A job that finds its voucher already delivered (queued twice) sends nothing: not « envoyé ».
    const sent = await placeVoucherOrder(voucherOrderOf({ kind: "amount", euros: 40 }));
    await markPaidOffline(sent.orderId, "cash");
    await expect.poll(async () => (await voucherRow(sent.voucherId)).deliveredAt).not.toBeNull();
    await queueVoucherDeliveryMail({ voucherId: sent.voucherId });
    await expect
      .poll(async () =>
        (await orderHistory(sent.orderId, [])).mails
          .filter((mail) => mail.kind === "voucher-delivery")
          .map((mail) => [mail.sentAt !== null, mail.nothingToSend])
          .sort(),
      )
      .toEqual([
        [false, true],
        [true, false],
      ]);
    expect(mailsTo(recipient)).toEqual([]);
  });

  it("lists in the PDF of a session voucher valid in any studio only the studios offering its session", async () => {
    const studio = await studioIds();
    const briveOnly = await insertSessionType([studio.brive], { name: "Séance Brive seulement" });
    const { orderId, voucherId } = await placeVoucherOrder(
      voucherOrderOf({ kind: "session", sessionTypeId: briveOnly, studioSlug: null, euros: 150 }),
      { studioId: null },
    );
    await markPaidOffline(orderId, "transfer");
    const text = words(pdfText(await voucherPdfOf(await voucherRow(voucherId))));
    expect(text).toContain("Brive");
    expect(text).not.toMatch(/Limoges|Ussel/);
    // An amount is spent in any studio: all of them.
    const amount = await placeVoucherOrder(voucherOrderOf({ kind: "amount", euros: 80 }));
    await markPaidOffline(amount.orderId, "cash");
    const amountText = words(pdfText(await voucherPdfOf(await voucherRow(amount.voucherId))));
    expect(amountText).toMatch(/Limoges/);
    expect(amountText).toMatch(/Ussel/);
  });

  it("tells the buyer once when the recipient's address is refused, and sends it once to the address she corrects", async () => {
    const stamp = Date.now();
    const mistyped = `mistyped-chloe-${stamp}@example.test`;
    const corrected = `chloe-${stamp}@example.test`;
    const order = voucherOrderOf(
      { kind: "amount", euros: 60 },
      { sendTo: "recipient", recipient: { name: "Chloé", email: mistyped } },
    );
    const { orderId, voucherId } = await placeVoucherOrder(order);
    const buyer = order.buyer.email;
    const undelivered = () =>
      mailsTo(buyer).filter((mail) => /n'a pas pu être envoyé/.test(mail.subject));
    await markPaidOffline(orderId, "transfer");
    // The mail server refuses the mailbox (550 5.1.1): the buyer is told, with the address and her page.
    await expect.poll(() => undelivered().length).toBe(1);
    const [told] = undelivered();
    expect(told?.subject).toBe("Le bon cadeau pour Chloé n'a pas pu être envoyé");
    expect(words(told?.text ?? "")).toContain(
      words(`n'a pas pu lui être envoyé à l'adresse ${mistyped} : sa messagerie l'a refusée`),
    );
    expect(told?.text).toMatch(/\/commande\/[A-Za-z0-9_-]+/);
    expect(mailsTo(mistyped)).toEqual([]);
    const failed = await voucherRow(voucherId);
    expect(failed.deliveredAt).toBeNull();
    expect(failed.deliveryFailedTo).toBe(mistyped);
    expect(failed.deliveryFailedAt).not.toBeNull();

    // The job given up again (run once more after it threw, or on another server): no second e-mail.
    const giveUp = queueVoucherDeliveryMail.definition.afterGivenUp;
    const mail = await voucherDeliveryEmail({ voucherId });
    if (!giveUp || !mail) throw new Error("the delivery's e-mail is written until it leaves");
    await Promise.all([
      giveUp({ voucherId }, mail, "refusée"),
      giveUp({ voucherId }, mail, "refusée"),
    ]);
    const queued = await db().$client.query<{ count: string }>(
      "select count(*) from pgboss.job where name = 'mail' and data->>'kind' = 'voucher-undelivered' and data->>'voucherId' = $1",
      [voucherId],
    );
    expect(Number(queued.rows[0]?.count)).toBe(1);

    // Corrected, the form posted twice: sent once, to the corrected address.
    const sent = await Promise.all([
      redeliverVoucher(orderId, { sendTo: "recipient", email: corrected }),
      redeliverVoucher(orderId, { sendTo: "recipient", email: corrected }),
    ]);
    expect(sent.filter(Boolean)).toHaveLength(1);
    await expect.poll(async () => (await voucherRow(voucherId)).deliveredAt).not.toBeNull();
    expect(mailsTo(corrected)).toHaveLength(1);
    expect(mailsTo(corrected)[0]?.subject).toBe("Noël Lefèvre vous offre un bon cadeau");
    const delivered = await voucherRow(voucherId);
    expect(delivered).toMatchObject({ deliveryFailedTo: null, recipientEmail: corrected });
    // Delivered: nothing more to correct, and the buyer never told twice.
    expect(await redeliverVoucher(orderId, { sendTo: "buyer" })).toBe(false);
    expect(undelivered()).toHaveLength(1);
  });

  it("tells the buyer once, with her page, when the recipient's address refuses the reminder before expiry", async () => {
    const stamp = Date.now();
    const order = voucherOrderOf(
      { kind: "amount", euros: 70 },
      {
        sendTo: "recipient",
        recipient: { name: "Chloé", email: `chloe-rappel-${stamp}@example.test` },
      },
    );
    const { orderId, voucherId } = await placeVoucherOrder(order);
    const buyer = order.buyer.email;
    await markPaidOffline(orderId, "transfer");
    await expect.poll(async () => (await voucherRow(voucherId)).deliveredAt).not.toBeNull();
    // Months later her mailbox is closed (550): the reminder 20 days before its last day is refused.
    const closed = `mistyped-chloe-rappel-${stamp}@example.test`;
    const lastDay = addCalendarDays(isoDayInParis(new Date()), 20);
    await db()
      .update(vouchers)
      .set({ recipientEmail: closed, expiresOn: lastDay, reminderSentAt: new Date() })
      .where(eq(vouchers.id, voucherId));
    await queueVoucherReminderMail({ voucherId });
    const told = () =>
      mailsTo(buyer).filter((mail) => /son rappel n'a pas pu être envoyé/.test(mail.subject));
    await expect.poll(() => told().length, { timeout: 10_000 }).toBe(1);
    const [mail] = told();
    expect(mail?.subject).toBe(
      `Le bon cadeau pour Chloé expire le ${formatCalendarDayFr(lastDay)} : son rappel n'a pas pu être envoyé`,
    );
    expect(words(mail?.text ?? "")).toContain(
      words(`Le rappel envoyé à Chloé (${closed}) avant la fin de son bon cadeau`),
    );
    expect(mail?.text).toMatch(/\/commande\/[A-Za-z0-9_-]+/);
    expect(mailsTo(closed)).toEqual([]);
    // The owner's list flags it, her buyer told.
    expect(await listedReminderRefusal(voucherId)).toMatchObject({ to: closed, buyerTold: true });

    // The reminder given up again (run once more after it threw, or on another server): told once.
    const giveUp = queueVoucherReminderMail.definition.afterGivenUp;
    const reminder = await voucherReminderEmail({ voucherId });
    if (!giveUp || !reminder)
      throw new Error("the reminder is written while the voucher is active");
    await Promise.all([
      giveUp({ voucherId }, reminder, "refusée"),
      giveUp({ voucherId }, reminder, "refusée"),
    ]);
    const queued = await db().$client.query<{ count: string }>(
      "select count(*) from pgboss.job where name = 'mail' and data->>'kind' = 'voucher-reminder-undelivered' and data->>'voucherId' = $1",
      [voucherId],
    );
    expect(Number(queued.rows[0]?.count)).toBe(1);
  });

  it("flags in the owner's list the reminder before expiry refused at the buyer's own address, nobody told", async () => {
    const stamp = Date.now();
    const order = voucherOrderOf({ kind: "amount", euros: 55 });
    const { orderId, voucherId } = await placeVoucherOrder(order);
    await markPaidOffline(orderId, "transfer");
    await expect.poll(async () => (await voucherRow(voucherId)).deliveredAt).not.toBeNull();
    expect(await listedReminderRefusal(voucherId)).toBeNull();
    // Months later the buyer's own mailbox is closed (550): the reminder sent to her is refused.
    const closed = `mistyped-acheteuse-rappel-${stamp}@example.test`;
    await db().update(orders).set({ buyerEmail: closed }).where(eq(orders.id, orderId));
    await db()
      .update(vouchers)
      .set({
        expiresOn: addCalendarDays(isoDayInParis(new Date()), 20),
        reminderSentAt: new Date(),
      })
      .where(eq(vouchers.id, voucherId));
    await queueVoucherReminderMail({ voucherId });
    await expect
      .poll(() => listedReminderRefusal(voucherId), { timeout: 10_000 })
      .toMatchObject({ to: closed, buyerTold: false });
    expect((await listedReminderRefusal(voucherId))?.error).toMatch(/\S/);

    // Extended, its next reminder not yet sent: the old refusal no longer flags it.
    await db().update(vouchers).set({ reminderSentAt: null }).where(eq(vouchers.id, voucherId));
    expect(await listedReminderRefusal(voucherId)).toBeNull();
  });

  it("shows the owner the e-mails refused at the buyer's own mistyped address, and sends them once to the address she corrects", async () => {
    const stamp = Date.now();
    const mistyped = `mistyped-noel-${stamp}@example.test`;
    const corrected = `noel-${stamp}@example.test`;
    const order = voucherOrderOf(
      { kind: "amount", euros: 45 },
      { buyer: { name: "Noël Lefèvre", email: mistyped, phone: "" } },
    );
    const { orderId, voucherId } = await placeVoucherOrder(order);
    await markPaidOffline(orderId, "cash");
    // Her order's e-mail, her payment's and her voucher are refused (550): given up, not « envoyé ».
    await expect.poll(async () => (await voucherRow(voucherId)).deliveryFailedTo).toBe(mistyped);
    // Queued together (the payment's and the voucher's in one transaction): compared in kind's order.
    const history = async () =>
      (await orderHistory(orderId, [])).mails.sort((a, b) => a.kind.localeCompare(b.kind));
    await expect
      .poll(async () =>
        (await history()).map((mail) => [mail.kind, mail.sentAt, mail.givenUp !== null]),
      )
      .toEqual([
        ["payment-buyer", null, true],
        ["voucher-delivery", null, true],
        ["voucher-order", null, true],
      ]);
    expect((await history()).every((mail) => /refus/i.test(mail.givenUp ?? ""))).toBe(true);

    // The owner corrects it, the form posted twice: each e-mail sent once, to the corrected address.
    const answers = await Promise.all([
      correctVoucherBuyerEmail(orderId, corrected),
      correctVoucherBuyerEmail(orderId, corrected),
    ]);
    expect(answers.map((answer) => answer?.outcome).sort()).toEqual(["corrected", "unchanged"]);
    expect(answers).toContainEqual({ outcome: "corrected", voucherSent: true });
    await expect.poll(async () => (await voucherRow(voucherId)).deliveredAt).not.toBeNull();
    await expect
      .poll(() =>
        mailsTo(corrected)
          .map((mail) => words(mail.subject))
          .sort(),
      )
      .toEqual([
        "Le bon cadeau pour Élodie Françoise",
        "Votre commande : un bon cadeau (45 €) pour Élodie Françoise",
      ]);
    expect(mailsTo(corrected).find((mail) => /Votre commande/.test(mail.subject))?.text).toMatch(
      /\/commande\/[A-Za-z0-9_-]+/,
    );
    expect(await orderRow(orderId)).toMatchObject({ buyerEmail: corrected });
    // The order's e-mail again (it says the payment was received) and the voucher: sent (their jobs end
    // once the mail server has taken them and what follows is recorded).
    await expect
      .poll(async () =>
        (await history()).filter((mail) => mail.sentAt !== null).map((mail) => mail.kind),
      )
      .toEqual(["voucher-delivery", "voucher-order"]);
    // A cancelled order's address is no longer for the owner to correct.
    const cancelled = await placeVoucherOrder(voucherOrderOf({ kind: "amount", euros: 30 }));
    await db().update(orders).set({ status: "cancelled" }).where(eq(orders.id, cancelled.orderId));
    expect(await correctVoucherBuyerEmail(cancelled.orderId, corrected)).toBeNull();
  });
});
