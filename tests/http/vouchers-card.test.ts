import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  moneyJournal,
  orders,
  paymentAttempts,
  providerEvents,
  refunds,
  siteDocuments,
  vouchers,
} from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { buttonLabelled, flashedToast, pressButton } from "../support/admin-forms";
import { useCardVoucherShop } from "../support/card-voucher-shop";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { serverDatabase } from "../support/server-under-test";
import { voucherOrderFields } from "../support/voucher-form";

/*
 * A voucher paid by card, JavaScript off (decisions 0163, 0168): the order answers a 303 to the provider's
 * page; back from it before the payment is known the order's page says so and refreshes itself by a
 * <meta>; a checkout the provider could not open leads to the order's page, which offers « Payer par
 * carte » again; the same event delivered 3 times while 10 return pages load pays once and e-mails once.
 * The owner's refund confirmation posted twice refunds the card once. The whole walk in a browser:
 * tests/e2e/vouchers-journey.test.ts.
 */

const { stripe, received, original } = useCardVoucherShop("sk_test_51VoucherCardWithoutScript0000");
const admin = useAdmin();

const PAGE = "/bons-cadeaux";

async function orderByCard(buyerEmail = "zoe@example.test"): Promise<FetchedPage> {
  const form = await fetchPage(PAGE);
  return postForm(
    PAGE,
    voucherOrderFields({
      acheteurEmail: buyerEmail,
      cle: form.document.querySelector<HTMLInputElement>('input[name="cle"]')?.value ?? "",
    }),
  );
}

const refreshOf = (page: FetchedPage) =>
  page.document.querySelector('meta[http-equiv="refresh"]')?.getAttribute("content") ?? null;

