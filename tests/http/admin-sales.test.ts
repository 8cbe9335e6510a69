import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { formatCents } from "../../app/lib/prices";
import { formatVoucherCode } from "../../app/lib/vouchers/code";
import { randomUUID } from "node:crypto";
import {
  moneyJournal,
  orders,
  paymentAttempts,
  providerEvents,
  refunds,
  sessionTypes,
  users,
  voucherExpiryChanges,
  voucherUses,
  vouchers,
} from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import {
  activeVoucher,
  insertHeldAttempt,
  insertOrder,
  insertPaidCardAttempt,
  paidWithActiveVoucher,
} from "../support/admin-sales";
import { buttonLabelled, flashedToast, pressButton } from "../support/admin-forms";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";

/*
 * /admin/ventes and /admin/bons-cadeaux as the server answers them, JavaScript off (decisions 0130, 0162,
 * 0167): the orders paged and filtered in the address, « Marquer payé » issuing the voucher, a refund beyond
 * what was paid refused in French, a voucher used in part, extended and cancelled. A server of the file's
 * own: its orders would push other files' off the list's first page.
 */

useOwnServer();
const admin = useAdmin();
const page = (path: string) => fetchPage(path, { cookie: admin.cookie() });
const post = (path: string, fields: Record<string, string>) =>
  postForm(path, fields, { cookie: admin.cookie() });
const minute = 60_000;
const rows = (list: FetchedPage) => [
  ...list.document.querySelectorAll('ul[aria-label="Commandes"] > li'),
];

const voucherRow = async (id: string) =>
  (await serverDatabase().select().from(vouchers).where(eq(vouchers.id, id)))[0];

