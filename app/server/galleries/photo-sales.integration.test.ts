import fs from "node:fs/promises";
import { eq, inArray, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { paymentsSchema } from "~/content/schemas";
import { instantLabelFr } from "~/lib/booking/words";
import { isoDayInParis } from "~/lib/dates";
import { clientGalleryPath } from "~/lib/gallery-urls";
import { PAYMENT_HELD_MESSAGE } from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";
import { useAppDatabase } from "../../../tests/support/database";
import { addReadyPhoto, insertTestGallery } from "../../../tests/support/galleries";
import { memoryCardProvider, orderRow, reportCardPaid } from "../../../tests/support/payments";
import { makeTestJpeg } from "../../../tests/support/photos";
import { completeLegal } from "../../../tests/support/seller";
import { unzip } from "../../../tests/support/unzip";
import { action as orderPageAction } from "../../routes/commande/index.server";
import { loader as photoLoader } from "../../routes/galerie-client/photo";
import { loader as zipLoader } from "../../routes/galerie-client/zip";
import { saveDocument } from "../content/content-store.server";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import {
  galleries,
  galleryPhotoOrders,
  galleryPhotos,
  galleryUnlocks,
  invoices,
  orderLines,
  paymentAttempts,
  refunds,
} from "../db/schema";
import { setClockForTests } from "../clock.server";
import { invoicesOfOrder } from "../invoices/orders.server";
import { expireLapsedPayments } from "../payments/jobs.server";
import { provideOrderKinds } from "../payments/order-kinds.server";
import { siteUrl } from "../payments/emails.server";
import { refundHeldPayment } from "../payments/held-payments.server";
import { markPaidOffline, requestRefund } from "../payments/orders.server";
import { storage } from "../storage/storage.server";
import { deletePhoto, movePhoto } from "../uploads/gallery-photos.server";
import { galleryAccessCookie } from "./access.server";
import { validateSelection } from "./client.server";
import {
  deleteGallery,
  endOfParisDay,
  extendExpiry,
  reopenSelection,
  updateGallery,
} from "./galleries.server";
import {
  EXPIRED_PHOTO_REFUND_REASON,
  photoOrderCalledOffEmail,
  photoOrderDeadlineEmail,
  refundUndeliveredPhotoOrder,
} from "./photo-order-release.server";
import { photoOrderEmail } from "./photo-order-mail.server";
import {
  ALTERED_ORDER_MESSAGE,
  callOffStalePhotoOrders,
  cashPhotoOrder,
  CHECKOUT_OPEN_MESSAGE,
  DUE_CHANGED_MESSAGE,
  EXPIRED_CASH_MESSAGE,
  EXPIRED_SALE_MESSAGE,
  createPhotoOrder,
  heldCashMessage,
  downloadablePhotoIds,
  galleryPhotoRights,
  lateTransferMessage,
  offerPhotos,
  PENDING_ORDER_MESSAGE,
  pendingPhotoOrder,
  photoSalesOrderKind,
} from "./photo-sales.server";
import { runGalleryRetention } from "./retention.server";

// Extra photos sold from a client gallery (decision 0184) on a real PostgreSQL: the amount the server
// computes, the photos unlocked by the payment (and the ZIP holding exactly them), locked again by a full
// refund, cashed at the studio, offered by the owner.

const dataDir = vi.hoisted(() => {
  const directory = `${process.env.TMPDIR ?? "/tmp"}/photo-sales-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = directory;
  return directory;
});

useAppDatabase({ jobs: true });
const card = memoryCardProvider();
beforeAll(async () => {
  card.install();
  provideOrderKinds([photoSalesOrderKind]);
  await saveDocument("legal", completeLegal, { id: "", name: "Camille" }, "test");
});
afterAll(async () => {
  card.uninstall();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const settings = paymentsSchema.parse({ card: true, transfer: false, studio: true });
let set: { name: string; buffer: Buffer }[] = [];
beforeAll(async () => {
  // Small photos (one web size each, encoded in milliseconds): what is sold and zipped is the original.
  set = await Promise.all(
    Array.from({ length: 10 }, async (_, index) => ({
      name: `IMG_${String(index + 1).padStart(4, "0")}.jpg`,
      buffer: await makeTestJpeg({ index: index + 1, width: 320, height: 213 }),
    })),
  );
});

/** A gallery of 10 photos, 3 included, 5 € a photo, 30 € for all; the first `favourites` chosen. */
async function sellingGallery(favourites: number, validated = true) {
  const { id } = await insertTestGallery(db(), {
    includedPhotos: 3,
    extraPhotoPriceCents: 500,
    allPhotosPriceCents: 3_000,
    selectionValidatedAt: validated ? new Date() : null,
  });
  const ids: string[] = [];
  for (const [index, photo] of set.entries()) {
    const { id: photoId } = await addReadyPhoto(db(), storage(), id, photo);
    if (index < favourites) {
      await db()
        .update(galleryPhotos)
        .set({ favourite: true })
        .where(eq(galleryPhotos.id, photoId));
    }
    ids.push(photoId);
  }
  return { id, photoIds: ids };
}

async function galleryRow(id: string) {
  const [row] = await db().select().from(galleries).where(eq(galleries.id, id));
  if (!row) throw new Error("no gallery");
  return row;
}

const payByCard = reportCardPaid;

async function zipNames(galleryId: string): Promise<string[]> {
  const gallery = await galleryRow(galleryId);
  const request = new Request(`http://localhost/galerie-client/${galleryId}/telecharger.zip`, {
    headers: { Cookie: (await galleryAccessCookie(gallery)).split(";")[0] ?? "" },
  });
  const response = (await zipLoader({
    request,
    params: { id: galleryId },
    context: undefined,
  } as unknown as Parameters<typeof zipLoader>[0])) as Response;
  const entries = await unzip(Buffer.from(await response.arrayBuffer()));
  return entries.map((entry) => entry.name.split("/").at(-1) ?? "").sort();
}

