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
import { GalleryHeader } from "~/components/gallery-admin/gallery-header";
import { GalleryUploader } from "~/components/gallery-admin/gallery-uploader";
import { MoveButtons } from "~/components/admin/move-buttons";
import { Pager } from "~/components/admin/pager";
import { Button } from "~/components/ui/button";
import { useHydrated } from "~/lib/use-hydrated";
import {
  adminGalleryPhotoPath,
  adminGalleryProgressPath,
  uploadFormPath,
} from "~/lib/gallery-urls";

export { action, loader } from "./index.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.gallery.title ?? "Galerie"} : photos - Administration` },
];

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