describe("/admin/ventes", () => {
  const base = Date.parse("2026-06-01T08:00:00Z");
  beforeAll(async () => {
    for (let index = 0; index < 53; index++) {
      await insertOrder({ buyer: `Liste ${index}`, createdAt: new Date(base - index * minute) });
    }
    await insertOrder({
      method: "transfer",
      buyer: "Virement en retard",
      createdAt: new Date(base + minute),
      latePayment: true,
    });
  });

  it("pages the orders on the server, newest first, 50 a page", async () => {
    const first = await page("/admin/ventes?moyen=studio");
    expect(first.status).toBe(200);
    const firstRows = rows(first);
    expect(firstRows).toHaveLength(50);
    expect(textOf(firstRows[0])).toContain("Liste 0");
    expect(textOf(firstRows[0])).toContain("Bon cadeau de 80 €");
    const next = [...first.document.querySelectorAll("nav a")].find((link) =>
      textOf(link).includes("Page suivante"),
    );
    expect(next?.getAttribute("href")).toContain("moyen=studio");
    const second = await page(next?.getAttribute("href") ?? "");
    expect(rows(second).map(textOf).join("\n")).toContain("Liste 52");
    expect(rows(second)).toHaveLength(3);
  });

  it("flags an order paid twice and one whose provider total differs", async () => {
    const { order } = await insertOrder({
      method: "card",
      buyer: "Drapeaux",
      createdAt: new Date(base + 2 * minute),
    });
    await serverDatabase()
      .insert(paymentAttempts)
      .values([
        {
          orderId: order.id,
          provider: "stripe",
          providerReference: `cs_${randomUUID()}`,
          amountCents: order.amountCents,
          idempotencyKey: randomUUID(),
          status: "held",
          heldReason: "Total reçu : 70 €",
        },
        {
          orderId: order.id,
          provider: "stripe",
          providerReference: `cs_${randomUUID()}`,
          amountCents: order.amountCents,
          idempotencyKey: randomUUID(),
          duplicate: true,
        },
      ]);
    const row = rows(await page("/admin/ventes?moyen=card")).find((item) =>
      textOf(item).includes("Drapeaux"),
    );
    expect(textOf(row)).toContain("Montant différent");
    expect(textOf(row)).toContain("Payée deux fois");
    expect(textOf(row)).not.toContain("Paiement en retard");
    const shown = await page(`/admin/ventes/${order.id}`);
    expect(textOf(shown.document.body)).toContain("retenu : montant différent");
    expect(textOf(shown.document.body)).toContain("Total reçu : 70 €");
  });

  it("shows a card refund still at the provider as in progress, and one that failed with what to do", async () => {
    const { order } = await insertOrder({
      method: "card",
      buyer: "Remboursements suivis",
      createdAt: new Date(base + 3 * minute),
    });
    const attempt = await insertPaidCardAttempt(order);
    await serverDatabase()
      .insert(refunds)
      .values([
        {
          orderId: order.id,
          attemptId: attempt.id,
          amountCents: 2000,
          reason: "Geste",
          status: "pending",
          providerReference: `re_${randomUUID()}`,
          idempotencyKey: randomUUID(),
          createdAt: new Date(Date.now() - 120 * minute),
        },
        {
          orderId: order.id,
          attemptId: attempt.id,
          amountCents: 3000,
          status: "failed",
          providerReference: `re_${randomUUID()}`,
          error: "La carte du client a expiré ou a été annulée.",
          idempotencyKey: randomUUID(),
          createdAt: new Date(Date.now() - 60 * minute),
        },
      ]);
    // Stripe's word on the failed one, kept in the inbox: shown in the order's history.
    await serverDatabase()
      .insert(providerEvents)
      .values({
        provider: "stripe",
        eventId: `evt_${randomUUID()}`,
        type: "refund.failed",
        payload: {},
        refund: {
          refundReference: `re_${randomUUID()}`,
          refundId: null,
          paymentReference: attempt?.paymentReference ?? "",
          status: "failed",
          failureReason: "expired_or_canceled_card",
        },
        occurredAt: new Date(),
        processedAt: new Date(),
        outcome: "applied",
      });
    const row = rows(await page("/admin/ventes?moyen=card")).find((item) =>
      textOf(item).includes("Remboursements suivis"),
    );
    expect(textOf(row)).toContain("Remboursement en cours");
    expect(textOf(row)).toContain("Remboursement échoué");
    const shown = textOf((await page(`/admin/ventes/${order.id}`)).document.body);
    expect(shown).toContain("Remboursement en cours : 20 €");
    expect(shown).toContain("Vous n'avez rien à faire");
    expect(shown).toContain("Le remboursement de 30 € a échoué");
    expect(shown).toContain("La carte du client a expiré ou a été annulée.");
    expect(shown).toContain("relancez le remboursement avec « Rembourser »");
    expect(shown).toContain("Message du prestataire reçu : refund.failed");
    // The failed 30 € count no more: 80 € paid, 20 € on their way, 60 € left to refund.
    expect(shown).toContain("Reste remboursable : 60 €");
  });

  it("« Accepter ce paiement » asks first, then pays a held order for what was taken, once", async () => {
    const { order, voucher } = await insertOrder({ method: "card", buyer: "Montant retenu" });
    const held = await insertHeldAttempt(order, 7000);
    const path = `/admin/ventes/${order.id}`;
    const shown = await page(path);
    expect(textOf(shown.document.body)).toContain(
      "Le prestataire de paiement a encaissé 70 € au lieu de 80 €",
    );
    expect(buttonLabelled(shown.document, "Rembourser ce paiement")).toBeDefined();

    // Without a session: nothing happens.
    const anonymous = await postForm(path, { intent: "accept-held", id: held.id });
    expect(anonymous.status).toBe(401);
    // From another site: refused before anything.
    const foreign = await postForm(
      path,
      { intent: "accept-held", id: held.id },
      { cookie: admin.cookie(), headers: { Origin: "https://ailleurs.example" } },
    );
    expect(foreign.status).toBe(403);
    const [still] = await serverDatabase()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, held.id));
    expect(still?.status).toBe("held");

    const asked = await pressButton(path, buttonLabelled(shown.document, "Accepter ce paiement"), {
      cookie: admin.cookie(),
    });
    const dialog = asked.document.querySelector('[role="alertdialog"]');
    expect(textOf(dialog)).toContain("Accepter le paiement de 70 € pour cette commande de 80 € ?");
    const confirmed = await pressButton(
      path,
      buttonLabelled(dialog ?? asked.document, "Accepter"),
      {
        cookie: admin.cookie(),
      },
    );
    expect(confirmed.status).toBe(302);
    expect(flashedToast(confirmed.headers)?.title).toBe("Paiement accepté");
    const [paid] = await serverDatabase().select().from(orders).where(eq(orders.id, order.id));
    expect(paid?.status).toBe("paid");
    expect((await voucherRow(voucher.id))?.status).toBe("active");
    // Clicked again (a second tab): nothing more.
    const again = await post(path, { intent: "accept-held", id: held.id });
    expect(flashedToast(again.headers)?.title).toBe("Ce paiement est déjà accepté");
    const after = textOf((await page(path)).document.body);
    expect(after.match(/Journal : Paiement reçu/g)).toHaveLength(1);
    expect(after).toContain("Reste remboursable : 70 €");
    expect(after).not.toContain("Paiement à vérifier");
  });

  it("« Rembourser ce paiement » gives a held payment back; the order stays unpaid", async () => {
    const { order } = await insertOrder({ method: "card", buyer: "Rendre retenu" });
    const held = await insertHeldAttempt(order, 9000);
    const path = `/admin/ventes/${order.id}`;
    const asked = await page(`${path}?rendre=${held.id}`);
    const dialog = asked.document.querySelector('[role="alertdialog"]');
    expect(textOf(dialog)).toContain("Rembourser 90 € à Rendre retenu ?");
    const done = await pressButton(path, buttonLabelled(dialog ?? asked.document, "Rembourser"), {
      cookie: admin.cookie(),
    });
    expect(done.status).toBe(302);
    expect(flashedToast(done.headers)?.title?.replace(/\s/g, " ")).toBe(
      "Remboursement de 90 € demandé",
    );
    const [returned] = await serverDatabase()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, held.id));
    expect(returned?.status).toBe("returned");
    // This server has no card keys: the refund waits, and the site will ask again by itself.
    const [refund] = await serverDatabase()
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, order.id));
    expect(refund).toMatchObject({ amountCents: 9000, status: "pending", providerReference: null });
    const [unpaid] = await serverDatabase().select().from(orders).where(eq(orders.id, order.id));
    expect(unpaid?.status).toBe("awaiting_payment");
    const after = textOf((await page(path)).document.body);
    expect(after).toContain("Remboursement en cours : 90 €");
    expect(after).toContain("le site lui redemande tout seul toutes les 15 minutes");
    expect(after).not.toContain("Paiement à vérifier");
    expect(after).not.toContain("Reste remboursable");
    // Accepting it now is refused.
    const late = await post(path, { intent: "accept-held", id: held.id });
    expect(flashedToast(late.headers)).toMatchObject({
      type: "error",
      title: "Ce paiement a déjà été remboursé au client : il ne peut plus être accepté.",
    });
  });

  it("refuses in French to accept or refund here a payment that is not held", async () => {
    const { order } = await insertOrder({ method: "transfer", buyer: "Pas retenu" });
    const [attempt] = await serverDatabase()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, order.id));
    const path = `/admin/ventes/${order.id}`;
    for (const intent of ["accept-held", "refund-held"]) {
      const refused = await post(path, { intent, id: attempt?.id ?? "" });
      expect(refused.status).toBe(302);
      expect(flashedToast(refused.headers)).toMatchObject({
        type: "error",
        title: expect.stringContaining("Ce paiement n'attend pas votre décision"),
      });
    }
    const [unchanged] = await serverDatabase().select().from(orders).where(eq(orders.id, order.id));
    expect(unchanged?.status).toBe("awaiting_payment");
    expect(
      await serverDatabase().select().from(refunds).where(eq(refunds.orderId, order.id)),
    ).toHaveLength(0);
  });

  it("filters by method and shows a late payment", async () => {
    const list = await page("/admin/ventes?moyen=transfer&statut=awaiting_payment");
    const shown = rows(list).map(textOf);
    expect(shown.some((row) => row.includes("Virement en retard"))).toBe(true);
    expect(shown.every((row) => row.includes("Virement"))).toBe(true);
    expect(shown.find((row) => row.includes("Virement en retard"))).toContain("Paiement en retard");
    expect(shown.some((row) => row.includes("Liste"))).toBe(false);
  });

  it("shows each transfer's reference in its row and finds its order by it, however the bank writes it", async () => {
    const awaited = [];
    for (const buyer of ["Anne Relevé", "Bruno Relevé", "Chloé Relevé"]) {
      awaited.push((await insertOrder({ method: "transfer", buyer })).order);
    }
    const [anne, bruno, chloe] = awaited;
    // A reference as the site draws them (transfer-reference.ts), with a 0 that may be typed as an O.
    await serverDatabase()
      .update(orders)
      .set({ transferReference: "BC-0K1M" })
      .where(eq(orders.id, bruno?.id ?? ""));
    const listed = rows(await page("/admin/ventes?moyen=transfer&statut=awaiting_payment"));
    expect(textOf(listed.find((row) => textOf(row).includes("Anne Relevé")))).toContain(
      `Référence du virement : ${anne?.transferReference}`,
    );

    for (const typed of ["BC-0K1M", "bc-0k1m", "BC0K1M", "bc 0k1m", "BC-OK1M"]) {
      const found = await page(`/admin/ventes?moyen=transfer&q=${encodeURIComponent(typed)}`);
      expect(rows(found).map(textOf), typed).toEqual([expect.stringContaining("Bruno Relevé")]);
      expect(textOf(rows(found)[0])).toContain("Référence du virement : BC-0K1M");
      expect(textOf(found.document.querySelector("#commandes")), typed).toBe("1 commande");
      // The search and the other filters stay in the form for the next one.
      expect(found.document.querySelector<HTMLInputElement>('input[name="q"]')?.value).toBe(typed);
      expect(
        found.document.querySelector<HTMLOptionElement>('select[name="moyen"] option[selected]')
          ?.value,
      ).toBe("transfer");
    }

    const byEmail = await page(`/admin/ventes?q=${encodeURIComponent(chloe?.buyerEmail ?? "?")}`);
    expect(rows(byEmail).map(textOf)).toEqual([expect.stringContaining("Chloé Relevé")]);
    // A name without its accents, in any case.
    const byName = await page("/admin/ventes?q=CHLOE%20RELEVE");
    expect(rows(byName).map(textOf)).toEqual([expect.stringContaining("Chloé Relevé")]);
  });

  it("says so in French when nothing matches, and bounds what is typed", async () => {
    const none = await page("/admin/ventes?q=ZZ-9999");
    expect(rows(none)).toHaveLength(0);
    expect(textOf(none.document.querySelector("#commandes"))).toBe("0 commande");
    expect(textOf(none.document.body)).toContain(
      "Aucune commande ne correspond à cette recherche.",
    );
    const long = await page(`/admin/ventes?q=${"a".repeat(5000)}`);
    expect(long.status).toBe(200);
    expect(long.document.querySelector<HTMLInputElement>('input[name="q"]')?.value).toHaveLength(
      255,
    );
  });

  it("keeps the search in the links between pages, and counts only what it finds", async () => {
    const first = await page("/admin/ventes?q=liste");
    expect(textOf(first.document.querySelector("#commandes"))).toBe("53 commandes");
    expect(rows(first)).toHaveLength(50);
    const next = [...first.document.querySelectorAll("nav a")].find((link) =>
      textOf(link).includes("Page suivante"),
    );
    expect(next?.getAttribute("href")).toContain("q=liste");
    const second = await page(next?.getAttribute("href") ?? "");
    expect(rows(second).map(textOf)).toEqual([
      expect.stringContaining("Liste 50"),
      expect.stringContaining("Liste 51"),
      expect.stringContaining("Liste 52"),
    ]);
  });

  it("« Marquer payé » asks first, then makes the order paid and issues its voucher", async () => {
    const { order, voucher } = await insertOrder({ method: "transfer", buyer: "Payeuse" });
    const path = `/admin/ventes/${order.id}`;
    const shown = await page(path);
    expect(textOf(shown.document.body)).toContain(order.transferReference ?? "?");
    const asked = await pressButton(path, buttonLabelled(shown.document, "Marquer payé"), {
      cookie: admin.cookie(),
    });
    expect(textOf(asked.document.body)).toContain("Confirmer le paiement de 80 € (Virement reçu)");
    const confirmed = await pressButton(
      path,
      buttonLabelled(asked.document, "Confirmer le paiement"),
      { cookie: admin.cookie() },
    );
    expect(confirmed.status).toBe(302);
    expect(flashedToast(confirmed.headers)?.title).toBe("Commande payée");
    const [paid] = await serverDatabase().select().from(orders).where(eq(orders.id, order.id));
    expect(paid?.status).toBe("paid");
    const issued = await voucherRow(voucher.id);
    expect(issued?.status).toBe("active");
    expect(issued?.code).toMatch(/^[0-9A-Z]{12}$/);
    const after = await page(path);
    expect(textOf(after.document.body)).toContain("Journal : Paiement reçu");
    expect(textOf(after.document.body)).toContain("Journal : Bon cadeau émis");
    // The e-mails the payment queued show in the order's history.
    expect(textOf(after.document.body)).toMatch(
      /(Commande confirmée à l'acheteur|Paiement : message)/,
    );
    expect(buttonLabelled(after.document, "Marquer payé")).toBeUndefined();
  });

  it("flags a voucher whose reminder before its last day was refused at its buyer's own address", async () => {
    const made = await insertOrder({ buyer: "Rappel refusé" });
    const sent = new Date(Date.now() - 60_000);
    const code = await paidWithActiveVoucher(made, { sendTo: "buyer", reminderSentAt: sent });
    const listed = async () =>
      textOf((await page(`/admin/bons-cadeaux?q=${code}`)).document.querySelector("main"));
    expect(await listed()).not.toContain("Rappel avant la fin de validité");
    // The outbox gave the reminder up at her address (550), after it left.
    await serverDatabase().execute(sql`
      insert into mail_failures (kind, recipient, error, final, at)
      values ('payment', ${made.order.buyerEmail}, 'Adresse refusée par le serveur de messagerie', true, now())`);
    expect(await listed()).toMatch(
      new RegExp(
        `Rappel avant la fin de validité impossible à envoyer à ${made.order.buyerEmail.replace(/[.+]/g, "\\$&")} le .+ \\(Adresse refusée par le serveur de messagerie\\) : c'est l'adresse de son acheteur, qui n'a pas été prévenu de la fin de son bon`,
      ),
    );
  });

  it("corrects a buyer's mistyped address: refused in French keeping what was typed, then the order sent again once", async () => {
    const made = await insertOrder({ buyer: "Adresse mal tapée" });
    const { order, voucher } = made;
    const path = `/admin/ventes/${order.id}`;
    // Paid, its voucher for the buyer herself given up at her mistyped address.
    const code = await paidWithActiveVoucher(made, {
      sendTo: "buyer",
      deliveryFailedAt: new Date(),
      deliveryFailedTo: order.buyerEmail,
    });
    const line = textOf((await page(`/admin/bons-cadeaux?q=${code}`)).document.body);
    expect(line).toContain(`Envoi impossible à ${order.buyerEmail} le `);
    expect(line).toContain(
      "c'est l'adresse de son acheteur : vérifiez-la avec lui et corrigez-la sur la page de la commande, qui lui renvoie le bon.",
    );
    const field = (shown: FetchedPage) =>
      shown.document.querySelector<HTMLInputElement>('input[name="acheteurEmail"]');
    const shown = await page(path);
    expect(textOf(shown.document.body)).toContain("Adresse e-mail de l'acheteur");
    expect(field(shown)?.getAttribute("value")).toBe(order.buyerEmail);

    const refused = await post(path, { intent: "buyer-email", acheteurEmail: "camille@gmail" });
    expect(refused.status).toBe(400);
    expect(field(refused)?.getAttribute("value")).toBe("camille@gmail");
    expect(field(refused)?.getAttribute("aria-invalid")).toBe("true");
    const describedBy = field(refused)?.getAttribute("aria-describedby") ?? "";
    expect(describedBy).toContain("champ-acheteurEmail-erreur");
    expect(textOf(refused.document.getElementById("champ-acheteurEmail-erreur"))).toBe(
      "Indiquez une adresse e-mail valide (par exemple prenom@exemple.fr).",
    );

    const corrected = `camille-${randomUUID()}@example.test`;
    const queued = async () =>
      (
        await serverDatabase().$client.query<{ count: string }>(
          "select count(*) from pgboss.job where name = 'mail' and (data->>'kind' = 'voucher-order' and data->>'orderId' = $1 or data->>'kind' = 'voucher-delivery' and data->>'voucherId' = $2)",
          [order.id, voucher.id],
        )
      ).rows[0]?.count;
    const done = await post(path, { intent: "buyer-email", acheteurEmail: ` ${corrected} ` });
    expect(done.status).toBe(302);
    expect(flashedToast(done.headers)).toMatchObject({
      title: "Adresse corrigée",
      description: `La commande et le bon cadeau sont envoyés à ${corrected}.`,
    });
    const [saved] = await serverDatabase().select().from(orders).where(eq(orders.id, order.id));
    expect(saved?.buyerEmail).toBe(corrected);
    expect(await voucherRow(voucher.id)).toMatchObject({ deliveryFailedTo: null });
    expect(await queued()).toBe("2");
    // Posted again: nothing sent a second time.
    const again = await post(path, { intent: "buyer-email", acheteurEmail: corrected });
    expect(flashedToast(again.headers)?.title).toBe("Aucune modification");
    expect(await queued()).toBe("2");
  });

  it("refuses in French a refund beyond what was paid, then records one to give back", async () => {
    const { order } = await insertOrder({ method: "studio", buyer: "Rembourser" });
    const path = `/admin/ventes/${order.id}`;
    expect((await post(path, { intent: "mark-paid", means: "cash" })).status).toBe(302);
    const refused = await post(path, { intent: "refund", amount: "80,01", reason: "Erreur" });
    expect(refused.status).toBe(400);
    expect(textOf(refused.document.body)).toContain(
      "Vous ne pouvez pas rembourser plus que ce qui a été payé et pas encore remboursé (80 €)",
    );
    expect(
      await serverDatabase().select().from(refunds).where(eq(refunds.orderId, order.id)),
    ).toHaveLength(0);

    const asked = await page(`${path}?rembourser=1&montant=30&motif=Geste`);
    const confirm = buttonLabelled(asked.document, "Confirmer le remboursement");
    const done = await pressButton(path, confirm, { cookie: admin.cookie() });
    expect(done.status).toBe(302);
    // The same confirmation sent again (a double click, the browser resending it) records nothing more.
    const again = await pressButton(path, confirm, { cookie: admin.cookie() });
    expect(flashedToast(again.headers)?.title).toBe("Ce remboursement est déjà enregistré");
    const [refund, ...more] = await serverDatabase()
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, order.id));
    expect(more).toEqual([]);
    expect(refund).toMatchObject({
      amountCents: 3000,
      status: "to_refund_offline",
      reason: "Geste",
    });
    // Hers to give back: flagged on the list's row and on the order's page until she marks it done.
    const flagged = async () => {
      const [row] = rows(await page("/admin/ventes?q=Rembourser"));
      return [
        textOf(row),
        textOf((await page(path)).document.querySelector("#resume")?.parentElement),
      ].map((text) => text.includes("À rembourser par vous"));
    };
    expect(await flagged()).toEqual([true, true]);
    expect((await post(path, { intent: "refunded-offline", id: refund?.id ?? "" })).status).toBe(
      302,
    );
    const [given] = await serverDatabase()
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, order.id));
    expect(given?.status).toBe("refunded_offline");
    expect(await flagged()).toEqual([false, false]);
  });

  it("asks how she gave an offline refund back, the payment's way by default, and writes it in the accountant's files", async () => {
    const { order } = await insertOrder({ method: "studio", buyer: "Rendu autrement" });
    const path = `/admin/ventes/${order.id}`;
    expect((await post(path, { intent: "mark-paid", means: "card_terminal" })).status).toBe(302);
    const asked = await page(`${path}?rembourser=1&montant=20&motif=Geste`);
    const confirm = buttonLabelled(asked.document, "Confirmer le remboursement");
    expect((await pressButton(path, confirm, { cookie: admin.cookie() })).status).toBe(302);
    const [refund] = await serverDatabase()
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, order.id));
    const id = refund?.id ?? "";

    // Her confirmation (without JavaScript, at ?rembourse=<id>) asks how, the card at the studio chosen.
    const dialog = await page(`${path}?rembourse=${id}`);
    const field = dialog.document.querySelector<HTMLSelectElement>('select[name="mode"]');
    expect(textOf(dialog.document.querySelector(`label[for="${field?.id}"]`))).toBe("Rendu par");
    expect([...(field?.options ?? [])].map((option) => option.textContent)).toEqual([
      "Virement",
      "Chèque",
      "Espèces",
      "Carte au studio",
    ]);
    expect(field?.querySelector("option[selected]")?.textContent).toBe("Carte au studio");

    // A way that is not one is refused in French, nothing recorded.
    const refused = await post(path, { intent: "refunded-offline", id, mode: "bitcoin" });
    expect(flashedToast(refused.headers)).toMatchObject({
      type: "error",
      title: "Remboursement non enregistré",
    });
    expect(
      (await serverDatabase().select().from(refunds).where(eq(refunds.id, id)))[0]?.status,
    ).toBe("to_refund_offline");

    // Given back in cash: the journal and the accountant's files say « Espèces ».
    expect((await post(path, { intent: "refunded-offline", id, mode: "cash" })).status).toBe(302);
    const [row] = await serverDatabase()
      .select()
      .from(moneyJournal)
      .where(eq(moneyJournal.refundId, id));
    expect(row?.method).toBe("cash");
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(
      row?.at ?? new Date(),
    );
    const file = await fetch(
      `${serverBaseUrl()}/admin/comptabilite/livre-des-recettes.csv?du=${day}&au=${day}`,
      { headers: { cookie: admin.cookie() } },
    );
    const line = (await file.text()).split("\r\n").find((text) => text.includes("-20,00"));
    expect(line).toContain('"Espèces"');
    // The order's history says how.
    expect(textOf((await page(path)).document.body)).toMatch(
      /Journal : Remboursement-20\s€ · Espèces/,
    );
  });

  it("refunds all of a voucher used in part as a goodwill gesture, cancelling only what was left", async () => {
    const { order, voucher } = await insertOrder({ buyer: "Geste", amountCents: 10_000 });
    const path = `/admin/ventes/${order.id}`;
    expect((await post(path, { intent: "mark-paid", means: "cash" })).status).toBe(302);
    const used = await post("/admin/bons-cadeaux", {
      intent: "use-amount",
      id: voucher.id,
      amount: "30",
    });
    expect(used.status).toBe(302);

    const form = textOf((await page(`${path}?rembourser=1&montant=100&motif=Geste`)).document.body);
    expect(form).toContain(
      "Le solde du bon (70 €) baisse de ce que vous remboursez ; à partir de 70 € remboursés, le bon est annulé.",
    );
    expect((await post(path, { intent: "refund", amount: "100", reason: "Geste" })).status).toBe(
      302,
    );
    const [refund] = await serverDatabase()
      .select()
      .from(refunds)
      .where(eq(refunds.orderId, order.id));
    expect(refund).toMatchObject({ amountCents: 10_000, status: "to_refund_offline" });
    expect((await post(path, { intent: "refunded-offline", id: refund?.id ?? "" })).status).toBe(
      302,
    );
    expect(await voucherRow(voucher.id)).toMatchObject({
      status: "cancelled",
      balanceCents: 7_000,
    });
    const journal = await serverDatabase()
      .select()
      .from(moneyJournal)
      .where(eq(moneyJournal.orderId, order.id))
      .orderBy(moneyJournal.seq);
    expect(
      journal
        .filter((row) => row.kind.startsWith("voucher_"))
        .map((row) => [row.kind, row.amountCents]),
    ).toEqual([
      ["voucher_issue", 10_000],
      ["voucher_redemption", -3_000],
      ["voucher_cancellation", -7_000],
    ]);
    expect((await page(path)).status).toBe(200);
  });
});

