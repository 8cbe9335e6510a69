import { data, redirect } from "react-router";
import type { Route } from "./+types/index";
import type { ActionAnswer } from "~/components/gallery/client-answer";
import type { GalleryTile } from "~/lib/gallery-photo-urls";
import { MAX_COMMENT_LENGTH } from "~/lib/gallery-texts";
import { formatDateFr, formatLongDateTimeFr } from "~/lib/dates";
import { isUuid } from "~/lib/forms";
import { formatSize } from "~/lib/sizes";
import { clientGalleryPath, unboughtWidths } from "~/lib/gallery-urls";
import { clientAddressContext } from "~/server/context";
import { siteContent } from "~/server/content/site-content.server";
import {
  accessCodeMatches,
  clientGalleryViewer,
  consumeCodeAttempt,
  expiryDay,
  findClientGallery,
  galleryAccessCookie,
  isExpired,
  tooManyAttemptsMessage,
  WRONG_CODE_MESSAGE,
  type GalleryRow,
} from "~/server/galleries/access.server";
import {
  clientPhotos,
  lockedMessage,
  setComment,
  setFavourite,
  touchClientActivity,
  validateSelection,
} from "~/server/galleries/client.server";
import { studioContact } from "~/server/galleries/emails.server";
import { PAYMENT_METHODS, PAYMENT_METHOD_LABELS, type PaymentMethod } from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";
import { ORDER_KEY_FIELD, orderPagePath } from "~/lib/vouchers/order-page";
import { instantLabelFr } from "~/lib/booking/words";
import { mayDownload, sellsPhotos, type PhotoRight } from "~/lib/gallery-sales";
import type { PaymentSettings } from "~/content/schemas";
import { PaymentRefusedError } from "~/server/payments/refusals.server";
import {
  createPhotoOrder,
  galleryPhotoRights,
  heldPhotoOrder,
  lateTransferMessage,
  newOrderKey,
  pendingPhotoOrder,
  PhotoSaleRefusedError,
  saleTerms,
  transferArrivesInTime,
  transferPayBy,
} from "~/server/galleries/photo-sales.server";

type Contact = { name: string; phone: string; email: string };

function expiredAnswer(gallery: GalleryRow, contact: Contact) {
  return data(
    { kind: "expired" as const, expiredOn: expiryDay(gallery), contact },
    { status: 410 },
  );
}

const missingAnswer = () => data({ kind: "missing" as const }, { status: 404 });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const gallery = await findClientGallery(params.id);
  if (!gallery) return missingAnswer();
  const contact = studioContact(await siteContent(context), gallery.studioId);
  if (isExpired(gallery)) return expiredAnswer(gallery, contact);
  const viewer = await clientGalleryViewer(request, gallery);
  if (!viewer) return data({ kind: "code" as const, title: gallery.title });
  if (viewer === "client") await touchClientActivity(gallery.id);
  const content = await siteContent(context);
  const { rights, due } = await galleryPhotoRights(gallery);
  const rightOf = (id: string): PhotoRight => rights.get(id) ?? "to_buy";
  const rows = (await clientPhotos(gallery.id)).map((photo) => ({
    ...photo,
    // A photo she has to buy is shown below its original's size (decision 0196; photo.ts refuses more).
    widths: mayDownload(rightOf(photo.id))
      ? photo.widths
      : unboughtWidths(photo.width, photo.widths),
    right: rightOf(photo.id),
  }));
  const photos = rows.map(({ bytes: _bytes, ...photo }) => photo);
  // The ZIPs hold what she may download (decision 0184): their sizes too.
  const size = (list: typeof rows) =>
    formatSize(
      list
        .filter((photo) => mayDownload(photo.right))
        .reduce((total, photo) => total + photo.bytes, 0),
    );
  return data({
    kind: "gallery" as const,
    preview: viewer === "admin",
    gallery: {
      id: gallery.id,
      title: gallery.title,
      clientName: gallery.clientName,
      sessionDate: gallery.sessionDate ? formatDateFr(gallery.sessionDate) : null,
      availableUntil: expiryDay(gallery),
      downloadsAllowed: gallery.downloadsAllowed,
      zipSize: size(rows),
      favouritesZipSize: size(rows.filter((photo) => photo.favourite)),
      validatedAt: gallery.selectionValidatedAt
        ? formatLongDateTimeFr(gallery.selectionValidatedAt)
        : null,
      coverFocal: { x: gallery.coverFocalX, y: gallery.coverFocalY },
    },
    photos: photos satisfies GalleryTile[],
    coverId: photos.some((photo) => photo.id === gallery.coverPhotoId)
      ? gallery.coverPhotoId
      : null,
    sale: sellsPhotos(saleTerms(gallery))
      ? await saleData(gallery, content.documents.payments, due)
      : null,
  });
}

