import { data } from "react-router";
import { parisToday } from "~/lib/dates";
import { parseForm } from "~/lib/forms";
import {
  centsToEuros,
  coverFocusOf,
  gallerySaleErrors,
  galleryFormSchema,
  galleryFormValues,
  newGalleryValues,
} from "~/lib/gallery-schemas";
import { requireAdmin } from "../admin/guard.server";
import { failedForm, invalidForm } from "../forms.server";
import { log } from "../logger.server";
import { unprintableFields } from "../pdf/printable.server";
import { redirectWithToast } from "../toast.server";
import { hasPhotoOrderPaidOrAwaited } from "./photo-sales.server";
import {
  createGallery,
  currentStudios,
  expiryDay,
  findGallery,
  galleryCounts,
  galleryState,
  purgeAfterDaysOf,
  updateGallery,
  type GalleryState,
} from "./galleries.server";

/*
 * The loaders and actions shared by the owner's gallery pages (/admin/galeries/…): the header every page
 * of one gallery shows, and the gallery form of « nouvelle » and « réglages ».
 */

export type GalleryHeaderData = {
  id: string;
  title: string;
  clientName: string;
  state: GalleryState;
};

/** The gallery of an admin page, or a redirect to the list with « Galerie introuvable ». */
export async function requireGallery(id: string) {
  const found = await findGallery(id);
  if (!found || found.gallery.deletingAt) {
    throw await redirectWithToast("/admin/galeries", {
      type: "error",
      title: "Galerie introuvable",
      description: "Cette galerie n'existe pas ou plus.",
    });
  }
  const header: GalleryHeaderData = {
    id: found.gallery.id,
    title: found.gallery.title,
    clientName: found.gallery.clientName,
    state: galleryState(found.gallery),
  };
  return { ...found, header };
}

/** The form's values of a stored gallery: its fields stored under their own name, and three worked out. */
function storedValues(gallery: NonNullable<Awaited<ReturnType<typeof findGallery>>>["gallery"]) {
  return galleryFormValues({
    ...gallery,
    expiresOn: expiryDay(gallery.expiresAt),
    purgeAfterDays: purgeAfterDaysOf(gallery),
    coverFocus: coverFocusOf(gallery.coverFocalX, gallery.coverFocalY),
    extraPhotoPrice: centsToEuros(gallery.extraPhotoPriceCents),
    allPhotosPrice: centsToEuros(gallery.allPhotosPriceCents),
  });
}

export async function loadGalleryForm(request: Request, id: string | null) {
  await requireAdmin(request);
  const studios = await currentStudios();
  const today = parisToday();
  if (id === null) return { gallery: null, studios, values: newGalleryValues(today), today };
  const { gallery, header } = await requireGallery(id);
  const counts = await galleryCounts(gallery.id);
  return {
    gallery: {
      ...header,
      accessCode: gallery.accessCode,
      purgeAt: gallery.purgeAt.toISOString(),
      expiresAt: gallery.expiresAt.toISOString(),
      photos: counts.total,
      /** An order of photos paid or awaited: lowering the included number bills included photos. */
      photosPaid: await hasPhotoOrderPaidOrAwaited(gallery.id),
    },
    studios,
    values: storedValues(gallery),
    today,
  };
}

/** Saves the form (a new gallery or the settings of `id`); the other intents are the page's own. */
export async function saveGalleryForm(request: Request, formData: FormData, id: string | null) {
  const admin = await requireAdmin(request);
  const existing = id === null ? null : await requireGallery(id);
  const studios = await currentStudios();
  const schema = galleryFormSchema({
    today: parisToday(),
    studioIds: studios.map((studio) => studio.id),
    currentExpiry: existing ? expiryDay(existing.gallery.expiresAt) : null,
  });
  const parsed = parseForm(formData, schema, { omit: ["intent"] });
  if (!parsed.ok) return invalidForm(parsed.values, parsed.errors);
  const errors = {
    ...(existing ? gallerySaleErrors(parsed.data) : {}),
    // The client's name is the buyer on the invoice of the photos she buys from her gallery (decision
    // 0184), and its title names them on its lines: one its fonts cannot print would leave an invoice
    // that can never be drawn nor changed.
    ...(await unprintableFields(
      { title: parsed.data.title, clientName: parsed.data.clientName },
      "la facture",
    )),
  };
  if (Object.keys(errors).length > 0) return invalidForm(parsed.values, errors);
  try {
    if (existing) {
      const saved = await updateGallery(existing.gallery.id, parsed.data);
      if (!saved) return data({ error: "Galerie inconnue" }, { status: 404 });
      return redirectWithToast(`/admin/galeries/${existing.gallery.id}/reglages`, {
        type: "success",
        title: "Réglages enregistrés",
      });
    }
    const created = await createGallery(parsed.data, admin.id);
    return redirectWithToast(`/admin/galeries/${created}`, {
      type: "success",
      title: "Galerie créée",
      description: "Ajoutez-y les photos de la séance.",
    });
  } catch (error) {
    log.error("admin_gallery_save_failed", { error });
    return failedForm(parsed.values, {
      type: "error",
      title: "Erreur",
      description: "Impossible d'enregistrer la galerie. Réessayez dans un instant.",
    });
  }
}
