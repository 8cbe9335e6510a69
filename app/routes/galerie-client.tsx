import { lazy, Suspense, useEffect, useRef, type ReactNode } from "react";
import { MessageCircle, Pencil } from "lucide-react";
import {
  data,
  Form,
  Link,
  redirect,
  useFetcher,
  useNavigate,
  useSearchParams,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { GalleryPicture } from "~/components/gallery/gallery-picture";
import "~/components/gallery/justified-grid.css";
import type { GalleryTile } from "~/components/gallery/photo-urls";
import { ratioClass } from "~/components/gallery/ratio";
import { heroSizes, tileSizes } from "~/components/gallery/tile-sizes";
import { MAX_COMMENT_LENGTH, MISSING_GALLERY_MESSAGE } from "~/components/gallery/texts";
import { useThumbhashPlaceholders } from "~/components/gallery/thumbhash-placeholders";
import { formatDateFr, formatLongDateTimeFr } from "~/lib/dates";
import { isUuid } from "~/lib/forms";
import { useHydrated } from "~/lib/use-hydrated";
import { clientGalleryPath, clientPhotoDownloadPath, clientZipPath } from "~/lib/gallery-urls";
import { clientAddressContext } from "~/server/context";
import { siteContent } from "~/server/content/site-content.server";
import {
  accessCodeMatches,
  clientGalleryViewer,
  consumeCodeAttempt,
  findClientGallery,
  galleryAccessCookie,
  isExpired,
  tooManyAttemptsMessage,
  WRONG_CODE_MESSAGE,
  type GalleryRow,
} from "~/server/galleries/access.server";
import {
  clientPhotos,
  expiryDay,
  formatDownloadSize,
  lockedMessage,
  setComment,
  setFavourite,
  touchClientActivity,
  validateSelection,
} from "~/server/galleries/client.server";
import { studioContact } from "~/server/galleries/emails.server";
import type { Route } from "./+types/galerie-client";

/*
 * /galerie-client/{id} (issue 14, decision 0103): the client's gallery. Without the code's cookie the code
 * form; with it the grid, the viewer (?photo={id}, a single-photo page without JavaScript), favourites,
 * comments and the validation of the selection. An administrator sees it read-only (« Aperçu
 * administrateur »). Actions by `intent`; authorisation is checked in every one.
 */

const PhotoViewer = lazy(() => import("~/components/gallery/photo-viewer"));

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
  const rows = await clientPhotos(gallery.id);
  const photos = rows.map(({ bytes: _bytes, ...photo }) => photo);
  const size = (list: typeof rows) =>
    formatDownloadSize(list.reduce((total, photo) => total + photo.bytes, 0));
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
    },
    photos: photos satisfies GalleryTile[],
    coverId: photos.some((photo) => photo.id === gallery.coverPhotoId)
      ? gallery.coverPhotoId
      : null,
  });
}

type ActionAnswer = { intent: string; error?: string; code?: string; ok?: boolean };

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