describe("extra photos of a client gallery", () => {
  it("are priced by the server: the extras of the validated selection, or all photos when cheaper", async () => {
    const five = await sellingGallery(8);
    const { due } = await galleryPhotoRights(await galleryRow(five.id));
    expect(due).toMatchObject({ amountCents: 2_500, allPhotos: false, quantity: 5 });
    expect(due?.photoIds).toEqual(five.photoIds.slice(3, 8));

    const every = await sellingGallery(10);
    expect((await galleryPhotoRights(await galleryRow(every.id))).due).toMatchObject({
      amountCents: 3_000,
      allPhotos: true,
    });

    const open = await sellingGallery(8, false);
    expect((await galleryPhotoRights(await galleryRow(open.id))).due).toBeNull();
    expect(await downloadablePhotoIds(await galleryRow(open.id))).toEqual(new Set());
  });

  it("refuses an altered amount or photo list in French, and orders nothing", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const gallery = await galleryRow(id);
    const posted = { method: "card" as const, idempotencyKey: crypto.randomUUID() };
    await expect(
      createPhotoOrder(
        gallery,
        { ...posted, amountCents: 100, photoIds: photoIds.slice(3, 8) },
        settings,
      ),
    ).rejects.toThrow(ALTERED_ORDER_MESSAGE);
    await expect(
      createPhotoOrder(
        gallery,
        { ...posted, amountCents: 2_500, photoIds: photoIds.slice(2, 7) },
        settings,
      ),
    ).rejects.toThrow(ALTERED_ORDER_MESSAGE);
    await expect(
      createPhotoOrder(
        gallery,
        { ...posted, method: "transfer", amountCents: 2_500, photoIds: photoIds.slice(3, 8) },
        settings,
      ),
    ).rejects.toThrow("Ce moyen de paiement n'est pas proposé");
    expect(
      await db().select().from(galleryUnlocks).where(eq(galleryUnlocks.galleryId, id)),
    ).toEqual([]);
  });

  it("unlocks the bought photos once paid, invoices them, and the ZIP holds exactly what she may download; a full refund locks them again", async () => {
    const { id, photoIds } = await sellingGallery(8);
    expect(await zipNames(id)).toEqual(["IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg"]);

    const checkout = await createPhotoOrder(
      await galleryRow(id),
      {
        method: "card",
        idempotencyKey: crypto.randomUUID(),
        amountCents: 2_500,
        photoIds: photoIds.slice(3, 8),
      },
      settings,
    );
    expect(checkout.redirectUrl).toMatch(/^https:\/\/checkout\.example\.test\//);
    expect(await downloadablePhotoIds(await galleryRow(id))).toEqual(new Set(photoIds.slice(0, 3)));

    expect((await payByCard(checkout.orderId, 2_500)).outcome).toBe("applied");
    const gallery = await galleryRow(id);
    const { rights, due } = await galleryPhotoRights(gallery);
    expect(due).toBeNull();
    expect(photoIds.map((photoId) => rights.get(photoId))).toEqual([
      ...Array(3).fill("included"),
      ...Array(5).fill("bought"),
      "to_buy",
      "to_buy",
    ]);
    expect(await zipNames(id)).toEqual(set.slice(0, 8).map((photo) => photo.name));
    const [invoice] = await invoicesOfOrder(checkout.orderId);
    expect(invoice).toMatchObject({ kind: "sale", ttcCents: 2_500 });

    await requestRefund(checkout.orderId, 2_500, "Geste commercial");
    expect((await orderRow(checkout.orderId)).status).toBe("refunded");
    expect(await downloadablePhotoIds(await galleryRow(id))).toEqual(new Set(photoIds.slice(0, 3)));
    expect(
      await db().select().from(invoices).where(eq(invoices.orderId, checkout.orderId)),
    ).toHaveLength(2);
  });

  it("takes one order of the same photos posted twice at once, and refuses the other", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const gallery = await galleryRow(id);
    const post = () =>
      createPhotoOrder(
        gallery,
        {
          method: "card",
          idempotencyKey: crypto.randomUUID(),
          amountCents: 2_500,
          photoIds: photoIds.slice(3, 8),
        },
        settings,
      );
    const results = await Promise.allSettled([post(), post()]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const [refused] = results.filter((result) => result.status === "rejected");
    expect(String(refused?.reason)).toContain(PENDING_ORDER_MESSAGE);
    expect(
      await db().select().from(galleryPhotoOrders).where(eq(galleryPhotoOrders.galleryId, id)),
    ).toHaveLength(1);
  });

  it("cashes at the studio through the core (« Encaisser et débloquer »), with the invoice", async () => {
    const { id, photoIds } = await sellingGallery(10);
    const { orderId } = await cashPhotoOrder(
      await galleryRow(id),
      "card_terminal",
      crypto.randomUUID(),
    );
    expect(await orderRow(orderId)).toMatchObject({
      status: "paid",
      method: "studio",
      amountCents: 3_000,
      kind: "gallery_photos",
    });
    expect(await downloadablePhotoIds(await galleryRow(id))).toEqual(new Set(photoIds));
    expect(await invoicesOfOrder(orderId)).toHaveLength(1);
    await expect(cashPhotoOrder(await galleryRow(id), "cash", crypto.randomUUID())).rejects.toThrow(
      "Aucune photo à encaisser",
    );
  });

  it("keeps her package's photos when the owner reopens the selection after she paid for extras", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const checkout = await createPhotoOrder(
      await galleryRow(id),
      {
        method: "card",
        idempotencyKey: crypto.randomUUID(),
        amountCents: 2_500,
        photoIds: photoIds.slice(3, 8),
      },
      settings,
    );
    await payByCard(checkout.orderId, 2_500);
    expect(await reopenSelection(id)).toBe(true);
    const reopened = await galleryPhotoRights(await galleryRow(id));
    expect(photoIds.map((photoId) => reopened.rights.get(photoId))).toEqual([
      ...Array(3).fill("included"),
      ...Array(5).fill("bought"),
      "to_buy",
      "to_buy",
    ]);
    expect(reopened.due).toBeNull();
    expect(await zipNames(id)).toEqual(set.slice(0, 8).map((photo) => photo.name));

    // Validated again as it was: the same package, nothing due.
    expect(await validateSelection(id)).toEqual({ count: 8 });
    const validated = await galleryPhotoRights(await galleryRow(id));
    expect(validated.rights).toEqual(reopened.rights);
    expect(validated.due).toBeNull();
    expect((await galleryRow(id)).packagePhotoIds).toBeNull();
  });

  it("lets the owner offer a photo, once, which the client may then download", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const offered = photoIds[9] as string;
    expect(await offerPhotos(id, [offered])).toBe(1);
    expect(await offerPhotos(id, [offered])).toBe(0);
    const gallery = await galleryRow(id);
    expect((await galleryPhotoRights(gallery)).rights.get(offered)).toBe("offered");
    expect(await zipNames(id)).toContain("IMG_0010.jpg");
  });
});

/** The owner takes cards, transfers and payments at the studio. */
const transferSettings = paymentsSchema.parse({
  card: true,
  transfer: true,
  studio: true,
  transferHolder: "Studio Lumière",
  transferIban: "FR7630006000011234567890189",
});

/** Her order of photos 4–8 (25 €), by `method`. */
const orderExtras = (id: string, photoIds: string[], method: "card" | "transfer") =>
  galleryRow(id).then((gallery) =>
    createPhotoOrder(
      gallery,
      {
        method,
        idempotencyKey: crypto.randomUUID(),
        amountCents: 2_500,
        photoIds: photoIds.slice(3, 8),
      },
      transferSettings,
    ),
  );