/** What the page shows of the sale: the package, the prices, what is due and how to pay it. */
async function saleData(
  gallery: GalleryRow,
  settings: PaymentSettings,
  due: Awaited<ReturnType<typeof galleryPhotoRights>>["due"],
) {
  // An order awaiting payment for what is due now (a stale one is called off at her next order).
  const pending = await pendingPhotoOrder(gallery.id, due);
  // Her card payment came for another total and waits for the studio (decision 0172), its order waiting,
  // lapsed or called off since: nothing is offered to pay again, nor to replace it.
  const held = await heldPhotoOrder(gallery.id);
  const transferInTime = transferArrivesInTime(gallery);
  return {
    includedPhotos: gallery.includedPhotos ?? 0,
    extraPhotoPrice:
      gallery.extraPhotoPriceCents === null ? null : formatCents(gallery.extraPhotoPriceCents),
    allPhotosPrice:
      gallery.allPhotosPriceCents === null ? null : formatCents(gallery.allPhotosPriceCents),
    due: due
      ? {
          count: due.photoIds.length,
          allPhotos: due.allPhotos,
          amount: formatCents(due.amountCents),
          amountCents: due.amountCents,
          /** What her earlier orders paid, taken off « toutes les photos » (decision 0196). */
          credit: due.creditCents > 0 ? formatCents(due.creditCents) : null,
          photoIds: due.photoIds,
        }
      : null,
    pending: pending
      ? {
          href: orderPagePath(pending.token),
          amount: formatCents(pending.amountCents),
          method: pending.method,
          // Another method replaces a waiting order (decision 0196): the card, her form to switch.
          cardInstead: pending.method !== "card" && settings.card,
        }
      : null,
    held: held ? { href: orderPagePath(held.token) } : null,
    // Too near the gallery's expiry, a transfer would arrive too late: not offered (decision 0196).
    methods: PAYMENT_METHODS.filter(
      (method) => settings[method] && (method !== "transfer" || transferInTime),
    ).map((method) => ({
      method,
      label: PAYMENT_METHOD_LABELS[method],
      line: photoPaymentLine(method, gallery, settings),
    })),
    lateTransfer:
      settings.transfer && !transferInTime ? lateTransferMessage(gallery, settings) : null,
    orderKey: newOrderKey(),
  };
}

/** What happens after her order, beside each way of paying: a transfer awaited until its deadline. */
function photoPaymentLine(method: PaymentMethod, gallery: GalleryRow, settings: PaymentSettings) {
  switch (method) {
    case "card":
      return "Vous payez sur la page sécurisée de notre prestataire (Stripe), puis revenez ici : vos photos sont débloquées dès le paiement reçu.";
    case "transfer": {
      const payBy = transferPayBy(gallery, settings.transferDays);
      const until =
        payBy.getTime() === gallery.expiresAt.getTime()
          ? `avant le ${instantLabelFr(payBy)}, la fin de votre galerie`
          : `sous ${settings.transferDays} jours`;
      return `Nous vous donnons notre IBAN et une référence à indiquer : vos photos sont débloquées à réception du virement, attendu ${until}.`;
    }
    case "studio":
      return "Vous réglez au studio (carte, chèque ou espèces) : vos photos sont débloquées dès le paiement reçu.";
  }
}

