import fs from "node:fs/promises";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { paymentsSchema } from "~/content/schemas";
import { useAppDatabase } from "../../../tests/support/database";
import { addReadyPhoto, insertTestGallery } from "../../../tests/support/galleries";
import { memoryCardProvider, orderRow, reportCardPaid } from "../../../tests/support/payments";
import { makeTestJpeg } from "../../../tests/support/photos";
import { completeLegal } from "../../../tests/support/seller";
import { unzip } from "../../../tests/support/unzip";
import { loader as zipLoader } from "../../routes/galerie-client/zip";
import { saveDocument } from "../content/content-store.server";
import { db } from "../db/client.server";
import {
  galleries,
  galleryPhotoOrders,
  galleryPhotos,
  galleryUnlocks,
  invoices,
} from "../db/schema";
import { invoicesOfOrder } from "../invoices/orders.server";
import { provideOrderKinds } from "../payments/order-kinds.server";
import { requestRefund } from "../payments/orders.server";
import { storage } from "../storage/storage.server";
import { galleryAccessCookie } from "./access.server";
import { validateSelection } from "./client.server";
import { reopenSelection } from "./galleries.server";
import {
  ALTERED_ORDER_MESSAGE,
  cashPhotoOrder,
  createPhotoOrder,
  downloadablePhotoIds,
  galleryPhotoRights,
  offerPhotos,
  PENDING_ORDER_MESSAGE,
  photoSalesOrderKind,
} from "./photo-sales.server";

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
