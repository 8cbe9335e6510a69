import { ArrowDownAZ, ImageIcon, Star } from "lucide-react";
import { useState } from "react";
import { Form, useLocation } from "react-router";
import type { Route } from "./+types/index";
import { DeleteForm } from "~/components/admin/delete-form";
import {
  GalleryPhotoGrid,
  useDragToReorder,
  useLivePhotos,
} from "~/components/gallery-admin/gallery-photo-grid";
import { requireGallery } from "~/server/galleries/admin-pages.server";
import { GalleryHeader } from "~/components/gallery-admin/gallery-header";
import { GalleryUploader } from "~/components/gallery-admin/gallery-uploader";
import { MoveButtons } from "~/components/admin/move-buttons";
import { Pager } from "~/components/admin/pager";
import { Button } from "~/components/ui/button";
import { parseIntent } from "~/lib/forms";
import { useHydrated } from "~/lib/use-hydrated";
import {
  adminGalleryPath,
  adminGalleryPhotoPath,
  adminGalleryProgressPath,
  uploadFormPath,
} from "~/lib/gallery-urls";
import { requireAdmin } from "~/server/admin/guard.server";
import { listPath, pagePosition } from "~/server/db/keyset.server";
import { refusedIntent } from "~/server/forms.server";
import { redirectWithToast } from "~/server/toast.server";
import {
  ADMIN_PHOTO_ORDER,
  adminPhotoPage,
  deletePhoto,
  movePhoto,
  setCoverPhoto,
  sortPhotosByName,
} from "~/server/uploads/gallery-photos.server";
import { FORM_OUTCOME_PARAM, formOutcomeMessage } from "~/server/uploads/form-outcome";
import { interruptedUploads } from "~/server/uploads/resumable.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.gallery.title ?? "Galerie"} : photos - Administration` },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { gallery, header } = await requireGallery(params.id);
  // What became of a photo sent by the plain form (no JavaScript, so no toast): a known word only.
  const query = new URL(request.url).searchParams;
  const outcome = query.get(FORM_OUTCOME_PARAM) ?? "";
  // One page of the photos and counts by the database: a gallery can hold 2,000 (decision 0136).
  const [progress, interrupted] = await Promise.all([
    adminPhotoPage(gallery.id, pagePosition(ADMIN_PHOTO_ORDER, query)),
    interruptedUploads(gallery.id),
  ]);
  return {
    gallery: { id: gallery.id, title: gallery.title, coverPhotoId: gallery.coverPhotoId },
    header,
    progress,
    interrupted,
    formMessage: formOutcomeMessage(outcome),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  await requireAdmin(request);
  const { gallery } = await requireGallery(params.id);
  // Back to the page of the grid the owner was on (request.url may be the `.data` request's).
  const back = listPath(adminGalleryPath(gallery.id), new URL(request.url).searchParams, [
    "apres",
    "avant",
  ]);
  const formData = await request.formData();
  if (formData.get("intent") === "sort-by-name") {
    await sortPhotosByName(gallery.id);
    return redirectWithToast(back, { type: "success", title: "Photos triées par nom de fichier" });
  }
  const parsed = parseIntent(formData, ["up", "down", "move", "cover", "delete"]);
  if (!parsed.ok) return refusedIntent(parsed.reason, "Photo inconnue");
  const { intent, id } = parsed;
  if (intent === "up" || intent === "down" || intent === "move") {
    // `move` (drag and drop): to the place `position`, from 1.
    const to = Number(formData.get("position"));
    if (intent === "move" && !(Number.isSafeInteger(to) && to >= 1))
      return refusedIntent("intent", "Photo inconnue");
    const moved = await movePhoto(gallery.id, id, intent === "move" ? { to } : intent);
    return redirectWithToast(
      back,
      moved
        ? { type: "success", title: "Ordre des photos enregistré" }
        : { type: "error", title: "Cette photo ne peut pas aller plus loin" },
    );
  }
  if (intent === "cover") {
    if (!(await setCoverPhoto(gallery.id, id))) return refusedIntent("id", "Photo inconnue");
    return redirectWithToast(back, { type: "success", title: "Couverture de la galerie choisie" });
  }
  const name = await deletePhoto(gallery.id, id);
  if (name === null) return refusedIntent("id", "Photo inconnue");
  return redirectWithToast(back, {
    type: "success",
    title: "Photo supprimée",
    description: name,
  });
}

const STATUS_TEXT = { uploaded: "Préparation…", processing: "Préparation…", ready: "Prête" };