describe("a voucher paid by card, without JavaScript", () => {
  it("goes to the provider's page; back before the payment is known, the page checks and refreshes itself", async () => {
    const placed = await orderByCard();
    expect(placed.status).toBe(303);
    const checkout = new URL(placed.headers.get("location") ?? "");
    expect(checkout.origin).toBe(stripe().pageOrigin);
    const sessionId = checkout.pathname.split("/").at(-1) ?? "";
    const session = stripe().session(sessionId);
    expect(session?.amount_total).toBe(10_000);

    const back = new URL(String(session?.success_url).replace("{CHECKOUT_SESSION_ID}", sessionId));
    const waiting = await fetchPage(`${back.pathname}${back.search}`);
    expect(waiting.status).toBe(200);
    expect(textOf(waiting.document.body)).toContain("Paiement en cours de vérification");
    expect(refreshOf(waiting)).toBe("5");

    // Left with « Retour » on the provider's page (its cancel address): « Payer par carte » goes back to
    // the same checkout.
    const left = await fetchPage(back.pathname);
    expect(textOf(left.document.body)).toContain("Paiement à faire");
    expect(refreshOf(left)).toBeNull();
    const again = await postForm(back.pathname, { intent: "payer" });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(checkout.href);

    stripe().holdEvents();
    await stripe().pay(sessionId);
    const paid = await fetchPage(`${back.pathname}${back.search}`);
    expect(textOf(paid.document.body)).toContain("Paiement confirmé");
    expect(textOf(paid.document.body)).toContain("État : Payée");
    expect(refreshOf(paid)).toBeNull();
    stripe().releaseEvents();
  });

  it("offers « Payer par carte » again when the provider could not open the checkout", async () => {
    stripe().failNext({ status: 500, times: 3 });
    const placed = await orderByCard();
    expect(placed.status).toBe(303);
    const location = placed.headers.get("location") ?? "";
    expect(location).toMatch(/^\/commande\/[A-Za-z0-9_-]{43}$/);
    const page = await fetchPage(location);
    expect(textOf(page.document.body)).toContain("Le paiement n'a pas abouti");

    const again = await postForm(location, { intent: "payer" });
    expect(again.status).toBe(303);
    expect(new URL(again.headers.get("location") ?? "").origin).toBe(stripe().pageOrigin);
  });

  it("keeps an order placed by card payable on Stripe's page once the owner turned cards off", async () => {
    stripe().failNext({ status: 500, times: 3 });
    const placed = await orderByCard(`carte-retiree-${Date.now()}@example.test`);
    const location = placed.headers.get("location") ?? "";
    expect(location).toMatch(/^\/commande\//);
    await serverDatabase()
      .update(siteDocuments)
      .set({ data: { ...original("payments"), vouchersOnSale: true, card: false } })
      .where(eq(siteDocuments.key, "payments"));
    try {
      const page = await fetchPage(location);
      expect(textOf(page.document.body)).toContain("Payer par carte");
      // The browser follows the form's redirect to Stripe only if the page's policy lets it.
      const formAction = /form-action ([^;]*)/.exec(
        page.headers.get("content-security-policy") ?? "",
      )?.[1];
      expect(formAction?.split(" ")).toContain(stripe().pageOrigin);
      const again = await postForm(location, { intent: "payer" });
      expect(again.status).toBe(303);
      expect(new URL(again.headers.get("location") ?? "").origin).toBe(stripe().pageOrigin);
    } finally {
      await serverDatabase()
        .update(siteDocuments)
        .set({ data: { ...original("payments"), vouchersOnSale: true, card: true } })
        .where(eq(siteDocuments.key, "payments"));
    }
  });

  it("tells the buyer a payment taken for another total was received, never to pay it again", async () => {
    const placed = await orderByCard(`montant-retenu-${Date.now()}@example.test`);
    const sessionId =
      new URL(placed.headers.get("location") ?? "").pathname.split("/").at(-1) ?? "";
    const back = new URL(
      String(stripe().session(sessionId)?.success_url).replace("{CHECKOUT_SESSION_ID}", sessionId),
    );
    // The provider took 1 € for an order of 100 €: held for the owner (decision 0172), nothing applied.
    await stripe().pay(sessionId, { amountTotal: 100 });
    const [attempt] = await serverDatabase()
      .select({ id: paymentAttempts.id, orderId: paymentAttempts.orderId })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.providerReference, sessionId));
    await expect
      .poll(async () => {
        const [row] = await serverDatabase()
          .select({ status: paymentAttempts.status })
          .from(paymentAttempts)
          .where(eq(paymentAttempts.id, attempt?.id ?? ""));
        return row?.status;
      })
      .toBe("held");
    const sessionsBefore = stripe().sessions().length;

    const held = `Votre paiement par carte a bien été reçu, mais son montant ne correspond pas à celui de la commande : le studio le vérifie et vous écrit. Ne payez pas une seconde fois.`;
    for (const path of [`${back.pathname}${back.search}`, back.pathname]) {
      const page = await fetchPage(path);
      const text = textOf(page.document.body);
      expect(text, path).toContain(held);
      expect(text, path).not.toContain("Le paiement n'a pas abouti");
      expect(text, path).not.toContain("Payer par carte");
      expect(refreshOf(page), path).toBeNull();
    }
    const again = await postForm(back.pathname, { intent: "payer" });
    expect(again.status).toBe(409);
    expect(textOf(again.document.body)).toContain(held);
    expect(stripe().sessions()).toHaveLength(sessionsBefore);

    // Released at its deadline while the owner has not decided: the page never says nothing was taken.
    await serverDatabase()
      .update(orders)
      .set({ status: "expired" })
      .where(eq(orders.id, attempt?.orderId ?? ""));
    const lapsed = textOf((await fetchPage(back.pathname)).document.body);
    expect(lapsed).toContain(held);
    expect(lapsed).not.toContain("rien ne vous a été débité");
  });

  it("pays once, issues one voucher and e-mails once when Stripe sends its event 3 times while 10 return pages load", async () => {
    const buyer = `trois-fois-${Date.now()}@example.test`;
    const placed = await orderByCard(buyer);
    const sessionId =
      new URL(placed.headers.get("location") ?? "").pathname.split("/").at(-1) ?? "";
    const session = stripe().session(sessionId);
    const back = new URL(String(session?.success_url).replace("{CHECKOUT_SESSION_ID}", sessionId));
    const [order] = await serverDatabase()
      .select()
      .from(orders)
      .where(eq(orders.buyerEmail, buyer));
    if (!order) throw new Error("no order");

    stripe().holdEvents();
    await stripe().pay(sessionId);
    stripe().releaseEvents();
    const completed = stripe()
      .heldEvents()
      .find(
        (event) =>
          event.type === "checkout.session.completed" && event.data.object.id === sessionId,
      );
    if (!completed) throw new Error("no event");

    const [deliveries, pages] = await Promise.all([
      Promise.all(Array.from({ length: 3 }, () => stripe().deliver(completed.id))),
      Promise.all(Array.from({ length: 10 }, () => fetchPage(`${back.pathname}${back.search}`))),
    ]);
    expect(deliveries.flat().map((delivery) => delivery.status)).toEqual([200, 200, 200]);
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(textOf(page.document.body)).toMatch(
        /Paiement confirmé|Paiement en cours de vérification/,
      );
    }

    // Settled: the event applied, and no e-mail of the order still to send.
    await expect
      .poll(async () => {
        const [stored] = await serverDatabase()
          .select({ processedAt: providerEvents.processedAt })
          .from(providerEvents)
          .where(eq(providerEvents.eventId, completed.id));
        return stored?.processedAt !== null && stored?.processedAt !== undefined;
      })
      .toBe(true);
    const [voucher] = await serverDatabase()
      .select()
      .from(vouchers)
      .where(eq(vouchers.orderId, order.id));
    const mailJobs = () =>
      serverDatabase().execute<{ state: string }>(sql`
        select state from pgboss.job where name = 'mail'
        and (data->>'orderId' = ${order.id} or data->>'voucherId' = ${voucher?.id ?? ""})`);
    await expect
      .poll(async () => (await mailJobs()).rows.map((job) => job.state))
      .toEqual(["completed", "completed", "completed"]);

    expect(
      await serverDatabase()
        .select({ id: providerEvents.id })
        .from(providerEvents)
        .where(eq(providerEvents.eventId, completed.id)),
    ).toHaveLength(1);
    const [paid] = await serverDatabase().select().from(orders).where(eq(orders.id, order.id));
    expect(paid?.status).toBe("paid");
    const attempts = await serverDatabase()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, order.id));
    expect(attempts.map((attempt) => [attempt.status, attempt.duplicate])).toEqual([
      ["succeeded", false],
    ]);
    const journal = await serverDatabase()
      .select({ kind: moneyJournal.kind, amountCents: moneyJournal.amountCents })
      .from(moneyJournal)
      .where(
        and(
          eq(moneyJournal.orderId, order.id),
          inArray(moneyJournal.kind, ["payment", "voucher_issue"]),
        ),
      )
      .orderBy(moneyJournal.seq);
    expect(journal).toEqual([
      { kind: "payment", amountCents: 10_000 },
      { kind: "voucher_issue", amountCents: 10_000 },
    ]);
    const issued = await serverDatabase()
      .select()
      .from(vouchers)
      .where(eq(vouchers.orderId, order.id));
    expect(issued).toHaveLength(1);
    expect(issued[0]?.status).toBe("active");
    expect(issued[0]?.code).toMatch(/^[0-9A-Z]{12}$/);

    // The order's e-mail, the payment's and the voucher's (its PDF), each once.
    const subjects = received()
      .filter((mail) => mail.to.includes(buyer))
      .map((mail) => mail.subject.replace(/\s/g, " "))
      .sort();
    expect(subjects).toEqual([
      "Le bon cadeau pour Léa Martin",
      "Paiement reçu : 100 €",
      "Votre commande : un bon cadeau (100 €) pour Léa Martin",
    ]);
  });
});

