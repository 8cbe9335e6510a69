import { lazy, Suspense, useEffect, useRef } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { clientGalleryPath, clientPhotoDownloadPath, clientZipPath } from "~/lib/gallery-urls";
import { useHydrated } from "~/lib/use-hydrated";
import type { ActionAnswer } from "./client-answer";
import { buttonClass, filterClass, tileLinkClass } from "./client-classes";
import { CommentButton, FavouriteButton, ValidateSelection } from "./client-photo-actions";
import { PhotoPurchase, PhotoRightBadge, type PhotoSaleData } from "./client-photo-purchase";
import { SinglePhoto } from "./client-single-photo";
import { mayDownload, PHOTO_RIGHT_LABELS } from "~/lib/gallery-sales";
import { GalleryPicture } from "./gallery-picture";
import "./justified-grid.css";
import { PHONE_ROW_RATIO, photoRows, rowClasses, type RowPlace } from "./justified-rows";
import type { GalleryTile } from "../../lib/gallery-photo-urls";
import { ratioClass } from "./ratio";
import { useThumbhashPlaceholders } from "./thumbhash-placeholders";
import { heroSizes, tileSizes } from "./tile-sizes";

const loadViewer = () => import("./photo-viewer");
const PhotoViewer = lazy(loadViewer);

/**
 * Fetches the viewer's chunk (script and stylesheet) once the page is idle, or at the first touch, pointer
 * or focus on the grid if that comes first: the first photo then opens without waiting for it (decision
 * 0134). The module is fetched once; React.lazy reuses it.
 */
function usePreloadedViewer(grid: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    let done = false;
    const preload = () => {
      if (done) return;
      done = true;
      void loadViewer();
    };
    // Safari before 18 has no requestIdleCallback.
    const hasIdle = typeof window.requestIdleCallback === "function";
    const idle = hasIdle
      ? window.requestIdleCallback(preload, { timeout: 2000 })
      : window.setTimeout(preload, 200);
    const element = grid.current;
    element?.addEventListener("pointerdown", preload, { once: true });
    element?.addEventListener("focusin", preload, { once: true });
    return () => {
      if (hasIdle) window.cancelIdleCallback(idle);
      else window.clearTimeout(idle);
      element?.removeEventListener("pointerdown", preload);
      element?.removeEventListener("focusin", preload);
    };
  }, [grid]);
}

/** The cover's `object-position` as classes (justified-grid.css: no style attribute), by tenths. */
const focalClasses = ({ x, y }: { x: number; y: number }) =>
  `focal-x-${Math.round(x / 10) * 10} focal-y-${Math.round(y / 10) * 10}`;

const PHONE_ROW: RowPlace = { rowRatio: PHONE_ROW_RATIO, rowCount: 2 };

/** What the client gallery's page shows once the code is given (its loader's data). */
export type ClientGalleryData = {
  /** An administrator's « Voir comme le client »: read-only. */
  preview: boolean;
  gallery: {
    id: string;
    title: string;
    clientName: string;
    sessionDate: string | null;
    availableUntil: string;
    downloadsAllowed: boolean;
    zipSize: string;
    favouritesZipSize: string;
    validatedAt: string | null;
    /** The cover's point that stays in view, in % (decision 0134). */
    coverFocal: { x: number; y: number };
  };
  photos: GalleryTile[];
  /** The cover the owner chose, when it is one of the photos. */
  coverId: string | null;
  /** The sale of photos beyond her package (decision 0184); null: every photo is included. */
  sale: PhotoSaleData | null;
};

/**
 * The client's gallery (decision 0103): the cover, the grid, the filters and downloads, the viewer, ♥ and
 * comments, the validation of the selection.
 */