/** The client's order of her extra photos: to the card's page, or to the order's page. */
async function buyPhotos(gallery: GalleryRow, form: FormData, settings: PaymentSettings) {
  const intent = "buy";
  const method = String(form.get("paiement") ?? "");
  const accepted = form.get("conditions") === "on";
  const typed = { paiement: method, conditions: accepted ? "on" : "" };
  const refuse = (status: number, error: string, field?: string) =>
    answer({ intent, error, ...(field ? { field } : {}), values: typed }, status);
  if (!(PAYMENT_METHODS as readonly string[]).includes(method)) {
    return refuse(400, "Choisissez un moyen de paiement.", "paiement");
  }
  if (!accepted) {
    return refuse(
      400,
      "Cochez la case pour accepter les conditions de vente avant de payer.",
      "conditions",
    );
  }
  const key = String(form.get(ORDER_KEY_FIELD) ?? "");
  const amount = String(form.get("montant") ?? "");
  try {
    const checkout = await createPhotoOrder(
      gallery,
      {
        method: method as PaymentMethod,
        idempotencyKey: /^[A-Za-z0-9-]{8,100}$/.test(key) ? key : newOrderKey(),
        amountCents: /^\d{1,9}$/.test(amount) ? Number(amount) : null,
        photoIds: String(form.get("photos") ?? "")
          .split(",")
          .filter((id) => id !== ""),
      },
      settings,
    );
    if (method === "card" && checkout.redirectUrl) throw redirect(checkout.redirectUrl, 303);
    throw redirect(orderPagePath(checkout.token), 303);
  } catch (error) {
    if (error instanceof PhotoSaleRefusedError) {
      return refuse(error.status, error.message, error.field ?? undefined);
    }
    if (error instanceof PaymentRefusedError) return refuse(error.status, error.message);
    throw error;
  }
}

const answer = (body: ActionAnswer, status = 200, headers?: HeadersInit) =>
  data(body, { status, headers });

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const gallery = await findClientGallery(params.id);
  if (!gallery) return missingAnswer();
  if (isExpired(gallery)) {
    return expiredAnswer(gallery, studioContact(await siteContent(context), gallery.studioId));
  }

  if (intent === "code") {
    const typed = String(form.get("code") ?? "").slice(0, 100);
    const attempt = await consumeCodeAttempt(context.get(clientAddressContext), gallery.id);
    if (!attempt.allowed) {
      return answer(
        { intent, code: typed, error: tooManyAttemptsMessage(attempt.retryAfterSeconds) },
        429,
        { "Retry-After": String(attempt.retryAfterSeconds) },
      );
    }
    if (!accessCodeMatches(typed, gallery.accessCode)) {
      return answer({ intent, code: typed, error: WRONG_CODE_MESSAGE }, 400);
    }
    throw redirect(clientGalleryPath(gallery.id), {
      status: 303,
      headers: { "Set-Cookie": await galleryAccessCookie(gallery) },
    });
  }

  // Every other action writes the selection: only the client holding the code may.
  const viewer = await clientGalleryViewer(request, gallery);
  if (viewer === "admin") {
    return answer(
      { intent, error: "Aperçu administrateur : seul le client peut modifier sa sélection." },
      403,
    );
  }
  if (!viewer) return missingAnswer();
  if (intent === "buy") {
    return buyPhotos(gallery, form, (await siteContent(context)).documents.payments);
  }
  if (gallery.selectionValidatedAt) {
    return answer({ intent, error: lockedMessage(gallery.selectionValidatedAt) }, 409);
  }

  if (intent === "validate") {
    const done = await validateSelection(gallery.id);
    if (!done) {
      const fresh = await findClientGallery(gallery.id);
      return answer(
        { intent, error: lockedMessage(fresh?.selectionValidatedAt ?? new Date()) },
        409,
      );
    }
    return answer({ intent, ok: true });
  }

  const photoId = String(form.get("photoId") ?? "");
  if (!isUuid(photoId)) return answer({ intent, error: "Photo introuvable." }, 404);
  let result;
  if (intent === "favourite") {
    result = await setFavourite(gallery.id, photoId, form.get("value") === "1");
  } else if (intent === "comment") {
    const comment = String(form.get("comment") ?? "");
    if (comment.trim().length > MAX_COMMENT_LENGTH) {
      return answer(
        {
          intent,
          code: comment,
          error: `Le commentaire est trop long : ${MAX_COMMENT_LENGTH} caractères au plus.`,
        },
        400,
      );
    }
    result = await setComment(gallery.id, photoId, comment);
  } else {
    return answer({ intent, error: "Action inconnue." }, 400);
  }
  if (result === "unknown-photo") return answer({ intent, error: "Photo introuvable." }, 404);
  if (result === "locked") {
    const fresh = await findClientGallery(gallery.id);
    return answer({ intent, error: lockedMessage(fresh?.selectionValidatedAt ?? new Date()) }, 409);
  }
  return answer({ intent, ok: true });
}

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  const result = new Headers(loaderHeaders);
  if (retryAfter) result.set("Retry-After", retryAfter);
  return result;
};