describe("an order of photos awaiting payment when what is due changes", () => {
  const calledOffMails = async (orderId: string) =>
    (
      await db().execute<{ kind: string }>(sql`
        select data->>'kind' as kind from pgboss.job
        where name = 'mail' and data->>'orderId' = ${orderId}
          and data->>'kind' = 'gallery-photo-order-called-off'`)
    ).rows.length;

  const buyerPaidMails = async (orderId: string) =>
    (
      await db().execute<{ id: string }>(sql`
        select id from pgboss.job where name = 'mail' and data->>'orderId' = ${orderId}
          and data->>'kind' = 'payment-buyer' and data->>'event' = 'paid'`)
    ).rows.length;

  const queuedRefunds = async (orderId: string) =>
    (
      await db().execute<{ id: string }>(sql`
        select id from pgboss.job where name = 'gallery-photo-refund' and data->>'orderId' = ${orderId}`)
    ).rows.length;

  const unlocksOfOrder = (orderId: string) =>
    db().select().from(galleryUnlocks).where(eq(galleryUnlocks.orderId, orderId));

  it("is called off when the owner offers every photo: nothing waits, « Encaisser » cashes nothing, she is told once", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const waiting = await orderExtras(id, photoIds, "transfer");
    expect(await offerPhotos(id, null)).toBe(1);

    expect((await orderRow(waiting.orderId)).status).toBe("cancelled");
    const gallery = await galleryRow(id);
    const { due } = await galleryPhotoRights(gallery);
    expect(due).toBeNull();
    expect(await pendingPhotoOrder(id, due)).toBeNull();
    await expect(cashPhotoOrder(gallery, "cash", crypto.randomUUID())).rejects.toThrow(
      "Aucune photo à encaisser",
    );
    expect((await orderRow(waiting.orderId)).status).toBe("cancelled");
    expect(await invoicesOfOrder(waiting.orderId)).toEqual([]);
    expect(await callOffStalePhotoOrders(id)).toBe(0);
    expect(await calledOffMails(waiting.orderId)).toBe(1);

    const mail = await photoOrderCalledOffEmail(waiting.orderId);
    expect(mail?.subject).toMatch(/^Votre commande de photos de 25\s€ est annulée$/);
    expect(mail?.text).toContain("Ne faites pas ce virement");
    expect(mail?.text).toContain(`/galerie-client/${id}`);
  });

  it("is called off when a photo of the selection is deleted, or the photos reordered", async () => {
    const deleted = await sellingGallery(8);
    const first = await orderExtras(deleted.id, deleted.photoIds, "transfer");
    expect(await deletePhoto(deleted.id, deleted.photoIds[4] ?? "")).not.toBeNull();
    expect((await orderRow(first.orderId)).status).toBe("cancelled");

    // The last photo of her selection first: it is now in her package, and one of the order's is not.
    const moved = await sellingGallery(8);
    const second = await orderExtras(moved.id, moved.photoIds, "transfer");
    expect(await movePhoto(moved.id, moved.photoIds[7] ?? "", { to: 1 })).toBe(true);
    expect((await orderRow(second.orderId)).status).toBe("cancelled");
  });

  it("is never reported cashed by a form posted again once its order was called off", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const key = crypto.randomUUID();
    const gallery = await galleryRow(id);
    const waiting = await createPhotoOrder(
      gallery,
      {
        method: "transfer",
        idempotencyKey: key,
        amountCents: 2_500,
        photoIds: photoIds.slice(3, 8),
      },
      transferSettings,
    );
    await offerPhotos(id, photoIds.slice(3, 4));
    expect((await orderRow(waiting.orderId)).status).toBe("cancelled");
    await expect(cashPhotoOrder(await galleryRow(id), "cash", key)).rejects.toThrow(
      DUE_CHANGED_MESSAGE,
    );
    expect(await invoicesOfOrder(waiting.orderId)).toEqual([]);
  });

  it("is called off when the owner reopens the selection: her new selection is ordered, and cashed at what is due now", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const waiting = await orderExtras(id, photoIds, "transfer");
    expect(await reopenSelection(id)).toBe(true);
    expect((await orderRow(waiting.orderId)).status).toBe("cancelled");

    // She drops photos 4–8, picks 9 and 10, and validates again.
    for (const [index, photoId] of photoIds.entries()) {
      await db()
        .update(galleryPhotos)
        .set({ favourite: index < 3 || index >= 8 })
        .where(eq(galleryPhotos.id, photoId));
    }
    await validateSelection(id);
    const { due } = await galleryPhotoRights(await galleryRow(id));
    expect(due).toMatchObject({ amountCents: 1_000, photoIds: photoIds.slice(8) });

    const fresh = await createPhotoOrder(
      await galleryRow(id),
      {
        method: "transfer",
        idempotencyKey: crypto.randomUUID(),
        amountCents: 1_000,
        photoIds: photoIds.slice(8),
      },
      transferSettings,
    );
    const { orderId } = await cashPhotoOrder(
      await galleryRow(id),
      "cash",
      crypto.randomUUID(),
      1_000,
    );
    expect(orderId).toBe(fresh.orderId);
    expect(await orderRow(orderId)).toMatchObject({ status: "paid", amountCents: 1_000 });
    const { rights } = await galleryPhotoRights(await galleryRow(id));
    expect(photoIds.map((photoId) => rights.get(photoId))).toEqual([
      ...Array(3).fill("included"),
      ...Array(5).fill("to_buy"),
      "bought",
      "bought",
    ]);
    expect((await orderRow(waiting.orderId)).status).toBe("cancelled");
  });

  it("is called off when photos it pays are offered: a card payment of the old amount is given back, and she pays what is left", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const waiting = await orderExtras(id, photoIds, "card");
    const closed = card.calls.expire;
    await offerPhotos(id, photoIds.slice(3, 5));
    expect((await orderRow(waiting.orderId)).status).toBe("cancelled");
    // Its checkout closed at the provider at once.
    expect(card.calls.expire).toBe(closed + 1);

    // The provider reports a payment of 25 € all the same: late, nothing unlocked, given back.
    expect((await payByCard(waiting.orderId, 2_500)).outcome).toBe("late");
    expect(await unlocksOfOrder(waiting.orderId)).toEqual([]);
    // Told why it goes back (the refund's e-mail), never « paiement reçu » before it.
    expect(await buyerPaidMails(waiting.orderId)).toBe(0);
    expect(await queuedRefunds(waiting.orderId)).toBe(1);
    await refundUndeliveredPhotoOrder(waiting.orderId);
    await refundUndeliveredPhotoOrder(waiting.orderId);
    expect((await orderRow(waiting.orderId)).status).toBe("refunded");
    const given = await db().select().from(refunds).where(eq(refunds.orderId, waiting.orderId));
    expect(given.map((refund) => [refund.amountCents, refund.status])).toEqual([
      [2_500, "succeeded"],
    ]);

    const { due } = await galleryPhotoRights(await galleryRow(id));
    expect(due).toMatchObject({ amountCents: 1_500, photoIds: photoIds.slice(5, 8) });
    const fresh = await createPhotoOrder(
      await galleryRow(id),
      {
        method: "card",
        idempotencyKey: crypto.randomUUID(),
        amountCents: 1_500,
        photoIds: photoIds.slice(5, 8),
      },
      transferSettings,
    );
    expect(fresh.created).toBe(true);
    expect((await payByCard(fresh.orderId, 1_500)).outcome).toBe("applied");
    expect(await downloadablePhotoIds(await galleryRow(id))).toEqual(new Set(photoIds.slice(0, 8)));
  });

  it("stands when its payment beat the call-off, or is given back when the call-off came first", async () => {
    // Paid on the provider's page before the owner's offer closed it: the close finds it paid (late).
    const first = await sellingGallery(8);
    const beaten = await orderExtras(first.id, first.photoIds, "card");
    const [attempt] = await db()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, beaten.orderId));
    card.pay(attempt?.providerReference ?? "", 2_500);
    await offerPhotos(first.id, first.photoIds.slice(3, 5));
    expect(await orderRow(beaten.orderId)).toMatchObject({ status: "paid", latePayment: true });
    expect(await unlocksOfOrder(beaten.orderId)).toEqual([]);
    expect(await queuedRefunds(beaten.orderId)).toBe(1);

    // The payment and the offer at once: either the payment is applied first (its photos unlocked,
    // nothing due), or the order is called off first (the payment late and given back, 15 € due).
    const second = await sellingGallery(8);
    const racing = await orderExtras(second.id, second.photoIds, "card");
    await Promise.all([
      payByCard(racing.orderId, 2_500),
      offerPhotos(second.id, second.photoIds.slice(3, 5)),
    ]);
    const order = await orderRow(racing.orderId);
    const { due } = await galleryPhotoRights(await galleryRow(second.id));
    if (order.latePayment) {
      expect(await unlocksOfOrder(racing.orderId)).toEqual([]);
      expect(await queuedRefunds(racing.orderId)).toBe(1);
      expect(due?.amountCents).toBe(1_500);
    } else {
      expect(order.status).toBe("paid");
      expect(await unlocksOfOrder(racing.orderId)).toHaveLength(5);
      expect(due).toBeNull();
    }
  });

  it("is called off when the owner changes the gallery's prices", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const waiting = await orderExtras(id, photoIds, "transfer");
    const gallery = await galleryRow(id);
    expect(
      await updateGallery(id, {
        title: gallery.title,
        clientName: gallery.clientName,
        clientEmail: gallery.clientEmail,
        studioId: null,
        sessionDate: gallery.sessionDate,
        expiresOn: "2027-06-30",
        purgeAfterDays: 30,
        downloadsAllowed: true,
        watermark: false,
        coverFocus: null,
        includedPhotos: "3",
        extraPhotoPrice: "8",
        allPhotosPrice: "30",
      }),
    ).toBe(true);
    expect((await orderRow(waiting.orderId)).status).toBe("cancelled");
    expect((await galleryPhotoRights(await galleryRow(id))).due).toMatchObject({
      amountCents: 3_000,
      allPhotos: true,
    });
  });

  it("is called off when its gallery is deleted; a paid one stays with its invoice, and money after it goes back", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const paid = await orderExtras(id, photoIds, "card");
    await payByCard(paid.orderId, 2_500);
    // Reopened, she adds photos 9 and 10 and orders them by card: 5 €, what is left of « toutes les
    // photos » (30 €) once her 25 € are counted.
    await reopenSelection(id);
    for (const photoId of photoIds.slice(8)) {
      await db()
        .update(galleryPhotos)
        .set({ favourite: true })
        .where(eq(galleryPhotos.id, photoId));
    }
    await validateSelection(id);
    const waiting = await createPhotoOrder(
      await galleryRow(id),
      {
        method: "card",
        idempotencyKey: crypto.randomUUID(),
        amountCents: 500,
        photoIds: photoIds.slice(8),
      },
      transferSettings,
    );

    expect(await deleteGallery(id)).toBe(true);
    expect((await orderRow(waiting.orderId)).status).toBe("cancelled");
    expect((await orderRow(paid.orderId)).status).toBe("paid");
    expect(await invoicesOfOrder(paid.orderId)).toHaveLength(1);
    const mail = await photoOrderCalledOffEmail(waiting.orderId);
    expect(mail?.text).toContain("Votre galerie a été supprimée");

    expect((await payByCard(waiting.orderId, 500)).outcome).toBe("late");
    expect(await queuedRefunds(waiting.orderId)).toBe(1);
    await refundUndeliveredPhotoOrder(waiting.orderId);
    expect((await orderRow(waiting.orderId)).status).toBe("refunded");
  });

  it("left waiting by a change that did not call it off, is neither shown nor cashed: « Encaisser » calls it off and cashes what is due", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const stale = await orderExtras(id, photoIds, "transfer");
    // Photos 4 and 5 offered behind offerPhotos' back (a crash before its call-off).
    await db()
      .insert(galleryUnlocks)
      .values(
        photoIds
          .slice(3, 5)
          .map((photoId) => ({ galleryId: id, photoId, source: "offered" as const })),
      );
    const { due } = await galleryPhotoRights(await galleryRow(id));
    expect(due?.amountCents).toBe(1_500);
    expect(await pendingPhotoOrder(id, due)).toBeNull();

    await expect(
      cashPhotoOrder(await galleryRow(id), "cash", crypto.randomUUID(), 2_500),
    ).rejects.toThrow(DUE_CHANGED_MESSAGE);
    const key = crypto.randomUUID();
    const { orderId } = await cashPhotoOrder(await galleryRow(id), "cash", key, 1_500);
    expect(orderId).not.toBe(stale.orderId);
    expect((await orderRow(stale.orderId)).status).toBe("cancelled");
    expect(await orderRow(orderId)).toMatchObject({ status: "paid", amountCents: 1_500 });
    // The same form posted twice cashes once.
    expect(await cashPhotoOrder(await galleryRow(id), "cash", key, 1_500)).toEqual({ orderId });
    expect(await downloadablePhotoIds(await galleryRow(id))).toEqual(new Set(photoIds.slice(0, 8)));
  });

  it("answers a double submit of her form (the same key) with the first order's checkout", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const posted = {
      method: "card" as const,
      idempotencyKey: crypto.randomUUID(),
      amountCents: 2_500,
      photoIds: photoIds.slice(3, 8),
    };
    const first = await createPhotoOrder(await galleryRow(id), posted, settings);
    const second = await createPhotoOrder(await galleryRow(id), posted, settings);
    expect(second).toMatchObject({
      orderId: first.orderId,
      redirectUrl: first.redirectUrl,
      created: false,
    });
    expect(second.redirectUrl).toMatch(/^https:\/\/checkout\.example\.test\//);

    // At once, on another gallery: one order, both posts answered with it.
    const other = await sellingGallery(8);
    const again = {
      ...posted,
      idempotencyKey: crypto.randomUUID(),
      photoIds: other.photoIds.slice(3, 8),
    };
    const both = await Promise.all([
      createPhotoOrder(await galleryRow(other.id), again, settings),
      createPhotoOrder(await galleryRow(other.id), again, settings),
    ]);
    expect(new Set(both.map((checkout) => checkout.orderId)).size).toBe(1);
    expect(
      await db()
        .select()
        .from(galleryPhotoOrders)
        .where(eq(galleryPhotoOrders.galleryId, other.id)),
    ).toHaveLength(1);
  });
});

