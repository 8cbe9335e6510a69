import { createHash, randomBytes, randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_HELD_MESSAGE, type OrderStatus } from "../../app/lib/payments/model";
import { instantLabelFr } from "../../app/lib/booking/words";
import { isoDayInParis } from "../../app/lib/dates";
import { INCLUDED_PHOTOS_PAID_WARNING } from "../../app/lib/gallery-sales";
import { clientGalleryPath } from "../../app/lib/gallery-urls";
import {
  galleries,
  galleryPhotoOrders,
  galleryPhotos,
  orderLines,
  orders,
  paymentAttempts,
  siteDocuments,
} from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { useCardVoucherShop } from "../support/card-voucher-shop";
import {
  clientAccessHeader,
  removeClientGalleries,
  serverStore,
  submitButton,
} from "../support/client-galleries";
import { addReadyPhoto, insertTestGallery } from "../support/galleries";
import { fetchPage, postForm, textOf } from "../support/html";
import { makeTestPhotoSet } from "../support/photos";
import { completeLegal } from "../support/seller";
import { serverDatabase } from "../support/server-under-test";

/*
 * An order of extra photos (decision 0184) that no longer pays what is due, as the pages say it, JavaScript
 * off: the owner's « Sélection » and the client's gallery never show it as awaited (no « attend son
 * paiement », no cash form for it), and its order page, once it is called off, says so in French and leads
 * back to the gallery. The gallery's settings warn the owner, next to the number of included photos, once
 * an order of photos is paid or awaited. A transfer is awaited until the gallery expires at the latest (its
 * deadline following a new expiry saved in the settings), and not offered when it could no longer arrive,
 * and a client who chose a transfer may pay by card instead from her gallery (decision 0196). On a server of the file's own that takes cards (the fake Stripe), transfers
 * and payments at the studio.
 */

const { original, stripe } = useCardVoucherShop("sk_test_51ClientGalleryPhotoOrders00000");
const admin = useAdmin();
let galleryId = "";
const photoIds: string[] = [];
const orderIds: string[] = [];
/** The galleries of the tests that order through her form. */
const orderingGalleryIds: string[] = [];

beforeAll(async () => {
  const database = serverDatabase();
  await database
    .update(siteDocuments)
    .set({
      data: {
        ...original("payments"),
        card: true,
        transfer: true,
        studio: true,
        transferHolder: "Studio Lumière",
        transferIban: "FR7630006000011234567890189",
        transferDays: 8,
      },
    })
    .where(eq(siteDocuments.key, "payments"));
  await database
    .update(siteDocuments)
    .set({ data: completeLegal })
    .where(eq(siteDocuments.key, "legal"));
});

beforeAll(async () => {
  const photos = await makeTestPhotoSet(5, { first: 91 });
  const gallery = await insertTestGallery(serverDatabase(), {
    title: "Séance rouverte",
    includedPhotos: 2,
    extraPhotoPriceCents: 700,
    selectionValidatedAt: new Date(),
  });
  galleryId = gallery.id;
  for (const photo of photos) {
    const { id } = await addReadyPhoto(serverDatabase(), serverStore(), galleryId, photo);
    photoIds.push(id);
  }
  // Her selection: the first four photos (two included, two to buy: 14 €).
  await serverDatabase()
    .update(galleryPhotos)
    .set({ favourite: true })
    .where(inArray(galleryPhotos.id, photoIds.slice(0, 4)));
}, 120_000);

afterAll(async () => {
  const database = serverDatabase();
  if (orderIds.length > 0) {
    await database.delete(galleryPhotoOrders).where(inArray(galleryPhotoOrders.orderId, orderIds));
    await database.delete(paymentAttempts).where(inArray(paymentAttempts.orderId, orderIds));
    await database.delete(orderLines).where(inArray(orderLines.orderId, orderIds));
    await database.delete(orders).where(inArray(orders.id, orderIds));
  }
  await removeClientGalleries([...(galleryId ? [galleryId] : []), ...orderingGalleryIds]);
});