describe("/admin/bons-cadeaux", () => {
  it("finds a voucher by its code however it is typed, or by a name", async () => {
    const voucher = await activeVoucher("Recherchée Dupont");
    const typed = formatVoucherCode(voucher.code).toLowerCase();
    const found = await page(`/admin/bons-cadeaux?q=${encodeURIComponent(typed)}`);
    const items = [...found.document.querySelectorAll('ul[aria-label="Bons cadeaux"] > li')];
    expect(items).toHaveLength(1);
    expect(textOf(items[0])).toContain("Recherchée Dupont");
    const byName = await page("/admin/bons-cadeaux?q=recherch%C3%A9e");
    expect(textOf(byName.document.body)).toContain(formatVoucherCode(voucher.code));
  });

  it("uses part of an amount, then refuses more than is left", async () => {
    const voucher = await activeVoucher("Partielle");
    const used = await post("/admin/bons-cadeaux", {
      intent: "use-amount",
      id: voucher.id,
      amount: "30",
    });
    expect(used.status).toBe(302);
    expect((await voucherRow(voucher.id))?.balanceCents).toBe(5000);
    const refused = await post("/admin/bons-cadeaux", {
      intent: "use-amount",
      id: voucher.id,
      amount: "60",
    });
    expect(refused.status).toBe(409);
    expect(textOf(refused.document.body)).toContain("Il ne reste que 50 € sur ce bon.");
    const field = refused.document.querySelector(`#montant-${voucher.id}`);
    expect(field?.getAttribute("value")).toBe("60");
    // The field says where a session's balance goes instead (its final invoice deducts it there).
    const described = (field?.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => textOf(refused.document.getElementById(id)));
    expect(described).toEqual([
      "Pour le solde d'une séance réservée, passez plutôt par « Solde payé au studio » sur la page de la réservation : la séance saura ce qui l'a réglée.",
      "Il ne reste que 50 € sur ce bon.",
    ]);
    expect((await voucherRow(voucher.id))?.balanceCents).toBe(5000);
  });

  it("takes an amount once when its « Utiliser » form is posted twice", async () => {
    const voucher = await activeVoucher("Deux clics", 10_000);
    const list = await page(`/admin/bons-cadeaux?q=${voucher.code}`);
    const key = list.document.querySelector<HTMLInputElement>(
      `li[aria-label^="Bon"] input[name="cle"]`,
    )?.value;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const use = { intent: "use-amount", id: voucher.id, amount: "30", cle: key ?? "" };
    const first = await post("/admin/bons-cadeaux", use);
    const second = await post("/admin/bons-cadeaux", use);
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(flashedToast(second.headers)).toMatchObject({
      title: `30\u00a0€ déjà utilisés sur le bon ${formatVoucherCode(voucher.code)}`,
      description: "Ce montant n'a été pris qu'une fois. Il reste 70\u00a0€.",
    });
    const uses = await serverDatabase()
      .select()
      .from(voucherUses)
      .where(eq(voucherUses.voucherId, voucher.id));
    expect(uses.map((row) => row.amountCents)).toEqual([3000]);
    expect((await voucherRow(voucher.id))?.balanceCents).toBe(7000);
  });

  it("uses a session voucher at the studio once, after a confirmation", async () => {
    const [session] = await serverDatabase()
      .insert(sessionTypes)
      .values({ slug: `seance-${randomUUID()}`, name: "Séance Iris", durationMinutes: 60 })
      .returning();
    if (!session) throw new Error("no session type");
    const voucher = await activeVoucher("Séance au studio");
    await serverDatabase()
      .update(vouchers)
      .set({ kind: "session", sessionTypeId: session.id, label: session.name, vatMode: "single" })
      .where(eq(vouchers.id, voucher.id));
    const path = `/admin/bons-cadeaux?utiliser=${voucher.id}`;
    const asked = await page(path);
    const dialog = asked.document.querySelector('[role="dialog"], [role="alertdialog"]');
    expect(textOf(dialog)).toContain("Utiliser ce bon pour une séance au studio ?");
    const used = await pressButton(path, buttonLabelled(dialog ?? asked.document, "Utiliser"), {
      cookie: admin.cookie(),
    });
    expect(used.status).toBe(302);
    expect(await voucherRow(voucher.id)).toMatchObject({ status: "used", balanceCents: 0 });
    const again = await post("/admin/bons-cadeaux", { intent: "use-session", id: voucher.id });
    expect(flashedToast(again.headers)?.title).toBe("Ce bon a déjà été utilisé.");
  });

  it("extends a voucher to a later day, refuses an earlier one, and cancels it", async () => {
    const voucher = await activeVoucher("Prolongée");
    const earlier = await post("/admin/bons-cadeaux", {
      intent: "extend",
      id: voucher.id,
      expiresOn: "2099-01-01",
    });
    expect(earlier.status).toBe(400);
    expect(textOf(earlier.document.body)).toContain("Choisissez une date après sa fin actuelle");
    const extended = await post("/admin/bons-cadeaux", {
      intent: "extend",
      id: voucher.id,
      expiresOn: "2099-12-31",
    });
    expect(extended.status).toBe(302);
    expect((await voucherRow(voucher.id))?.expiresOn).toBe("2099-12-31");
    // Recorded with the day it replaced and who extended it, and told in its order's history.
    const changes = await serverDatabase()
      .select({ previous: voucherExpiryChanges.previousExpiresOn, by: users.email })
      .from(voucherExpiryChanges)
      .leftJoin(users, eq(users.id, voucherExpiryChanges.by))
      .where(eq(voucherExpiryChanges.voucherId, voucher.id));
    expect(changes).toEqual([{ previous: "2099-06-30", by: admin.account().email }]);
    const history = await page(`/admin/ventes/${voucher.orderId}`);
    expect(
      textOf(history.document.querySelector('section[aria-labelledby="historique"]')),
    ).toContain("Validité prolongée jusqu'au 31 décembre 2099");

    const asked = await page(`/admin/bons-cadeaux?annuler=${voucher.id}`);
    const dialog = asked.document.querySelector('[role="dialog"], [role="alertdialog"]');
    const cancelled = await pressButton(
      `/admin/bons-cadeaux?annuler=${voucher.id}`,
      buttonLabelled(dialog ?? asked.document, "Annuler le bon"),
      { cookie: admin.cookie() },
    );
    expect(cancelled.status).toBe(302);
    expect((await voucherRow(voucher.id))?.status).toBe("cancelled");
  });
});