describe("what she pays for a gallery's photos in all", () => {
  it("never exceeds « toutes les photos »: after 25 € of extras, her last 2 photos cost the 5 € left of 30 €", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const first = await createPhotoOrder(
      await galleryRow(id),
      {
        method: "card",
        idempotencyKey: crypto.randomUUID(),
        amountCents: 2_500,
        photoIds: photoIds.slice(3, 8),
      },
      settings,
    );
    await payByCard(first.orderId, 2_500);
    // The owner reopens; she adds the last 2 photos (10 € at the unit).
    await reopenSelection(id);
    await db()
      .update(galleryPhotos)
      .set({ favourite: true })
      .where(eq(galleryPhotos.galleryId, id));
    await validateSelection(id);
    const { due } = await galleryPhotoRights(await galleryRow(id));
    expect(due).toMatchObject({ allPhotos: true, amountCents: 500, creditCents: 2_500 });

    const last = await createPhotoOrder(
      await galleryRow(id),
      {
        method: "card",
        idempotencyKey: crypto.randomUUID(),
        amountCents: 500,
        photoIds: photoIds.slice(8),
      },
      settings,
    );
    const [line] = await db().select().from(orderLines).where(eq(orderLines.orderId, last.orderId));
    expect(line?.label).toMatch(
      /^Toutes les photos de la galerie « .+ » \(déjà payé 25\s€ déduit\)$/,
    );
    await payByCard(last.orderId, 500);
    const { rights, due: after } = await galleryPhotoRights(await galleryRow(id));
    expect(after).toBeNull();
    expect(photoIds.map((photoId) => rights.get(photoId))).toEqual([
      ...Array(3).fill("included"),
      ...Array(7).fill("bought"),
    ]);
  });

  it("counts what a refund gave back: a fully refunded order leaves the full price due", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const first = await createPhotoOrder(
      await galleryRow(id),
      {
        method: "card",
        idempotencyKey: crypto.randomUUID(),
        amountCents: 2_500,
        photoIds: photoIds.slice(3, 8),
      },
      settings,
    );
    await payByCard(first.orderId, 2_500);
    await requestRefund(first.orderId, 2_500, "Geste commercial");
    expect((await galleryPhotoRights(await galleryRow(id))).due).toMatchObject({
      amountCents: 2_500,
      allPhotos: false,
    });
  });

  it("keeps every photo paid as much as « toutes les photos » (its price lowered since) through a partial refund", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const first = await createPhotoOrder(
      await galleryRow(id),
      {
        method: "card",
        idempotencyKey: crypto.randomUUID(),
        amountCents: 2_500,
        photoIds: photoIds.slice(3, 8),
      },
      settings,
    );
    await payByCard(first.orderId, 2_500);
    // The owner lowers « toutes les photos » to 20 €: her 25 € paid for every photo.
    await db().update(galleries).set({ allPhotosPriceCents: 2_000 }).where(eq(galleries.id, id));
    const last = photoIds[9] ?? "";
    expect((await galleryPhotoRights(await galleryRow(id))).rights.get(last)).toBe("bought");

    // A gesture of 10 €: a partial refund unlocks nothing less (decision 0184).
    await requestRefund(first.orderId, 1_000, "Geste commercial");
    const { rights, due } = await galleryPhotoRights(await galleryRow(id));
    expect(rights.get(last)).toBe("bought");
    expect(due).toBeNull();
    expect((await downloadablePhotoIds(await galleryRow(id))).has(last)).toBe(true);
  });
});