/** An order of the gallery's photos as the core leaves it, with the token of its page. */
async function insertPhotoOrder(amountCents: number, photos: string[], status: OrderStatus) {
  const token = randomBytes(32).toString("base64url");
  const [order] = await serverDatabase()
    .insert(orders)
    .values({
      kind: "gallery_photos",
      method: "studio",
      status,
      amountCents,
      buyerName: "Julie Martin",
      buyerEmail: "julie.martin@example.test",
      termsAcceptedAt: new Date(),
      rulesSnapshot: { galleryId },
      tokenHash: createHash("sha256").update(token).digest("hex"),
      idempotencyKey: randomUUID(),
    })
    .returning();
  if (!order) throw new Error("no order");
  orderIds.push(order.id);
  await serverDatabase()
    .insert(orderLines)
    .values({
      orderId: order.id,
      position: 0,
      label: "Photo supplémentaire de la galerie « Séance rouverte »",
      quantity: photos.length,
      unitPriceCents: amountCents / photos.length,
      vatRate: 2000,
    });
  await serverDatabase()
    .insert(galleryPhotoOrders)
    .values({ orderId: order.id, galleryId, photoIds: photos });
  return { id: order.id, token };
}

const ownerPage = () =>
  fetchPage(`/admin/galeries/${galleryId}/selection`, { cookie: admin.cookie() });
const clientPage = () =>
  fetchPage(clientGalleryPath(galleryId), { cookie: clientAccessHeader(galleryId) });

describe("an order of photos that no longer pays what is due", () => {
  it("is not shown as awaited on the owner's page nor the client's, which show what is due now", async () => {
    // 21 € for photos 3 to 5, ordered before the selection changed: stale.
    await insertPhotoOrder(2_100, photoIds.slice(2, 5), "awaiting_payment");
    const owner = await ownerPage();
    expect(owner.status).toBe(200);
    const ownerText = textOf(owner.document.body);
    expect(ownerText).not.toContain("attend son paiement");
    expect(ownerText).toContain("Dû : 14 € pour 2 photos en plus de la formule.");
    expect(owner.document.querySelector('input[name="montant"]')?.getAttribute("value")).toBe(
      "1400",
    );
    const client = await clientPage();
    expect(client.status).toBe(200);
    expect(textOf(client.document.body)).not.toContain("attend son paiement");
    expect(textOf(client.document.querySelector('[data-testid="montant-du"]'))).toContain(
      "14 € à régler",
    );

    // One for what is due now is awaited.
    await insertPhotoOrder(1_400, photoIds.slice(2, 4), "awaiting_payment");
    expect(textOf((await ownerPage()).document.body)).toContain(
      "Une commande de 14 € attend son paiement.",
    );
    expect(textOf((await clientPage()).document.body)).toContain(
      "Une commande de 14 € attend son paiement.",
    );
  });

  it("once called off, says so on its page in French and leads back to the gallery", async () => {
    const { token } = await insertPhotoOrder(2_100, photoIds.slice(2, 5), "cancelled");
    const page = await fetchPage(`/commande/${token}`);
    expect(page.status).toBe(200);
    const text = textOf(page.document.body);
    expect(text).toContain("Cette commande a été annulée : ne la réglez pas");
    expect(text).toContain(
      "elle est remplacée par ce qui reste à payer, que vous retrouvez dans votre galerie",
    );
    const back = [...page.document.querySelectorAll("a")].find(
      (link) => textOf(link) === "Retour à votre galerie",
    );
    expect(back?.getAttribute("href")).toBe(clientGalleryPath(galleryId));
    // Her photos' order is not a gift voucher's, as its description once said of every order.
    const description = page.document.querySelector('meta[name="description"]');
    expect(description?.getAttribute("content")).toBe(
      "Votre commande : son paiement et ses documents.",
    );
  });
});