/** Moving from photo to photo changes only `?photo=`: nothing to read again. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) {
    const current = new URLSearchParams(currentUrl.search);
    const next = new URLSearchParams(nextUrl.search);
    current.delete("photo");
    next.delete("photo");
    if (current.toString() === next.toString()) return false;
  }
  return defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const brand =
    (
      matches.find((match) => match?.id === "routes/gallery-client-layout")?.loaderData as
        { brand?: string } | undefined
    )?.brand ?? "";
  const title =
    loaderData?.kind === "gallery"
      ? loaderData.gallery.title
      : loaderData?.kind === "missing"
        ? "Galerie introuvable"
        : loaderData?.kind === "expired"
          ? "Galerie expirée"
          : "Galerie privée";
  return [
    { title: brand ? `${title} | ${brand}` : title },
    { name: "robots", content: "noindex, nofollow" },
  ];
};

export default function ClientGalleryPage({ loaderData, actionData }: Route.ComponentProps) {
  switch (loaderData.kind) {
    case "missing":
      return (
        <Notice title="Galerie introuvable">
          <p>{MISSING_GALLERY_MESSAGE}</p>
        </Notice>
      );
    case "expired":
      return (
        <Notice title="Galerie expirée">
          <p>
            Cette galerie a expiré le {loaderData.expiredOn}. Pour retrouver vos photos, contactez
            le studio : {loaderData.contact.name}
            {loaderData.contact.phone ? `, ${loaderData.contact.phone}` : ""},{" "}
            <a className="underline" href={`mailto:${loaderData.contact.email}`}>
              {loaderData.contact.email}
            </a>
            .
          </p>
        </Notice>
      );
    case "code":
      return (
        <CodeForm
          title={loaderData.title}
          answer={actionData && "intent" in actionData ? actionData : undefined}
        />
      );
    case "gallery":
      return (
        <Gallery
          {...loaderData}
          answer={actionData && "intent" in actionData ? actionData : undefined}
        />
      );
  }
}

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <h1 className="mb-4 font-serif text-3xl font-semibold">{title}</h1>
      {children}
    </div>
  );
}

function CodeForm({ title, answer }: { title: string; answer?: ActionAnswer }) {
  const error = answer?.intent === "code" ? answer.error : undefined;
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <h1 className="mb-2 font-serif text-3xl font-semibold">{title}</h1>
      <p className="mb-6 text-stone-700">
        Cette galerie est privée. Saisissez le code d'accès à 8 caractères reçu par e-mail.
      </p>
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="intent" value="code" />
        <div>
          <label htmlFor="code" className="mb-1 block font-medium">
            Code d'accès
          </label>
          <input
            id="code"
            name="code"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            required
            maxLength={20}
            defaultValue={answer?.code ?? ""}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "code-error" : undefined}
            className="w-full rounded-md border border-stone-400 bg-white px-3 py-2 font-mono text-lg tracking-widest uppercase"
          />
          {error ? (
            <p id="code-error" role="alert" className="mt-2 text-sm font-medium text-red-800">
              {error}
            </p>
          ) : null}
        </div>
        <button
          type="submit"
          className="min-h-11 rounded-md bg-stone-900 px-5 py-2 font-semibold text-white hover:bg-stone-700 focus-visible:outline-2 focus-visible:outline-offset-2"
        >
          Voir mes photos
        </button>
      </Form>
    </div>
  );
}

type GalleryData = Extract<Route.ComponentProps["loaderData"], { kind: "gallery" }>;

// The focus ring must show on a white photo as on a black one: a dark outline with a white line inside it.
const tileLinkClass =
  "relative block h-full w-full focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-stone-900 after:pointer-events-none after:absolute after:inset-[3px] after:hidden after:border-2 after:border-white after:content-[''] focus-visible:after:block";

const buttonClass =
  "inline-flex min-h-11 items-center gap-2 rounded-md border border-stone-300 bg-white px-4 py-2 font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60";

// The filter in use stands out (dark), not only for a screen reader (aria-current).
const filterClass = `${buttonClass} aria-[current=page]:border-stone-900 aria-[current=page]:bg-stone-900 aria-[current=page]:text-white aria-[current=page]:hover:bg-stone-800`;

function Gallery({
  gallery,
  photos,
  coverId,
  preview,
  answer,
}: GalleryData & { answer?: ActionAnswer }) {
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
  useThumbhashPlaceholders(gridRef, `${onlyFavourites}-${visible.length}`);

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
      {where === "viewer" && gallery.downloadsAllowed ? (
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
            className="h-full w-full object-cover"
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

      {answer?.error && answer.intent !== "code" ? (
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
          downloadsAllowed={gallery.downloadsAllowed}
          canWrite={canWrite}
          commentError={answer?.intent === "comment" ? answer : undefined}
        />
      ) : (
        <>
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
            {gallery.downloadsAllowed ? (
              <>
                <a href={clientZipPath(gallery.id)} className={buttonClass}>
                  Tout télécharger (ZIP, {gallery.zipSize})
                </a>
                {favouritesCount > 0 ? (
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
                  className={ratioClass(photo.width, photo.height)}
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
                      sizes={tileSizes(photo.width, photo.height)}
                    />
                    <span className="sr-only">
                      {photo.favourite ? " (favori)" : ""}
                      {photo.comment ? " (commentée)" : ""}
                    </span>
                  </a>
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

function SinglePhoto({
  galleryId,
  photo,
  previous,
  next,
  position,
  listUrl,
  actions,
  downloadsAllowed,
  canWrite,
  commentError,
}: {
  canWrite: boolean;
  commentError?: ActionAnswer;
  galleryId: string;
  photo: GalleryTile;
  previous?: GalleryTile;
  next?: GalleryTile;
  position: string;
  listUrl: (photoId?: string) => string;
  actions: ReactNode;
  downloadsAllowed: boolean;
}) {
  return (
    <section aria-label={`Photo ${position}`} className="space-y-4">
      <nav aria-label="Photos" className="flex flex-wrap items-center gap-2">
        <a href={listUrl()} className={buttonClass}>
          Retour à la galerie
        </a>
        {previous ? (
          <a href={listUrl(previous.id)} className={buttonClass}>
            Photo précédente
          </a>
        ) : null}
        <span>
          {position} · {photo.name}
        </span>
        {next ? (
          <a href={listUrl(next.id)} className={buttonClass}>
            Photo suivante
          </a>
        ) : null}
      </nav>
      <GalleryPicture
        galleryId={galleryId}
        photo={photo}
        eager
        fallbackWidth={1600}
        sizes="100vw"
        className="mx-auto max-h-[80vh] w-auto"
      />
      <div className="flex flex-wrap items-center gap-2">
        {actions}
        {downloadsAllowed ? (
          <a href={clientPhotoDownloadPath(galleryId, photo.id)} download className={buttonClass}>
            Télécharger
          </a>
        ) : null}
      </div>
      {canWrite ? (
        // Without JavaScript, the comment's form is here (the dialog needs the script).
        <Form method="post" className="max-w-xl space-y-2">
          <input type="hidden" name="intent" value="comment" />
          <input type="hidden" name="photoId" value={photo.id} />
          <label htmlFor="commentaire" className="block font-medium">
            Commentaire pour le studio
          </label>
          <textarea
            id="commentaire"
            name="comment"
            rows={4}
            maxLength={MAX_COMMENT_LENGTH}
            defaultValue={commentError?.error ? commentError.code : (photo.comment ?? "")}
            aria-invalid={commentError?.error ? true : undefined}
            aria-describedby={commentError?.error ? "commentaire-erreur" : undefined}
            className="w-full rounded-md border border-stone-400 px-3 py-2"
          />
          {commentError?.error ? (
            <p id="commentaire-erreur" role="alert" className="text-sm font-medium text-red-800">
              {commentError.error}
            </p>
          ) : null}
          <button type="submit" className={buttonClass}>
            Enregistrer le commentaire
          </button>
        </Form>
      ) : photo.comment ? (
        <p className="text-stone-700">Votre commentaire : {photo.comment}</p>
      ) : null}
    </section>
  );
}

function HeartIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M12 21s-7.5-4.6-9.6-9.3C1 8.4 3 4.5 6.7 4.5c2.1 0 3.6 1.2 4.3 2.4.7-1.2 2.2-2.4 4.3-2.4 3.7 0 5.7 3.9 4.3 7.2C19.5 16.4 12 21 12 21z"
        fill={filled ? "currentColor" : "none"}
        stroke="currentColor"
        strokeWidth="2"
      />
    </svg>
  );
}

const iconButtonClass =
  "inline-flex h-11 min-w-11 items-center justify-center rounded-full bg-white/90 px-2 text-stone-900 shadow hover:bg-white focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60";

function FavouriteButton({
  photo,
  disabled,
  compact,
}: {
  photo: GalleryTile;
  disabled: boolean;
  compact: boolean;
}) {
  const fetcher = useFetcher<ActionAnswer>({ key: `favourite-${photo.id}` });
  const pending = fetcher.formData?.get("value");
  const favourite = pending !== undefined && pending !== null ? pending === "1" : photo.favourite;
  return (
    <fetcher.Form method="post" className="contents">
      <input type="hidden" name="intent" value="favourite" />
      <input type="hidden" name="photoId" value={photo.id} />
      <input type="hidden" name="value" value={favourite ? "0" : "1"} />
      <button
        type="submit"
        aria-pressed={favourite}
        disabled={disabled}
        aria-label={`Ajouter aux favoris : ${photo.name}`}
        title="Ajouter aux favoris"
        className={compact ? "yarl__button" : `${iconButtonClass} text-rose-700`}
      >
        <HeartIcon filled={favourite} />
      </button>
    </fetcher.Form>
  );
}

function CommentButton({
  photo,
  disabled,
  compact,
}: {
  photo: GalleryTile;
  disabled: boolean;
  compact: boolean;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<ActionAnswer>({ key: `comment-${photo.id}` });
  const error = fetcher.data?.error;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) dialogRef.current?.close();
  }, [fetcher.state, fetcher.data]);
  useEffect(() => {
    // Typing in the dialog must not drive the viewer underneath (arrows change photo, + zooms).
    const dialog = dialogRef.current;
    const stop = (event: KeyboardEvent) => event.stopPropagation();
    dialog?.addEventListener("keydown", stop);
    return () => dialog?.removeEventListener("keydown", stop);
  });
  const hydrated = useHydrated();
  const commented = Boolean(photo.comment);
  if (!hydrated && !compact) {
    // Without JavaScript: the comment form lives on the single-photo page.
    return commented ? (
      <span className={iconButtonClass} title="Commentée">
        <MessageCircle aria-hidden="true" className="size-5" />
        <span className="sr-only">Commentée</span>
      </span>
    ) : null;
  }
  const dialogId = `commentaire-${photo.id}${compact ? "-visionneuse" : ""}`;
  return (
    <>
      <button
        type="button"
        disabled={disabled && !commented}
        aria-haspopup="dialog"
        aria-label={`Commentaire : ${photo.name}${commented ? " (commentée)" : ""}`}
        title="Commentaire"
        onClick={() => dialogRef.current?.showModal()}
        className={compact ? "yarl__button" : iconButtonClass}
      >
        {commented ? (
          <MessageCircle aria-hidden="true" className="size-5" />
        ) : (
          <Pencil aria-hidden="true" className="size-5" />
        )}
      </button>
      <dialog
        ref={dialogRef}
        aria-labelledby={`${dialogId}-titre`}
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg bg-white p-6 text-stone-900 shadow-xl backdrop:bg-black/60"
      >
        <h2 id={`${dialogId}-titre`} className="mb-3 text-xl font-semibold">
          Commentaire sur {photo.name}
        </h2>
        <fetcher.Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="comment" />
          <input type="hidden" name="photoId" value={photo.id} />
          <label htmlFor={`${dialogId}-texte`} className="block font-medium">
            Votre commentaire pour le studio
          </label>
          <textarea
            id={`${dialogId}-texte`}
            name="comment"
            rows={5}
            maxLength={MAX_COMMENT_LENGTH}
            defaultValue={photo.comment ?? ""}
            readOnly={disabled}
            aria-describedby={`${dialogId}-aide${error ? ` ${dialogId}-erreur` : ""}`}
            className="w-full rounded-md border border-stone-400 px-3 py-2"
          />
          <p id={`${dialogId}-aide`} className="text-sm text-stone-600">
            {MAX_COMMENT_LENGTH} caractères au plus. La photo est ajoutée à vos favoris.
          </p>
          {error ? (
            <p id={`${dialogId}-erreur`} role="alert" className="text-sm font-medium text-red-800">
              {error}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <button
              type="button"
              className={buttonClass}
              onClick={() => dialogRef.current?.close()}
            >
              Annuler
            </button>
            {disabled ? null : (
              <button
                type="submit"
                className="min-h-11 rounded-md bg-stone-900 px-4 py-2 font-semibold text-white hover:bg-stone-700"
              >
                Enregistrer
              </button>
            )}
          </div>
        </fetcher.Form>
      </dialog>
    </>
  );
}

function ValidateSelection({ count }: { count: number }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [searchParams] = useSearchParams();
  const question = `Valider ma sélection de ${count} photo${count > 1 ? "s" : ""} ? Vous ne pourrez plus la modifier.`;
  const confirmForm = (
    <Form method="post" className="flex flex-wrap gap-2">
      <input type="hidden" name="intent" value="validate" />
      <button
        type="submit"
        className="min-h-11 rounded-md bg-stone-900 px-4 py-2 font-semibold text-white hover:bg-stone-700"
      >
        Oui, valider ma sélection
      </button>
    </Form>
  );
  if (searchParams.get("valider") === "1") {
    // Without JavaScript: the question on the page itself.
    return (
      <div
        role="group"
        aria-labelledby="valider-question"
        className="w-full rounded-md bg-white p-4 shadow"
      >
        <p id="valider-question" className="mb-3 font-medium">
          {question}
        </p>
        <div className="flex flex-wrap gap-2">
          {confirmForm}
          <Link to="?" className={buttonClass}>
            Annuler
          </Link>
        </div>
      </div>
    );
  }
  return (
    <>
      <Form method="get">
        <input type="hidden" name="valider" value="1" />
        <button
          type="submit"
          disabled={count === 0}
          className="min-h-11 rounded-md bg-stone-900 px-4 py-2 font-semibold text-white hover:bg-stone-700 disabled:cursor-not-allowed disabled:opacity-60"
          onClick={(event) => {
            if (!dialogRef.current) return;
            event.preventDefault();
            dialogRef.current.showModal();
          }}
        >
          Valider ma sélection
        </button>
      </Form>
      <dialog
        ref={dialogRef}
        aria-labelledby="valider-titre"
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg bg-white p-6 text-stone-900 shadow-xl backdrop:bg-black/60"
      >
        <h2 id="valider-titre" className="mb-4 text-lg font-semibold">
          {question}
        </h2>
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={buttonClass} onClick={() => dialogRef.current?.close()}>
            Annuler
          </button>
          {confirmForm}
        </div>
      </dialog>
    </>
  );
}