/** The refunds queued for an order's payments that delivered nothing, with whether its gallery expired. */
const refundJobs = async (orderId: string) =>
  (
    await db().execute<{ expired: boolean | null }>(sql`
      select (data->>'expired')::boolean as expired from pgboss.job
      where name = 'gallery-photo-refund' and data->>'orderId' = ${orderId}`)
  ).rows;
const unlocksOfOrder = (orderId: string) =>
  db().select().from(galleryUnlocks).where(eq(galleryUnlocks.orderId, orderId));

describe("an order of photos when its gallery expires", () => {
  const expire = (id: string) =>
    db()
      .update(galleries)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(galleries.id, id));

  it("gives back a transfer marked received once the gallery expired, before the daily run called it off", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const waiting = await orderExtras(id, photoIds, "transfer");
    await expire(id);
    await markPaidOffline(waiting.orderId, "transfer");
    expect(await unlocksOfOrder(waiting.orderId)).toEqual([]);
    expect(await refundJobs(waiting.orderId)).toEqual([{ expired: true }]);
    await refundUndeliveredPhotoOrder(waiting.orderId, true);
    const given = await db().select().from(refunds).where(eq(refunds.orderId, waiting.orderId));
    expect(given.map((refund) => [refund.amountCents, refund.reason])).toEqual([
      [2_500, EXPIRED_PHOTO_REFUND_REASON],
    ]);
  });

  it("is called off by the daily run; money that still comes goes back, and her e-mail says the gallery expired", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const waiting = await orderExtras(id, photoIds, "transfer");
    const online = await sellingGallery(8);
    const kept = await orderExtras(online.id, online.photoIds, "transfer");
    await expire(id);

    expect((await runGalleryRetention()).photoOrders).toBe(1);
    expect((await orderRow(waiting.orderId)).status).toBe("cancelled");
    expect((await orderRow(kept.orderId)).status).toBe("awaiting_payment");
    const mail = await photoOrderCalledOffEmail(waiting.orderId);
    expect(mail?.text).toContain("a expiré avant que votre paiement n'arrive");
    expect(mail?.text).not.toContain(`/galerie-client/${id}`);

    await markPaidOffline(waiting.orderId, "transfer");
    expect(await orderRow(waiting.orderId)).toMatchObject({ status: "paid", latePayment: true });
    expect(await unlocksOfOrder(waiting.orderId)).toEqual([]);
    expect(await refundJobs(waiting.orderId)).toEqual([{ expired: true }]);
  });

  it("is refused in French once its gallery expired: « Payer par carte » on its page, a new order, « Encaisser »", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const waiting = await orderExtras(id, photoIds, "card");
    // Her card checkout lapsed: the order's page offers « Payer par carte » again.
    await db()
      .update(paymentAttempts)
      .set({ status: "expired" })
      .where(eq(paymentAttempts.orderId, waiting.orderId));
    await expire(id);
    const form = new FormData();
    form.set("intent", "payer");
    const answer = (await orderPageAction({
      request: new Request(`http://localhost/commande/${waiting.token}`, {
        method: "POST",
        body: form,
      }),
      params: { token: waiting.token },
      context: undefined,
    } as unknown as Parameters<typeof orderPageAction>[0])) as unknown as {
      data: { error: string };
      init: { status: number };
    };
    expect(answer.init.status).toBe(409);
    expect(answer.data.error).toBe(EXPIRED_SALE_MESSAGE);
    expect((await orderRow(waiting.orderId)).status).toBe("cancelled");

    await expect(orderExtras(id, photoIds, "card")).rejects.toThrow(EXPIRED_SALE_MESSAGE);
    await expect(
      cashPhotoOrder(await galleryRow(id), "cash", crypto.randomUUID(), 2_500),
    ).rejects.toThrow(EXPIRED_CASH_MESSAGE);
  });

  it("awaits a transfer until the gallery expires at the latest, and refuses one that could no longer arrive", async () => {
    const HOUR = 3_600_000;
    const expiringIn = async (hours: number) => {
      const { id, photoIds } = await sellingGallery(8);
      const expiresAt = new Date(Date.now() + hours * HOUR);
      await db().update(galleries).set({ expiresAt }).where(eq(galleries.id, id));
      return { id, photoIds, expiresAt };
    };
    // 3 days left of the 8 a transfer is awaited: her deadline is the expiry, never after it.
    const soon = await expiringIn(72);
    const capped = await orderRow((await orderExtras(soon.id, soon.photoIds, "transfer")).orderId);
    expect(capped.payBy).toEqual(soon.expiresAt);
    // Far from it, the owner's 8 days.
    const far = await expiringIn(30 * 24);
    const kept = await orderRow((await orderExtras(far.id, far.photoIds, "transfer")).orderId);
    const delay = (kept.payBy?.getTime() ?? 0) - kept.createdAt.getTime();
    expect(Math.abs(delay - 8 * 24 * HOUR)).toBeLessThan(60_000);

    // Under 48 hours left: refused in French, nothing ordered; the card still sells.
    const late = await expiringIn(47);
    const refusal = orderExtras(late.id, late.photoIds, "transfer");
    await expect(refusal).rejects.toThrow(
      lateTransferMessage({ expiresAt: late.expiresAt }, transferSettings),
    );
    await expect(refusal).rejects.toMatchObject({ status: 400, field: "paiement" });
    expect(
      await db().select().from(galleryPhotoOrders).where(eq(galleryPhotoOrders.galleryId, late.id)),
    ).toEqual([]);
    expect((await orderExtras(late.id, late.photoIds, "card")).redirectUrl).toMatch(
      /^https:\/\/checkout\.example\.test\//,
    );
    expect(lateTransferMessage({ expiresAt: late.expiresAt }, transferSettings)).toMatch(
      /^Votre galerie n'est disponible que jusqu'au \d+ \p{L}+ \d{4} : un virement n'arriverait pas à temps\. Payez par carte ou au studio\.$/u,
    );
  });

  it("moves a waiting transfer's deadline with the gallery's expiry: the owner's delay from her order, capped at the new expiry", async () => {
    const HOUR = 3_600_000;
    const DAY = 24 * HOUR;
    const transferAttempt = async (orderId: string) => {
      const [attempt] = await db()
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.orderId, orderId));
      return attempt;
    };
    const deadlineMails = async (orderId: string) =>
      (
        await db().execute<{ id: string }>(sql`
          select id from pgboss.job where name = 'mail' and data->>'orderId' = ${orderId}
            and data->>'kind' = 'gallery-photo-order-deadline'`)
      ).rows.length;

    // Ordered 3 days before the gallery's end: awaited until then, not for the owner's 8 days.
    const { id, photoIds } = await sellingGallery(8);
    const expiresAt = new Date(Date.now() + 72 * HOUR);
    await db().update(galleries).set({ expiresAt }).where(eq(galleries.id, id));
    const waiting = await orderExtras(id, photoIds, "transfer");
    expect((await orderRow(waiting.orderId)).payBy).toEqual(expiresAt);

    // « Prolonger » (30 days): her deadline is the owner's 8 days from her order, her transfer's too.
    expect(await extendExpiry(id, 30)).not.toBeNull();
    const extended = await orderRow(waiting.orderId);
    const eightDays = new Date(extended.createdAt.getTime() + 8 * DAY);
    expect(extended.payBy).toEqual(eightDays);
    expect((await transferAttempt(waiting.orderId))?.expiresAt).toEqual(eightDays);
    expect(await deadlineMails(waiting.orderId)).toBe(0);
    // Past the old expiry she still may pay: the order waits, and her transfer unlocks her photos.
    try {
      setClockForTests(new Date(expiresAt.getTime() + 60_000));
      await expireLapsedPayments();
      expect((await orderRow(waiting.orderId)).status).toBe("awaiting_payment");
      expect((await markPaidOffline(waiting.orderId, "transfer")).outcome).toBe("applied");
    } finally {
      setClockForTests(null);
    }
    expect(await unlocksOfOrder(waiting.orderId)).toHaveLength(5);

    // Brought forward in the gallery's settings to 3 days from now: her deadline is the new expiry, the
    // expiry job lets her order lapse then, and she is told by e-mail.
    const far = await sellingGallery(8);
    const ordered = await orderExtras(far.id, far.photoIds, "transfer");
    const gallery = await galleryRow(far.id);
    const expiresOn = isoDayInParis(new Date(Date.now() + 3 * DAY));
    expect(
      await updateGallery(far.id, {
        title: gallery.title,
        clientName: gallery.clientName,
        clientEmail: gallery.clientEmail,
        studioId: null,
        sessionDate: gallery.sessionDate,
        expiresOn,
        purgeAfterDays: 30,
        downloadsAllowed: true,
        watermark: false,
        coverFocus: null,
        includedPhotos: "3",
        extraPhotoPrice: "5",
        allPhotosPrice: "30",
      }),
    ).toBe(true);
    const newEnd = endOfParisDay(expiresOn);
    const shortened = await orderRow(ordered.orderId);
    expect(shortened).toMatchObject({ status: "awaiting_payment", payBy: newEnd });
    expect((await transferAttempt(ordered.orderId))?.expiresAt).toEqual(newEnd);
    expect(await deadlineMails(ordered.orderId)).toBe(1);
    const mail = await photoOrderDeadlineEmail(ordered.orderId);
    expect(mail?.subject).toBe(`Votre virement de ${formatCents(2_500)} est attendu plus tôt`);
    expect(mail?.text).toContain(
      `votre virement de ${formatCents(2_500)} pour vos photos est désormais attendu avant le ${instantLabelFr(newEnd)}, la fin de votre galerie`,
    );
    expect(mail?.text).toContain(`/commande/${ordered.token}`);
    // The card instead, while the owner takes it.
    const cardLine = `payez plutôt par carte depuis votre galerie : ${siteUrl()}${clientGalleryPath(far.id)}`;
    expect(mail?.text).not.toContain(cardLine);
    const owner = { id: "", name: "Camille" };
    const before = (await readSiteContent()).documents.payments;
    await saveDocument("payments", transferSettings, owner, "test");
    try {
      expect((await photoOrderDeadlineEmail(ordered.orderId))?.text).toContain(cardLine);
    } finally {
      await saveDocument("payments", before, owner, "test");
    }
    try {
      setClockForTests(new Date(newEnd.getTime() + 60_000));
      await expireLapsedPayments();
    } finally {
      setClockForTests(null);
    }
    expect((await orderRow(ordered.orderId)).status).toBe("expired");

    // Extended while her order was on its way (her page's row read before): it is made with the new one.
    const racing = await sellingGallery(8);
    await db().update(galleries).set({ expiresAt }).where(eq(galleries.id, racing.id));
    const stale = await galleryRow(racing.id);
    await extendExpiry(racing.id, 30);
    const made = await createPhotoOrder(
      stale,
      {
        method: "transfer",
        idempotencyKey: crypto.randomUUID(),
        amountCents: 2_500,
        photoIds: racing.photoIds.slice(3, 8),
      },
      transferSettings,
    );
    const raced = await orderRow(made.orderId);
    expect(raced.payBy).toEqual(new Date(raced.createdAt.getTime() + 8 * DAY));
    expect((await transferAttempt(made.orderId))?.expiresAt).toEqual(raced.payBy);

    // Ordered before its rules kept the owner's delay, and capped: extended, the owner's delay now.
    const older = await sellingGallery(8);
    await db().update(galleries).set({ expiresAt }).where(eq(galleries.id, older.id));
    const legacy = await orderExtras(older.id, older.photoIds, "transfer");
    await db().execute(sql`
      update orders set rules_snapshot = rules_snapshot - 'transferDays' where id = ${legacy.orderId}`);
    await extendExpiry(older.id, 30);
    const settled = await orderRow(legacy.orderId);
    expect(settled.payBy).toEqual(new Date(settled.createdAt.getTime() + 8 * DAY));
  });

  it("keeps what she bought when the owner extends the gallery, and lets her order again", async () => {
    const { id, photoIds } = await sellingGallery(10);
    await reopenSelection(id);
    await db()
      .update(galleryPhotos)
      .set({ favourite: false })
      .where(inArray(galleryPhotos.id, photoIds.slice(8)));
    await validateSelection(id);
    const paid = await orderExtras(id, photoIds, "card");
    await payByCard(paid.orderId, 2_500);
    await expire(id);
    await runGalleryRetention();
    expect(await extendExpiry(id, 30)).not.toBeNull();
    expect(await downloadablePhotoIds(await galleryRow(id))).toEqual(new Set(photoIds.slice(0, 8)));
    expect(await unlocksOfOrder(paid.orderId)).toHaveLength(5);
  });
});

