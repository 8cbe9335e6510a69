import type { Route } from "./+types/selection";
import { isUuid, parseIntent } from "~/lib/forms";
import { sellsPhotos } from "~/lib/gallery-sales";
import { OFFLINE_MEANS, OFFLINE_MEANS_LABELS, type OfflineMeans } from "~/lib/payments/model";
import { formatCents } from "~/lib/prices";
import { requireAdmin } from "~/server/admin/guard.server";
import { requireGallery } from "~/server/galleries/admin-pages.server";
import { gallerySelection, reopenSelection } from "~/server/galleries/galleries.server";
import {
  cashPhotoOrder,
  galleryPhotoRights,
  heldPhotoOrder,
  newOrderKey,
  offerPhotos,
  pendingPhotoOrder,
  PhotoSaleRefusedError,
  saleTerms,
} from "~/server/galleries/photo-sales.server";
import { refusedIntent } from "~/server/forms.server";
import { PaymentRefusedError } from "~/server/payments/refusals.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { gallery, header } = await requireGallery(params.id);
  const photos = await gallerySelection(gallery.id);
  const selling = sellsPhotos(saleTerms(gallery));
  const { rights, due } = await galleryPhotoRights(gallery);
  // Only an order for what is due now is awaited: a stale one is called off, never cashed.
  const pending = selling ? await pendingPhotoOrder(gallery.id, due) : null;
  // A card payment of hers taken for another total, waiting for the owner's decision (decision 0172):
  // nothing is cashed or sold meanwhile, and her reopening the selection does not settle it.
  const held = await heldPhotoOrder(gallery.id);
  return {
    gallery: header,
    validatedAt: gallery.selectionValidatedAt?.toISOString() ?? null,
    photos: photos.map((photo) => ({
      ...photo,
      favouritedAt: photo.favouritedAt?.toISOString(),
      right: selling ? (rights.get(photo.id) ?? "to_buy") : null,
    })),
    /** What « Rouvrir la sélection » does beyond the selection: its confirmation says it. */
    reopenConfirmation: reopenConfirmation(pending ? formatCents(pending.amountCents) : null, held),
    // Decision 0184: what the client owes beyond her package, to cash at the studio.
    sale: selling
      ? {
          included: gallery.includedPhotos ?? 0,
          due: due
            ? {
                count: due.photoIds.length,
                allPhotos: due.allPhotos,
                amount: formatCents(due.amountCents),
                amountCents: due.amountCents,
                /** What her earlier orders paid, taken off « toutes les photos » (decision 0196). */
                credit: due.creditCents > 0 ? formatCents(due.creditCents) : null,
              }
            : null,
          pending: pending
            ? { amount: formatCents(pending.amountCents), orderId: pending.id }
            : null,
          held: held
            ? {
                orderId: held.id,
                amount: formatCents(held.amountCents),
                taken: held.taken,
                awaiting: held.status === "awaiting_payment",
              }
            : null,
          means: OFFLINE_MEANS.map((means) => ({
            value: means,
            label: OFFLINE_MEANS_LABELS[means],
          })),
          orderKey: newOrderKey(),
        }
      : null,
  };
}

/**
 * The question « Rouvrir la sélection » asks: her order awaiting payment is called off by it (what is due
 * changes, decision 0184), and a card payment held for one of her orders stays the owner's to decide
 * (decision 0172) — accepted, it unlocks only what is then due for the same photos and amount (the
 * kind's late payment), else it goes back.
 */
export function reopenConfirmation(
  pendingAmount: string | null,
  held: { status: string; amountCents: number; taken: string } | null,
): string {
  const waiting =
    pendingAmount ?? (held?.status === "awaiting_payment" ? formatCents(held.amountCents) : null);
  return [
    "Rouvrir la sélection ? Le client pourra de nouveau changer ses favoris, puis devra valider à nouveau.",
    waiting
      ? `Sa commande de ${waiting} en attente de paiement sera annulée et il en sera prévenu par e-mail : il commandera ce qui reste à payer une fois sa sélection validée de nouveau ; un paiement qui arriverait encore pour elle lui serait remboursé.`
      : null,
    held
      ? `Le paiement par carte de ${held.taken} déjà reçu pour sa commande de ${formatCents(held.amountCents)} (un autre montant) reste à votre décision, sur la page de la commande : remboursé, il lui est rendu en entier ; accepté, il ne débloque ses photos que s'il valide de nouveau les mêmes photos au même prix, sinon il lui est remboursé.`
      : null,
  ]
    .filter(Boolean)
    .join(" ");
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  const parsed = parseIntent(formData, ["reopen", "cash", "offer", "offer-all"]);
  if (!parsed.ok || parsed.id !== params.id) {
    return refusedIntent(parsed.ok ? "id" : parsed.reason, "Galerie inconnue");
  }
  const { gallery } = await requireGallery(params.id);
  const here = `/admin/galeries/${gallery.id}/selection`;
  switch (parsed.intent) {
    case "reopen": {
      const reopened = await reopenSelection(gallery.id);
      return redirectWithToast(
        here,
        reopened
          ? {
              type: "success",
              title: "Sélection rouverte",
              description: "Le client peut de nouveau modifier ses favoris puis valider.",
            }
          : { type: "error", title: "Aucune sélection validée à rouvrir" },
      );
    }
    case "cash": {
      const means = String(formData.get("moyen") ?? "");
      if (!(OFFLINE_MEANS as readonly string[]).includes(means)) {
        return redirectWithToast(here, {
          type: "error",
          title: "Choisissez comment le client a payé",
        });
      }
      const key = String(formData.get("cle") ?? "");
      // The amount her page showed: what is due may have changed since (refused, never cashed).
      const shown = String(formData.get("montant") ?? "");
      try {
        await cashPhotoOrder(
          gallery,
          means as OfflineMeans,
          /^[A-Za-z0-9-]{8,100}$/.test(key) ? key : newOrderKey(),
          /^\d{1,9}$/.test(shown) ? Number(shown) : null,
        );
      } catch (error) {
        if (error instanceof PhotoSaleRefusedError || error instanceof PaymentRefusedError) {
          return redirectWithToast(here, { type: "error", title: error.message });
        }
        throw error;
      }
      return redirectWithToast(here, {
        type: "success",
        title: "Paiement encaissé, photos débloquées",
        description: "La facture est émise ; le client peut télécharger ses photos.",
      });
    }
    case "offer":
    case "offer-all": {
      const photoId = formData.get("photoId");
      if (parsed.intent === "offer" && !isUuid(photoId)) {
        return refusedIntent("id", "Photo inconnue");
      }
      await offerPhotos(gallery.id, parsed.intent === "offer" ? [String(photoId)] : null);
      return redirectWithToast(here, {
        type: "success",
        title: parsed.intent === "offer" ? "Photo offerte" : "Toutes les photos offertes",
        description:
          parsed.intent === "offer"
            ? "Le client peut la télécharger dès maintenant."
            : "Le client peut les télécharger dès maintenant.",
      });
    }
  }
}