describe("the gallery's settings", () => {
  it("warn next to the number of included photos while an order of photos is paid or awaited", async () => {
    const hint = async () =>
      textOf(
        (
          await fetchPage(`/admin/galeries/${galleryId}/reglages`, { cookie: admin.cookie() })
        ).document.querySelector("#champ-includedPhotos-aide"),
      );
    const { id } = await insertPhotoOrder(1_400, photoIds.slice(2, 4), "awaiting_payment");
    expect(await hint()).toContain(INCLUDED_PHOTOS_PAID_WARNING);

    // Every order of the gallery released unpaid: no warning.
    await serverDatabase()
      .update(orders)
      .set({ status: "cancelled" })
      .where(inArray(orders.id, orderIds));
    const released = await hint();
    expect(released).toContain("Vide : toutes les photos sont incluses.");
    expect(released).not.toContain("Des photos ont déjà été payées");

    await serverDatabase()
      .update(orders)
      .set({ status: "paid", paidAt: new Date() })
      .where(eq(orders.id, id));
    expect(await hint()).toContain(
      "Des photos ont déjà été payées pour cette galerie : réduire le nombre de photos incluses peut en faire payer d'autres.",
    );
  });
});

/** A validated selection of 4 photos, 2 included, 7 € each beyond: 14 € due. */
async function galleryWithDue(values: Partial<typeof galleries.$inferInsert> = {}) {
  const photos = await makeTestPhotoSet(4, { first: 61 });
  const { id } = await insertTestGallery(serverDatabase(), {
    title: "Séance commandée",
    includedPhotos: 2,
    extraPhotoPriceCents: 700,
    selectionValidatedAt: new Date(),
    ...values,
  });
  orderingGalleryIds.push(id);
  for (const photo of photos) {
    const { id: photoId } = await addReadyPhoto(serverDatabase(), serverStore(), id, photo);
    await serverDatabase()
      .update(galleryPhotos)
      .set({ favourite: true })
      .where(eq(galleryPhotos.id, photoId));
  }
  return id;
}

const galleryPage = (id: string) =>
  fetchPage(clientGalleryPath(id), { cookie: clientAccessHeader(id) });

/** Her « Payer » pressed with `method`, as her page rendered its form (`page`: one loaded earlier). */
async function order(
  id: string,
  method: "card" | "transfer",
  page?: Awaited<ReturnType<typeof fetchPage>>,
) {
  const form = (page ?? (await galleryPage(id))).document
    .querySelector('form input[name="intent"][value="buy"]')
    ?.closest("form");
  expect(form, "the page offers the order form").not.toBeNull();
  const value = (name: string) =>
    form?.querySelector(`input[name="${name}"]`)?.getAttribute("value") ?? "";
  return postForm(
    clientGalleryPath(id),
    {
      intent: "buy",
      cle: value("cle"),
      montant: value("montant"),
      photos: value("photos"),
      paiement: method,
      conditions: "on",
    },
    { cookie: clientAccessHeader(id) },
  );
}

const photoOrdersOf = async (id: string) =>
  (
    await serverDatabase().execute<{
      method: string;
      status: string;
      payBy: Date | null;
      createdAt: Date;
    }>(sql`
      select o.method, o.status, o.pay_by as "payBy", o.created_at as "createdAt" from orders o
      join gallery_photo_orders g on g.order_id = o.id where g.gallery_id = ${id}::uuid
      order by o.created_at`)
  ).rows;

const HOUR = 3_600_000;
/** An instant as the pages write it, spaces as textOf reads them. */
const instantText = (instant: Date) => instantLabelFr(instant).replace(/\s+/g, " ");