describe("the web sizes of a photo to buy", () => {
  const webSize = async (galleryId: string, photoId: string, file: string) => {
    const gallery = await galleryRow(galleryId);
    const request = new Request(
      `http://localhost/galerie-client/${galleryId}/photos/${photoId}/${file}`,
      {
        headers: { Cookie: (await galleryAccessCookie(gallery)).split(";")[0] ?? "" },
      },
    );
    try {
      return (await photoLoader({
        request,
        params: { id: galleryId, photoId, file },
        context: undefined,
      } as unknown as Parameters<typeof photoLoader>[0])) as Response;
    } catch (error) {
      const thrown = error as { init?: { status?: number } };
      return new Response(null, { status: thrown.init?.status ?? 500 });
    }
  };

  it("are served only below the original's width; a photo she may download keeps every size", async () => {
    const { id, photoIds } = await sellingGallery(5);
    const unbought = photoIds[9] ?? "";
    const included = photoIds[0] ?? "";
    expect((await galleryPhotoRights(await galleryRow(id))).rights.get(unbought)).toBe("to_buy");
    // The originals are 320 px wide: their 320 px web copy is the original itself.
    expect((await webSize(id, unbought, "r1-w320.jpg")).status).toBe(404);
    const small = await webSize(id, unbought, "r1-w160.jpg");
    expect(small.status).toBe(200);
    expect((await sharp(Buffer.from(await small.arrayBuffer())).metadata()).width).toBe(160);
    expect((await webSize(id, included, "r1-w320.jpg")).status).toBe(200);

    // Bought, the full web size is hers again.
    await offerPhotos(id, [unbought]);
    expect((await webSize(id, unbought, "r1-w320.jpg")).status).toBe(200);
  });
});

