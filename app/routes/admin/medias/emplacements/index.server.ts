import type { Route } from "./+types/index";
import { photoOptions } from "~/components/admin/document-form";
import { STYLE_GALLERIES, type StyleGalleryKey } from "~/content/schemas";
import { styleGalleryValues } from "~/lib/document-forms";
import { isUuid } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { ContentError, loadDocument, restoreDocument } from "~/server/content/content-store.server";
import { documentHistory } from "~/server/content/document-form.server";
import { SLOT_GROUPS } from "~/server/content/media-slots.server";
import { listLibrary, listSlots } from "~/server/content/media-store.server";
import { styleGalleryAction, styleGalleryOf } from "~/server/content/style-gallery-form.server";
import { refusedIntent } from "~/server/forms.server";
import { redirectWithToast } from "~/server/toast.server";

const PAGE = "/admin/medias/emplacements";
const STYLE_KEYS = Object.keys(STYLE_GALLERIES) as StyleGalleryKey[];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [slots, library, history, pagePhotos] = await Promise.all([
    listSlots(),
    listLibrary(),
    documentHistory("pagePhotos", request),
    loadDocument("pagePhotos"),
  ]);
  const photos = new Map(library.map((photo) => [photo.id, photo]));
  return {
    galleries: STYLE_KEYS.map((gallery) => ({
      gallery,
      label: STYLE_GALLERIES[gallery],
      values: styleGalleryValues(pagePhotos.galleries[gallery]),
    })),
    photoOptions: photoOptions(library),
    thumbnails: Object.fromEntries(
      library.map((photo) => [
        photo.id,
        { alt: photo.alt, colour: photo.colour, picture: photo.picture },
      ]),
    ),
    groups: SLOT_GROUPS.map((group) => ({
      group,
      slots: slots
        .filter((slot) => slot.group === group)
        .map((slot) => {
          const photo = slot.mediaId ? photos.get(slot.mediaId) : undefined;
          return {
            key: slot.key,
            label: slot.label,
            photo: photo
              ? { alt: photo.alt, colour: photo.colour, picture: photo.picture, demo: photo.demo }
              : null,
          };
        }),
    })).filter((group) => group.slots.length > 0),
    history,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  const gallery = styleGalleryOf(formData.get("document"));
  if (gallery) return styleGalleryAction(formData, gallery, admin, PAGE);
  const revision = formData.get("revision");
  if (formData.get("intent") !== "restore") return refusedIntent("intent", "");
  if (!isUuid(revision)) return refusedIntent("id", "Version inconnue");
  try {
    const restored = await restoreDocument("pagePhotos", revision, {
      id: admin.id,
      name: admin.name || admin.email,
    });
    if (!restored) return refusedIntent("id", "Version inconnue");
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    return redirectWithToast(PAGE, {
      type: "error",
      title: "Version non restaurée",
      description: error.message,
    });
  }
  return redirectWithToast(PAGE, {
    type: "success",
    title: "Version restaurée",
    description: "Les photos des pages sont revenues à cette version.",
  });
}
