/*
 * Extra photos sold from a client gallery (decision 0184): which photos the client may download and what
 * she owes for the others of her validated selection. Pure: the server reads the rows, this decides, and
 * the page, the order, the downloads and the ZIP all ask it.
 */

/** The owner's terms of a gallery; `includedPhotos` null: every photo is included (no sale). */
export type PhotoSaleTerms = {
  includedPhotos: number | null;
  extraPhotoPriceCents: number | null;
  allPhotosPriceCents: number | null;
};

/** Where a photo stands for the client. */
export type PhotoRight = "included" | "bought" | "offered" | "to_buy";

export const PHOTO_RIGHT_LABELS: Record<PhotoRight, string> = {
  included: "Incluse",
  bought: "Achetée",
  offered: "Offerte",
  to_buy: "À acheter",
};

/** A photo unlocked beyond the package; `photoId` null: every photo of the gallery. */
export type PhotoUnlock = { photoId: string | null; source: "bought" | "offered" };

/**
 * What the client owes for the extra photos of her selection: the cheaper of the two prices, « toutes les
 * photos » less what she already paid for this gallery's photos.
 */
export type PhotosDue = {
  /** The selected photos still to buy, in the gallery's order. */
  photoIds: string[];
  /** True when « toutes les photos » is the cheaper: the order unlocks every photo. */
  allPhotos: boolean;
  amountCents: number;
  /** « toutes les photos »: what her earlier orders of this gallery's photos paid, taken off its price. */
  creditCents: number;
  /** The order's line: that many photos at that price, or 1 × « toutes les photos ». */
  quantity: number;
  unitPriceCents: number;
};

export type PhotoRights = {
  rights: Map<string, PhotoRight>;
  /** Null when nothing is due (no sale, nothing selected beyond the package, or the selection open). */
  due: PhotosDue | null;
};

/**
 * Next to the number of included photos when the gallery has an order of photos paid or awaiting payment:
 * the package is the first photos of her selection, so a smaller one bills photos it included.
 */
export const INCLUDED_PHOTOS_PAID_WARNING =
  "Des photos ont déjà été payées pour cette galerie : réduire le nombre de photos incluses peut en faire payer d'autres.";

/** Whether the gallery sells photos beyond a package. */
export const sellsPhotos = (terms: PhotoSaleTerms) => terms.includedPhotos !== null;

/**
 * Each photo's right and what is due. `photos` are the gallery's ready photos in its order, with the
 * client's favourites (her selection); `validated`: she sent it to the studio. The package's photos are
 * the first of her validated selection not already bought or offered; before she validates, none — but
 * while the owner has reopened it, those its last validation included (`keptIncluded`) stay hers.
 */
export function photoRights(input: {
  terms: PhotoSaleTerms;
  photos: readonly { id: string; favourite: boolean }[];
  validated: boolean;
  unlocks: readonly PhotoUnlock[];
  /** The selection reopened: the photos the package included when it was last validated. */
  keptIncluded?: readonly string[] | null;
  /** What her paid orders of this gallery's photos brought, net of refunds (what she keeps paid). */
  paidCents?: number;
  /**
   * What those orders paid before any partial refund (a fully refunded one no longer counts): what gave
   * her every photo stays hers, as a partial refund unlocks nothing less. Absent: `paidCents`.
   */
  paidBeforePartialRefundsCents?: number;
}): PhotoRights {
  const { terms, photos, validated, unlocks } = input;
  const paidCents = input.paidCents ?? 0;
  const everPaidCents = Math.max(paidCents, input.paidBeforePartialRefundsCents ?? 0);
  const kept = validated ? null : new Set(input.keptIncluded ?? []);
  const rights = new Map<string, PhotoRight>();
  if (terms.includedPhotos === null) {
    for (const photo of photos) rights.set(photo.id, "included");
    return { rights, due: null };
  }
  const all = (source: PhotoUnlock["source"]) =>
    unlocks.some((unlock) => unlock.photoId === null && unlock.source === source);
  // Paid as much as « toutes les photos » (its price lowered since): every photo is hers, never a cent more,
  // and a gesture refunded since takes none back.
  const allBought =
    all("bought") ||
    (terms.allPhotosPriceCents !== null &&
      everPaidCents > 0 &&
      everPaidCents >= terms.allPhotosPriceCents);
  const allOffered = all("offered");
  const unlocked = new Map<string, PhotoRight>();
  for (const unlock of unlocks) {
    // Bought wins over offered: the client paid for it.
    if (unlock.photoId && unlocked.get(unlock.photoId) !== "bought") {
      unlocked.set(unlock.photoId, unlock.source);
    }
  }
  let included = terms.includedPhotos;
  const toBuy: string[] = [];
  for (const photo of photos) {
    const own = unlocked.get(photo.id);
    if (own) rights.set(photo.id, own);
    // Her package stays « Incluse » once every photo is bought or offered: its session paid for it.
    else if (included > 0 && (kept ? kept.has(photo.id) : photo.favourite)) {
      rights.set(photo.id, "included");
      included--;
    } else if (allBought) rights.set(photo.id, "bought");
    else if (allOffered) rights.set(photo.id, "offered");
    else {
      rights.set(photo.id, "to_buy");
      if (photo.favourite && validated) toBuy.push(photo.id);
    }
  }
  return { rights, due: photosDue(terms, toBuy, paidCents) };
}

/**
 * The cheaper of the extras at their unit price and « toutes les photos » less what she already paid for
 * the gallery's photos (`paidCents`), so that all she pays never exceeds « toutes les photos »; null when
 * nothing is due. At the same price « toutes les photos » is taken: she pays the same and gets every photo.
 */
export function photosDue(
  terms: PhotoSaleTerms,
  photoIds: string[],
  paidCents = 0,
): PhotosDue | null {
  if (photoIds.length === 0) return null;
  const extras =
    terms.extraPhotoPriceCents === null ? null : photoIds.length * terms.extraPhotoPriceCents;
  const creditCents =
    terms.allPhotosPriceCents === null ? 0 : Math.min(paidCents, terms.allPhotosPriceCents);
  const all = terms.allPhotosPriceCents === null ? null : terms.allPhotosPriceCents - creditCents;
  // Nothing left to pay for every photo: photoRights gives them all (never an order of 0 €).
  if (all === 0) return null;
  if (all !== null && (extras === null || all <= extras)) {
    return {
      photoIds,
      allPhotos: true,
      amountCents: all,
      creditCents,
      quantity: 1,
      unitPriceCents: all,
    };
  }
  if (extras === null || terms.extraPhotoPriceCents === null) return null;
  return {
    photoIds,
    allPhotos: false,
    amountCents: extras,
    creditCents: 0,
    quantity: photoIds.length,
    unitPriceCents: terms.extraPhotoPriceCents,
  };
}

/** Whether the client may download the photo's original. */
export const mayDownload = (right: PhotoRight | undefined) =>
  right !== undefined && right !== "to_buy";