describe("a transfer near the gallery's expiry", () => {
  it("is awaited until the gallery expires at the latest, as her gallery and her order's page say, and longer once the owner extends it", async () => {
    // 3 days left, where a transfer is awaited for 8: the money of the 5 days after would go back.
    const expiresAt = new Date(Date.now() + 72 * HOUR);
    const id = await galleryWithDue({ expiresAt });
    const page = await galleryPage(id);
    expect(textOf(page.document.querySelector("#paiement-transfer-ligne"))).toContain(
      `attendu avant le ${instantText(expiresAt)}, la fin de votre galerie.`,
    );
    const placed = await order(id, "transfer", page);
    expect(placed.status).toBe(303);
    const [ordered] = await photoOrdersOf(id);
    expect(new Date(ordered?.payBy ?? 0).getTime()).toBe(expiresAt.getTime());
    const orderPage = await fetchPage(placed.headers.get("location") ?? "");
    expect(textOf(orderPage.document.body)).toContain(
      `Il est attendu avant le ${instantText(expiresAt)} ; passé ce délai, la commande est annulée.`,
    );

    // The owner extends the gallery in its settings: her transfer is awaited the owner's 8 days from
    // her order, as her order's page says.
    const settings = `/admin/galeries/${id}/reglages`;
    const form = await fetchPage(settings, { cookie: admin.cookie() });
    const save = [...form.document.querySelectorAll("button")].find(
      (element) => textOf(element) === "Enregistrer les réglages",
    );
    const saved = await submitButton(save, settings, {
      cookie: admin.cookie(),
      changes: { expiresOn: isoDayInParis(new Date(Date.now() + 30 * 24 * HOUR)) },
    });
    expect(saved.status).toBe(302);
    const [extended] = await photoOrdersOf(id);
    const eightDays = new Date(new Date(extended?.createdAt ?? 0).getTime() + 8 * 24 * HOUR);
    expect(new Date(extended?.payBy ?? 0).getTime()).toBe(eightDays.getTime());
    expect(textOf((await fetchPage(placed.headers.get("location") ?? "")).document.body)).toContain(
      `Il est attendu avant le ${instantText(eightDays)} ; passé ce délai, la commande est annulée.`,
    );
  });

  it("is not offered with less than 48 hours left, and refused in French at its field, what she chose kept", async () => {
    const id = await galleryWithDue();
    // Her page, loaded while a transfer could still arrive; the gallery's end then brought forward.
    const earlier = await galleryPage(id);
    expect(
      earlier.document.querySelector('input[name="paiement"][value="transfer"]'),
    ).not.toBeNull();
    await serverDatabase()
      .update(galleries)
      .set({ expiresAt: new Date(Date.now() + 47 * HOUR) })
      .where(eq(galleries.id, id));

    const page = await galleryPage(id);
    const late = "un virement n'arriverait pas à temps. Payez par carte ou au studio.";
    expect(page.document.querySelector('input[name="paiement"][value="transfer"]')).toBeNull();
    expect(page.document.querySelector('input[name="paiement"][value="card"]')).not.toBeNull();
    expect(textOf(page.document.body)).toContain(late);

    const refused = await order(id, "transfer", earlier);
    expect(refused.status).toBe(400);
    expect(textOf(refused.document.querySelector("#paiement-erreur"))).toMatch(
      new RegExp(`^Votre galerie n'est disponible que jusqu'au .+ : ${late}$`),
    );
    expect(
      refused.document.querySelector('input[name="conditions"]')?.hasAttribute("checked"),
    ).toBe(true);
    expect(await photoOrdersOf(id)).toEqual([]);
  });
});