describe("/admin/dashboard", () => {
  it("shows today's sales and the vouchers to deliver today, each linking to its page", async () => {
    const made = await insertOrder({ buyer: "Du jour", amountCents: 12_345 });
    const { order } = made;
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());
    await paidWithActiveVoucher(made, { deliveryDay: today, recipientName: "Livrée Aujourd'hui" });
    const dashboard = await page("/admin/dashboard");
    const panel = dashboard.document.querySelector('section[aria-labelledby="ventes-du-jour"]');
    expect(textOf(panel)).toMatch(/\d+ ventes? payées? aujourd'hui : /);
    const link = [...(panel?.querySelectorAll("a") ?? [])].find((candidate) =>
      textOf(candidate).includes("Livrée Aujourd'hui"),
    );
    expect(link?.getAttribute("href")).toBe(`/admin/ventes/${order.id}`);
  });
});

describe("an order paid twice, refunded from its page", () => {
  it("gives back the sum the page offers, from both payments, in one confirmation", async () => {
    const { order } = await insertOrder({ method: "studio", buyer: "Payée Deux Fois" });
    const now = new Date();
    // Its own payment at the studio, and the same sum received again (« Payée deux fois »).
    await serverDatabase()
      .update(paymentAttempts)
      .set({ status: "succeeded", succeededAt: now, means: "cash" })
      .where(eq(paymentAttempts.orderId, order.id));
    await serverDatabase().insert(paymentAttempts).values({
      orderId: order.id,
      provider: "studio",
      providerReference: randomUUID(),
      amountCents: order.amountCents,
      idempotencyKey: randomUUID(),
      status: "succeeded",
      succeededAt: now,
      means: "cash",
      duplicate: true,
    });
    await serverDatabase()
      .update(orders)
      .set({ status: "paid", paidAt: now })
      .where(eq(orders.id, order.id));
    const both = String((2 * order.amountCents) / 100);

    const path = `/admin/ventes/${order.id}`;
    const shown = await page(path);
    expect(shown.document.querySelector('input[name="montant"]')?.getAttribute("value")).toBe(both);
    const asked = await page(`${path}?rembourser=1&montant=${both}&motif=Erreur`);
    const key = asked.document.querySelector('input[name="cle"]')?.getAttribute("value") ?? "";
    const refund = await post(path, { intent: "refund", amount: both, reason: "Erreur", cle: key });
    expect(refund.status).toBe(302);
    expect(flashedToast(refund.headers)).toMatchObject({
      title: `Remboursement de ${formatCents(2 * order.amountCents)} à faire`,
    });
    const made = await serverDatabase().select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(made.map((row) => row.amountCents)).toEqual([order.amountCents, order.amountCents]);
    // The same confirmation posted again: found, nothing more.
    const again = await post(path, { intent: "refund", amount: both, reason: "Erreur", cle: key });
    expect(flashedToast(again.headers)?.title).toBe("Ce remboursement est déjà enregistré");
    expect(
      await serverDatabase().select().from(refunds).where(eq(refunds.orderId, order.id)),
    ).toHaveLength(2);
  });
});