describe("her switch from one way of paying to another", () => {
  it("replaces a waiting transfer order by a card order of the same photos, without telling her it was called off", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const transfer = await orderExtras(id, photoIds, "transfer");
    // The same method again is still the waiting order's.
    await expect(orderExtras(id, photoIds, "transfer")).rejects.toThrow(PENDING_ORDER_MESSAGE);

    const byCard = await orderExtras(id, photoIds, "card");
    expect(byCard.redirectUrl).toMatch(/^https:\/\/checkout\.example\.test\//);
    expect((await orderRow(transfer.orderId)).status).toBe("cancelled");
    expect(await photoOrderCalledOffEmail(transfer.orderId)).toBeNull();
    const { due } = await galleryPhotoRights(await galleryRow(id));
    expect((await pendingPhotoOrder(id, due))?.id).toBe(byCard.orderId);
    await payByCard(byCard.orderId, 2_500);
    expect(await downloadablePhotoIds(await galleryRow(id))).toEqual(new Set(photoIds.slice(0, 8)));
  });

  it("gives back a transfer that still comes for the order she replaced, unless her card order lapsed unpaid", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const transfer = await orderExtras(id, photoIds, "transfer");
    const byCard = await orderExtras(id, photoIds, "card");
    // Her transfer, sent anyway, arrives while her card order waits: it unlocks nothing, and goes back.
    await markPaidOffline(transfer.orderId, "transfer");
    expect(await orderRow(transfer.orderId)).toMatchObject({ status: "paid", latePayment: true });
    expect(await unlocksOfOrder(transfer.orderId)).toEqual([]);
    expect(await refundJobs(transfer.orderId)).toEqual([{ expired: false }]);
    expect((await orderRow(byCard.orderId)).status).toBe("awaiting_payment");

    // Her card order lapsed unpaid (its checkout's 30 minutes), then the transfer came: it pays what is
    // due, and unlocks it.
    const other = await sellingGallery(8);
    const sent = await orderExtras(other.id, other.photoIds, "transfer");
    const abandoned = await orderExtras(other.id, other.photoIds, "card");
    try {
      setClockForTests(new Date(Date.now() + 31 * 60_000));
      await expireLapsedPayments();
    } finally {
      setClockForTests(null);
    }
    expect((await orderRow(abandoned.orderId)).status).toBe("expired");
    await markPaidOffline(sent.orderId, "transfer");
    expect(await unlocksOfOrder(sent.orderId)).toHaveLength(5);
    expect(await refundJobs(sent.orderId)).toEqual([]);
    expect(await downloadablePhotoIds(await galleryRow(other.id))).toEqual(
      new Set(other.photoIds.slice(0, 8)),
    );
  });

  it("refuses in French to switch while her card checkout is open", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const byCard = await orderExtras(id, photoIds, "card");
    await expect(orderExtras(id, photoIds, "transfer")).rejects.toThrow(CHECKOUT_OPEN_MESSAGE);
    expect((await orderRow(byCard.orderId)).status).toBe("awaiting_payment");
  });

  it("refuses in French to replace an order whose card payment is held for the studio, once its checkout closed too", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const byCard = await orderExtras(id, photoIds, "card");
    // The provider took 1 € for 25 €: held for the owner (decision 0172), nothing applied; its checkout
    // is no longer open, but her money came.
    expect((await reportCardPaid(byCard.orderId, 100)).outcome).toBe("held");
    for (const method of ["transfer", "card"] as const) {
      await expect(orderExtras(id, photoIds, method)).rejects.toThrow(PAYMENT_HELD_MESSAGE);
    }
    expect((await orderRow(byCard.orderId)).status).toBe("awaiting_payment");
    const { due } = await galleryPhotoRights(await galleryRow(id));
    expect((await pendingPhotoOrder(id, due))?.id).toBe(byCard.orderId);
  });

  it("sells nothing more while a held payment waits, once its order lapsed or was called off, until the owner gives it back", async () => {
    const heldCardOrder = async (id: string, photoIds: string[]) => {
      const byCard = await orderExtras(id, photoIds, "card");
      expect((await reportCardPaid(byCard.orderId, 100)).outcome).toBe("held");
      return byCard.orderId;
    };
    const orderAgainBy = (id: string, photoIds: string[], method: "card" | "transfer") =>
      galleryRow(id).then(async (gallery) => {
        const { due } = await galleryPhotoRights(gallery);
        return createPhotoOrder(
          gallery,
          {
            method,
            idempotencyKey: crypto.randomUUID(),
            amountCents: due?.amountCents ?? null,
            photoIds: due?.photoIds ?? photoIds,
          },
          transferSettings,
        );
      });
    const cash = (id: string) =>
      galleryRow(id).then((gallery) => cashPhotoOrder(gallery, "cash", crypto.randomUUID()));

    // Her checkout's 30 minutes over, the order lapses: her 1 € still waits for the owner's decision.
    const lapsed = await sellingGallery(8);
    const lapsedOrder = await heldCardOrder(lapsed.id, lapsed.photoIds);
    try {
      setClockForTests(new Date(Date.now() + 31 * 60_000));
      await expireLapsedPayments();
    } finally {
      setClockForTests(null);
    }
    expect((await orderRow(lapsedOrder)).status).toBe("expired");
    for (const method of ["card", "transfer"] as const) {
      await expect(orderAgainBy(lapsed.id, lapsed.photoIds, method)).rejects.toThrow(
        PAYMENT_HELD_MESSAGE,
      );
    }
    await expect(cash(lapsed.id)).rejects.toThrow(heldCashMessage(formatCents(100)));

    // The owner offers one of its photos: the order, no longer what is due, is called off; the rest
    // (20 €) is not sold to her again either.
    const changed = await sellingGallery(8);
    const changedOrder = await heldCardOrder(changed.id, changed.photoIds);
    await offerPhotos(changed.id, [changed.photoIds[7] ?? ""]);
    expect((await orderRow(changedOrder)).status).toBe("cancelled");
    // Her e-mail of the called-off order says her money came and is being checked, not that nothing was
    // taken nor that she should pay what is left.
    const mail = await photoOrderCalledOffEmail(changedOrder);
    expect(mail?.text).toContain(PAYMENT_HELD_MESSAGE);
    expect(mail?.text).not.toContain("rien ne vous a été débité");
    expect(mail?.text).not.toContain("Ce qui reste à payer");
    await expect(orderAgainBy(changed.id, changed.photoIds, "transfer")).rejects.toThrow(
      PAYMENT_HELD_MESSAGE,
    );
    await expect(cash(changed.id)).rejects.toThrow(heldCashMessage(formatCents(100)));
    expect(await photoOrderCount(changed.id)).toBe(1);

    // Given back by the owner, what is due is hers to order again.
    const [attempt] = await db()
      .select({ id: paymentAttempts.id })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, changedOrder));
    await refundHeldPayment(changedOrder, attempt?.id ?? "", "Montant différent");
    const again = await orderAgainBy(changed.id, changed.photoIds, "transfer");
    expect((await orderRow(again.orderId)).amountCents).toBe(2_000);
  });
});