export function ClientGallery({
  gallery,
  photos,
  coverId,
  preview,
  sale,
  answer,
}: ClientGalleryData & { answer?: ActionAnswer }) {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const gridRef = useRef<HTMLUListElement>(null);
  const onlyFavourites = searchParams.get("favoris") === "1";
  const openId = searchParams.get("photo");
  const favouritesCount = photos.filter((photo) => photo.favourite).length;
  const visible = onlyFavourites ? photos.filter((photo) => photo.favourite) : photos;
  const locked = gallery.validatedAt !== null;
  const canWrite = !preview && !locked;
  const downloadable = (photo: GalleryTile) => mayDownload(photo.right ?? "included");
  const downloadableCount = photos.filter(downloadable).length;
  const downloadableFavourites = photos.filter(
    (photo) => photo.favourite && downloadable(photo),
  ).length;
  useThumbhashPlaceholders(gridRef, `${onlyFavourites}-${visible.length}`);
  usePreloadedViewer(gridRef);

  const listUrl = (photoId?: string) => {
    const params = new URLSearchParams();
    if (onlyFavourites) params.set("favoris", "1");
    if (photoId) params.set("photo", photoId);
    const query = params.toString();
    return query ? `?${query}` : clientGalleryPath(gallery.id);
  };

  const actions = (photo: GalleryTile, where: "tile" | "viewer") => (
    <>
      <FavouriteButton photo={photo} disabled={!canWrite} compact={where === "viewer"} />
      <CommentButton photo={photo} disabled={!canWrite} compact={where === "viewer"} />
      {where === "viewer" && gallery.downloadsAllowed && downloadable(photo) ? (
        <a
          href={clientPhotoDownloadPath(gallery.id, photo.id)}
          download
          className="yarl__button text-sm font-semibold"
        >
          Télécharger
        </a>
      ) : null}
    </>
  );

  const rows = photoRows(visible);
  const openIndex = openId ? visible.findIndex((photo) => photo.id === openId) : -1;
  const single = openIndex >= 0 && !hydrated ? visible[openIndex] : undefined;
  const cover = photos.find((photo) => photo.id === coverId);

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      {preview ? (
        <p role="status" className="mb-4 rounded-md bg-amber-200 px-4 py-2 font-semibold">
          Aperçu administrateur : vous voyez la galerie comme le client, sans pouvoir la modifier.
        </p>
      ) : null}
      {cover && !single ? (
        // The cover the owner chose, as the gallery's opening (it is also a tile of the grid: no
        // alternative text here).
        <div className="mb-6 aspect-[4/5] overflow-hidden rounded-md bg-stone-300 md:aspect-[5/2]">
          <GalleryPicture
            galleryId={gallery.id}
            photo={cover}
            alt=""
            eager
            fallbackWidth={960}
            sizes={heroSizes(cover.width, cover.height)}
            className={`h-full w-full object-cover ${focalClasses(gallery.coverFocal)}`}
          />
        </div>
      ) : null}
      <header className="mb-6">
        <h1 className="font-serif text-3xl font-semibold">{gallery.title}</h1>
        <p className="mt-1 text-stone-700">
          {gallery.clientName}
          {gallery.sessionDate ? ` · Séance du ${gallery.sessionDate}` : ""}
        </p>
        <p className="mt-1 text-stone-700">
          Disponible jusqu'au {gallery.availableUntil} · {photos.length} photo
          {photos.length > 1 ? "s" : ""} · {favouritesCount} favori{favouritesCount > 1 ? "s" : ""}
        </p>
      </header>

      {answer?.error && answer.intent !== "code" && answer.intent !== "buy" ? (
        <p role="alert" className="mb-4 rounded-md bg-red-100 px-4 py-2 font-medium text-red-900">
          {answer.error}
        </p>
      ) : null}
      {locked ? (
        <p
          role="status"
          className="mb-4 rounded-md bg-emerald-100 px-4 py-2 font-medium text-emerald-900"
        >
          Sélection envoyée au studio le {gallery.validatedAt}.
        </p>
      ) : null}

      {single ? (
        <SinglePhoto
          galleryId={gallery.id}
          photo={single}
          previous={visible[openIndex - 1]}
          next={visible[openIndex + 1]}
          position={`${openIndex + 1} / ${visible.length}`}
          listUrl={listUrl}
          actions={actions(single, "tile")}
          downloadsAllowed={gallery.downloadsAllowed && downloadable(single)}
          canWrite={canWrite}
          commentError={answer?.intent === "comment" ? answer : undefined}
        />
      ) : (
        <>
          {sale ? (
            <PhotoPurchase sale={sale} validated={locked} preview={preview} answer={answer} />
          ) : null}
          <nav
            aria-label="Affichage et sélection"
            className="mb-4 flex flex-wrap items-center gap-2"
          >
            <Link
              to={clientGalleryPath(gallery.id)}
              aria-current={onlyFavourites ? undefined : "page"}
              className={filterClass}
            >
              Toutes les photos ({photos.length})
            </Link>
            <Link
              to="?favoris=1"
              aria-current={onlyFavourites ? "page" : undefined}
              className={filterClass}
            >
              Mes favoris ({favouritesCount})
            </Link>
            {gallery.downloadsAllowed && downloadableCount > 0 ? (
              <>
                <a href={clientZipPath(gallery.id)} className={buttonClass}>
                  {sale && downloadableCount < photos.length
                    ? `Télécharger mes ${downloadableCount} photos (ZIP, ${gallery.zipSize})`
                    : `Tout télécharger (ZIP, ${gallery.zipSize})`}
                </a>
                {downloadableFavourites > 0 ? (
                  <a href={clientZipPath(gallery.id, { favourites: true })} className={buttonClass}>
                    Télécharger mes favoris (ZIP, {gallery.favouritesZipSize})
                  </a>
                ) : null}
              </>
            ) : null}
            {canWrite ? <ValidateSelection count={favouritesCount} /> : null}
          </nav>
          {visible.length === 0 ? (
            <p className="py-8 text-stone-700">
              {onlyFavourites
                ? "Aucun favori pour l'instant : touchez le cœur des photos que vous préférez."
                : "Les photos arrivent bientôt."}
            </p>
          ) : (
            <ul ref={gridRef} className="justified" aria-label="Photos de la galerie">
              {visible.map((photo, index) => (
                <li
                  key={photo.id}
                  className={`${ratioClass(photo.width, photo.height)} ${rowClasses(rows[index] ?? PHONE_ROW)}`}
                  data-thumbhash={photo.thumbhash ?? undefined}
                >
                  <a
                    href={listUrl(photo.id)}
                    className={tileLinkClass}
                    onClick={(event) => {
                      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0)
                        return;
                      event.preventDefault();
                      void navigate(listUrl(photo.id), { preventScrollReset: true });
                    }}
                  >
                    <GalleryPicture
                      galleryId={gallery.id}
                      photo={photo}
                      eager={index < 8}
                      fallbackWidth={480}
                      sizes={tileSizes(photo.width, photo.height, rows[index] ?? PHONE_ROW)}
                    />
                    <span className="sr-only">
                      {photo.favourite ? " (favori)" : ""}
                      {photo.comment ? " (commentée)" : ""}
                      {sale && photo.right ? ` (${PHOTO_RIGHT_LABELS[photo.right]})` : ""}
                    </span>
                  </a>
                  {sale && photo.right ? <PhotoRightBadge right={photo.right} /> : null}
                  <div className="absolute right-1 bottom-1 flex gap-1">
                    {actions(photo, "tile")}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </>
      )}

      {hydrated && openIndex >= 0 ? (
        <Suspense fallback={null}>
          <PhotoViewer
            galleryId={gallery.id}
            photos={visible}
            index={openIndex}
            onView={(index) => {
              const photo = visible[index];
              if (photo && photo.id !== openId) {
                void navigate(listUrl(photo.id), { replace: true, preventScrollReset: true });
              }
            }}
            onClose={() => void navigate(listUrl(), { preventScrollReset: true })}
            actions={(photo) => actions(photo, "viewer")}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