describe("a client who chose a transfer for her extra photos", () => {
  it("pays by card instead from her gallery: one card order replaces it, the form posted twice too", async () => {
    const id = await galleryWithDue();
    const placed = await order(id, "transfer");
    expect(placed.status).toBe(303);
    const transferPage = placed.headers.get("location") ?? "";

    const gallery = await galleryPage(id);
    expect(textOf(gallery.document.body)).toContain("Une commande de 14 € attend son paiement.");
    const form = gallery.document
      .querySelector('form input[name="paiement"][value="card"]')
      ?.closest("form");
    expect(textOf(form?.querySelector("button"))).toBe("Payer plutôt par carte");
    expect(textOf(form)).toContain(
      "Elle remplace cette commande par virement : ne faites pas le virement.",
    );
    const fieldsOf = (page: typeof gallery) =>
      Object.fromEntries(
        [
          ...(page.document
            .querySelector('form input[name="paiement"][value="card"]')
            ?.closest("form")
            ?.querySelectorAll('input[type="hidden"]') ?? []),
        ].map((input) => [input.getAttribute("name") ?? "", input.getAttribute("value") ?? ""]),
      );
    const fields = fieldsOf(gallery);
    expect(fields).toMatchObject({ intent: "buy", montant: "1400", paiement: "card" });
    const post = (more: Record<string, string> = {}) =>
      postForm(clientGalleryPath(id), { ...fields, ...more }, { cookie: clientAccessHeader(id) });
    const otherTab = fieldsOf(await galleryPage(id));

    // Her acceptance is asked again, at its box: this is a new order.
    const unticked = await post();
    expect(unticked.status).toBe(400);
    expect(textOf(unticked.document.querySelector("#conditions-erreur"))).toContain(
      "Cochez la case pour accepter les conditions de vente",
    );
    expect(unticked.document.querySelector('input[name="paiement"][value="card"]')).not.toBeNull();

    const first = await post({ conditions: "on" });
    expect(first.status).toBe(303);
    const checkout = new URL(first.headers.get("location") ?? "");
    expect(checkout.origin).toBe(stripe().pageOrigin);
    // A double click (the same form's key): the same order and checkout.
    const second = await post({ conditions: "on" });
    expect(second.headers.get("location")).toBe(checkout.href);
    // Her gallery open in another tab (its own key): the card order waits already.
    const fromOtherTab = await postForm(
      clientGalleryPath(id),
      { ...otherTab, conditions: "on" },
      { cookie: clientAccessHeader(id) },
    );
    expect(fromOtherTab.status).toBe(409);
    expect(textOf(fromOtherTab.document.body)).toContain(
      "Une commande de photos attend déjà son paiement : payez-la depuis sa page.",
    );
    expect((await photoOrdersOf(id)).map(({ method, status }) => [method, status])).toEqual([
      ["transfer", "cancelled"],
      ["card", "awaiting_payment"],
    ]);

    // Her gallery shows the card order waiting; the transfer's page, that she chose otherwise.
    const after = await galleryPage(id);
    expect(textOf(after.document.body)).toContain("Une commande de 14 € attend son paiement.");
    expect(after.document.querySelector('input[name="paiement"]')).toBeNull();
    const replaced = await fetchPage(transferPage);
    const text = textOf(replaced.document.body);
    expect(text).toContain("Cette commande a été annulée : ne la réglez pas");
    expect(text).toContain(
      "Vous avez choisi un autre moyen de paiement : elle est remplacée par votre nouvelle commande des mêmes photos",
    );
    expect(text).not.toContain("Payer par virement");
  });
});