describe("the owner's refund of a card payment", () => {
  /** A voucher ordered by card and paid on the fake Stripe's page: its checkout, and its admin page once paid. */
  async function paidOnStripe(buyer: string) {
    const placed = await orderByCard(buyer);
    const sessionId =
      new URL(placed.headers.get("location") ?? "").pathname.split("/").at(-1) ?? "";
    const session = await stripe().pay(sessionId);
    const [order] = await serverDatabase()
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.buyerEmail, buyer));
    const path = `/admin/ventes/${order?.id ?? ""}`;
    await expect
      .poll(async () => textOf((await fetchPage(path, { cookie: admin.cookie() })).document.body))
      .toContain("Payée le");
    return { session, path };
  }

  it("refunds the card once when its confirmation is posted twice", async () => {
    const buyer = `rembourse-${Date.now()}@example.test`;
    const { session, path } = await paidOnStripe(buyer);

    const asked = await fetchPage(`${path}?rembourser=1&montant=40&motif=geste+commercial`, {
      cookie: admin.cookie(),
    });
    const confirm = buttonLabelled(asked.document, "Confirmer le remboursement");
    // A double click, or the browser sending the form again: the same fields, its key among them.
    const first = await pressButton(path, confirm, { cookie: admin.cookie() });
    const second = await pressButton(path, confirm, { cookie: admin.cookie() });
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(flashedToast(first.headers)?.title).toBe("Remboursement de 40\u00a0€ demandé");
    expect(flashedToast(second.headers)).toMatchObject({
      type: "success",
      title: "Ce remboursement est déjà demandé",
    });
    expect(
      stripe()
        .refunds()
        .filter((refund) => refund.payment_intent === session.payment_intent)
        .map((refund) => refund.amount),
    ).toEqual([4_000]);
  });

  it("says at once when the card's refund is refused, and that a payment refunded from Stripe needs no retry", async () => {
    const buyer = `deja-rembourse-${Date.now()}@example.test`;
    const { session, path } = await paidOnStripe(buyer);
    // The owner refunded it whole from her Stripe dashboard first; its event has not reached the site yet.
    stripe().holdEvents();
    await stripe().refundFromDashboard(String(session.payment_intent));

    const asked = await fetchPage(`${path}?rembourser=1&montant=40&motif=geste+commercial`, {
      cookie: admin.cookie(),
    });
    const refused = await pressButton(
      path,
      buttonLabelled(asked.document, "Confirmer le remboursement"),
      { cookie: admin.cookie() },
    );
    expect(flashedToast(refused.headers)).toEqual({
      type: "error",
      title: "Remboursement de 40\u00a0€ refusé",
      description:
        "Ce paiement a déjà été remboursé (par exemple depuis votre tableau de bord Stripe). Voyez sur cette page ce que vous pouvez faire.",
    });
    const page = textOf((await fetchPage(path, { cookie: admin.cookie() })).document.body);
    expect(page).toContain(
      "Le client a donc déjà reçu cet argent : ne relancez pas ce remboursement.",
    );
    expect(page).not.toContain("le client n'a rien reçu");

    // Its event arrives: the dashboard's refund is recorded as the site's (decision 0194), once, and the
    // refused one stays refused.
    stripe().releaseEvents();
    await stripe().deliverHeld();
    const orderId = path.split("/").at(-1) ?? "";
    await expect
      .poll(async () =>
        (await serverDatabase().select().from(refunds).where(eq(refunds.orderId, orderId)))
          .map((refund) => refund.status)
          .sort(),
      )
      .toEqual(["failed", "succeeded"]);
    const [now] = await serverDatabase().select().from(orders).where(eq(orders.id, orderId));
    expect(now?.status).toBe("refunded");
  });
});