async function photoOrderCount(galleryId: string) {
  const rows = await db()
    .select({ id: galleryPhotoOrders.orderId })
    .from(galleryPhotoOrders)
    .where(eq(galleryPhotoOrders.galleryId, galleryId));
  return rows.length;
}

describe("her order of photos to pay by transfer or at the studio", () => {
  const orderMails = async (orderId: string) =>
    (
      await db().execute<{ id: string }>(sql`
        select id from pgboss.job where name = 'mail' and data->>'orderId' = ${orderId}
          and data->>'kind' = 'gallery-photo-order'`)
    ).rows.length;

  it("is confirmed to her by e-mail, with the amount, the IBAN, the reference and the deadline of a transfer", async () => {
    const { id, photoIds } = await sellingGallery(8);
    const ordered = await orderExtras(id, photoIds, "transfer");
    const order = await orderRow(ordered.orderId);
    expect(await orderMails(order.id)).toBe(1);

    const mail = await photoOrderEmail(order.id);
    expect(mail?.to).toBe(order.buyerEmail);
    expect(mail?.subject).toMatch(/^Votre commande de photos : 25\s€ à régler par virement$/);
    const text = mail?.text ?? "";
    expect(text).toContain(`« ${(await galleryRow(id)).title} »`);
    expect(text).toContain("5 photos supplémentaires");
    expect(text).toMatch(/faites un virement de 25\s€ avant le /);
    expect(text).toContain(instantLabelFr(order.payBy ?? new Date(0)));
    expect(text).toContain("Titulaire : Studio Lumière");
    expect(text).toContain("IBAN : FR76 3000 6000 0112 3456 7890 189");
    expect(text).toContain(`Référence à indiquer : ${order.transferReference}`);
    expect(text).toContain(`${siteUrl()}/commande/${ordered.token}`);
    expect(mail?.html).toContain(`/commande/${ordered.token}`);

    // Paid meanwhile (the owner marked the transfer received before it left): the core's e-mail says it.
    await markPaidOffline(order.id, "transfer");
    expect(await photoOrderEmail(order.id)).toBeNull();
  });

  it("is confirmed for a payment at the studio; a card order (the provider's page, then « Paiement reçu ») and the owner's « Encaisser » send none", async () => {
    const studio = await sellingGallery(8);
    const atStudio = await createPhotoOrder(
      await galleryRow(studio.id),
      {
        method: "studio",
        idempotencyKey: crypto.randomUUID(),
        amountCents: 2_500,
        photoIds: studio.photoIds.slice(3, 8),
      },
      transferSettings,
    );
    expect(await orderMails(atStudio.orderId)).toBe(1);
    const mail = await photoOrderEmail(atStudio.orderId);
    expect(mail?.subject).toMatch(/^Votre commande de photos : 25\s€ à régler au studio$/);
    expect(mail?.text).toMatch(/Vous la réglerez au studio \(25\s€\)/);
    expect(mail?.text).not.toContain("IBAN");

    const byCard = await sellingGallery(8);
    const carded = await orderExtras(byCard.id, byCard.photoIds, "card");
    expect(await orderMails(carded.orderId)).toBe(0);

    const cashed = await sellingGallery(8);
    const { orderId } = await cashPhotoOrder(
      await galleryRow(cashed.id),
      "cash",
      crypto.randomUUID(),
    );
    expect(await orderMails(orderId)).toBe(0);
  });
});