export default function GalleryPhotos({ loaderData }: Route.ComponentProps) {
  const { gallery } = loaderData;
  const [uploading, setUploading] = useState(false);
  // The progress follows the page shown: its own `apres`/`avant`.
  const { search } = useLocation();
  const progress = useLivePhotos(
    loaderData.progress,
    `${adminGalleryProgressPath(gallery.id)}${search}`,
    uploading,
  );
  const { photos, offset, total } = progress;
  const hydrated = useHydrated();
  const { itemProps } = useDragToReorder(
    photos.map((photo) => photo.id),
    offset,
  );

  return (
    <div className="space-y-6">
      <GalleryHeader gallery={loaderData.header} />

      <GalleryUploader
        galleryId={gallery.id}
        formAction={uploadFormPath(gallery.id)}
        formMessage={loaderData.formMessage}
        interrupted={loaderData.interrupted}
        onBusyChange={setUploading}
      />

      <section
        aria-labelledby="photos-titre"
        className="space-y-4 rounded-xl border border-border bg-white p-5"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 id="photos-titre" className="font-sans text-lg font-semibold">
              Photos de la galerie
            </h2>
            <p role="status" className="text-sm text-muted-foreground">
              {progress.total === 0
                ? "Aucune photo pour l'instant."
                : `${progress.ready} ${progress.ready > 1 ? "photos prêtes" : "photo prête"} sur ${progress.total}` +
                  (progress.preparing > 0 ? ` · ${progress.preparing} en préparation` : "") +
                  (progress.failed > 0 ? ` · ${progress.failed} en erreur` : "")}
            </p>
          </div>
          {total > 1 ? (
            <Form method="post">
              <Button type="submit" name="intent" value="sort-by-name" variant="outline" size="sm">
                <ArrowDownAZ aria-hidden="true" />
                Trier par nom de fichier
              </Button>
            </Form>
          ) : null}
        </div>

        <GalleryPhotoGrid>
          {photos.map((photo, index) => {
            const isCover = gallery.coverPhotoId === photo.id;
            return (
              // Dragging is a pointer shortcut: « Monter » and « Descendre » do the same from the keyboard.
              <li
                key={photo.id}
                className="flex flex-col overflow-hidden rounded-lg border border-border data-[drop-target]:border-gold-dark data-[drop-target]:ring-2 data-[drop-target]:ring-gold-dark"
                data-photo-id={photo.id}
                {...(hydrated ? itemProps(photo.id) : {})}
              >
                <div className="flex aspect-[3/2] items-center justify-center bg-stone-100">
                  {photo.preview ? (
                    <img
                      src={adminGalleryPhotoPath(gallery.id, photo.id, photo.preview)}
                      alt=""
                      loading="lazy"
                      className="size-full object-contain"
                    />
                  ) : (
                    <ImageIcon aria-hidden="true" className="size-8 text-stone-400" />
                  )}
                </div>
                <div className="flex flex-1 flex-col gap-2 p-3">
                  <h3 className="truncate text-sm font-semibold" title={photo.name}>
                    {photo.name}
                  </h3>
                  <p className="text-sm">
                    {photo.status === "failed" ? (
                      <span className="text-red-800">
                        Erreur : {photo.error ?? "la photo n'a pas pu être préparée."}
                      </span>
                    ) : (
                      <span className={photo.status === "ready" ? "text-green-800" : ""}>
                        {STATUS_TEXT[photo.status]}
                      </span>
                    )}
                    {isCover ? <span className="ml-2 font-semibold">· Couverture</span> : null}
                  </p>
                  <div className="mt-auto flex flex-wrap items-center gap-1">
                    <Form method="post" className="flex flex-wrap gap-1">
                      <input type="hidden" name="id" value={photo.id} />
                      {/* Places in the whole gallery: « Monter » from a page's first photo crosses to the page before. */}
                      <MoveButtons name={photo.name} index={offset + index} count={total} />
                      {isCover ? null : (
                        <Button type="submit" name="intent" value="cover" variant="ghost" size="sm">
                          <Star aria-hidden="true" />
                          Choisir comme couverture
                          <span className="sr-only"> « {photo.name} »</span>
                        </Button>
                      )}
                    </Form>
                    <DeleteForm
                      id={photo.id}
                      confirmation="Supprimer cette photo de la galerie ?"
                      itemLabel={photo.name}
                    />
                  </div>
                </div>
              </li>
            );
          })}
        </GalleryPhotoGrid>
        <Pager previous={progress.previous} next={progress.next} label="Pages des photos" />
      </section>
    </div>
  );
}