describe("a client whose card payment for her extra photos is held for the studio", () => {
  it("is told it came and is being checked, and cannot replace its order by another method", async () => {
    const id = await galleryWithDue();
    // Her gallery open in another tab before she paid: its form (its own key) still offers every method.
    const otherTab = await galleryPage(id);
    const placed = await order(id, "card");
    expect(placed.status).toBe(303);
    const sessionId =
      new URL(placed.headers.get("location") ?? "").pathname.split("/").at(-1) ?? "";
    // The provider took 1 € for 14 €: held for the owner (decision 0172), nothing applied.
    await stripe().pay(sessionId, { amountTotal: 100 });
    await expect
      .poll(async () => {
        const [attempt] = await serverDatabase()
          .select({ status: paymentAttempts.status })
          .from(paymentAttempts)
          .where(eq(paymentAttempts.providerReference, sessionId));
        return attempt?.status;
      })
      .toBe("held");

    const gallery = textOf((await galleryPage(id)).document.body);
    expect(gallery).toContain(PAYMENT_HELD_MESSAGE);
    expect(gallery).not.toContain("attend son paiement");
    expect(gallery).not.toContain("la payer");

    // The other tab's form, by transfer: refused in French, her card order kept, nothing new to pay.
    const sessions = stripe().sessions().length;
    const other = await order(id, "transfer", otherTab);
    expect(other.status).toBe(409);
    expect(textOf(other.document.body)).toContain(PAYMENT_HELD_MESSAGE);
    expect((await photoOrdersOf(id)).map(({ method, status }) => [method, status])).toEqual([
      ["card", "awaiting_payment"],
    ]);
    expect(stripe().sessions()).toHaveLength(sessions);
  });

  it("still says so once its order is called off, offers her nothing to pay again, and leads the owner to decide", async () => {
    const id = await galleryWithDue();
    const placed = await order(id, "card");
    const sessionId =
      new URL(placed.headers.get("location") ?? "").pathname.split("/").at(-1) ?? "";
    await stripe().pay(sessionId, { amountTotal: 100 });
    const heldAttempt = async () =>
      (
        await serverDatabase()
          .select({ orderId: paymentAttempts.orderId, status: paymentAttempts.status })
          .from(paymentAttempts)
          .where(eq(paymentAttempts.providerReference, sessionId))
      )[0];
    await expect.poll(async () => (await heldAttempt())?.status).toBe("held");
    const attempt = await heldAttempt();
    const selection = `/admin/galeries/${id}/selection`;
    const ownerSees = () => fetchPage(selection, { cookie: admin.cookie() });

    // « Rouvrir la sélection » says what it does to her order and to the money held for it.
    const asked = await fetchPage(`${selection}?rouvrir=${id}`, { cookie: admin.cookie() });
    const dialog = textOf(asked.document.querySelector('[role="alertdialog"]'));
    expect(dialog).toContain("Rouvrir la sélection ?");
    expect(dialog).toContain(
      "Sa commande de 14 € en attente de paiement sera annulée et il en sera prévenu par e-mail",
    );
    expect(dialog).toContain(
      "Le paiement par carte de 1 € déjà reçu pour sa commande de 14 € (un autre montant) reste à votre décision",
    );

    // The owner offers one of the two photos to buy: the order (14 €) no longer pays what is due (7 €).
    const offer = [...(await ownerSees()).document.querySelectorAll("button")].find((button) =>
      /^Offrir IMG/.test(button.getAttribute("aria-label") ?? ""),
    );
    expect((await submitButton(offer, selection, { cookie: admin.cookie() })).status).toBe(302);
    expect((await photoOrdersOf(id)).map(({ status }) => status)).toEqual(["cancelled"]);

    // Her gallery still says her money came, and offers no way to pay the 7 € left.
    const gallery = await galleryPage(id);
    expect(textOf(gallery.document.body)).toContain(PAYMENT_HELD_MESSAGE);
    expect(gallery.document.querySelector('input[name="paiement"]')).toBeNull();
    expect(gallery.document.querySelector('[data-testid="montant-du"]')).toBeNull();

    // The owner's page: no cash form, the held payment to decide on its order's page.
    const owner = await ownerSees();
    const ownerText = textOf(owner.document.body);
    expect(ownerText).toContain(
      "Un paiement par carte de 1 € est arrivé pour sa commande de 14 €, qui n'attend plus de paiement",
    );
    expect(owner.document.querySelector('button[value="cash"]')).toBeNull();
    const decide = [...owner.document.querySelectorAll("a")].find(
      (link) => textOf(link) === "Accepter ou rembourser ce paiement",
    );
    expect(decide?.getAttribute("href")).toBe(`/admin/ventes/${attempt?.orderId}`);

    // Her order's page, called off: her money came and is being checked, not « rien ne vous a été débité ».
    const link = [...gallery.document.querySelectorAll("a")].find(
      (anchor) => textOf(anchor) === "Voir la commande",
    );
    const orderPage = textOf((await fetchPage(link?.getAttribute("href") ?? "")).document.body);
    expect(orderPage).toContain("Paiement reçu, à vérifier");
    expect(orderPage).toContain(PAYMENT_HELD_MESSAGE);
    expect(orderPage).not.toContain("Rien ne vous a été débité");

    // The owner reopens her selection: her gallery still says her money came, and leads to her order.
    const reopening = await fetchPage(`${selection}?rouvrir=${id}`, { cookie: admin.cookie() });
    const reopened = await submitButton(
      [
        ...(reopening.document.querySelector('[role="alertdialog"]')?.querySelectorAll("button") ??
          []),
      ].find((button) => /Rouvrir la sélection/.test(textOf(button))),
      `${selection}?rouvrir=${id}`,
      { cookie: admin.cookie() },
    );
    expect(reopened.status).toBe(302);
    const choosing = await galleryPage(id);
    expect(textOf(choosing.document.querySelector("#achat-titre")?.closest("section"))).toContain(
      PAYMENT_HELD_MESSAGE,
    );
    expect(
      [...choosing.document.querySelectorAll("a")]
        .find((anchor) => textOf(anchor) === "Voir la commande")
        ?.getAttribute("href"),
    ).toBe(link?.getAttribute("href"));
    expect(textOf(choosing.document.body)).not.toContain(
      "les photos au-delà de votre formule s'achètent ici",
    );
  });
});
