import type { ReactNode } from "react";
import { Form } from "react-router";
import { clientPhotoDownloadPath } from "~/lib/gallery-urls";
import type { ActionAnswer } from "./client-answer";
import { buttonClass } from "./client-classes";
import { GalleryPicture } from "./gallery-picture";
import type { GalleryTile } from "../../lib/gallery-photo-urls";
import { MAX_COMMENT_LENGTH } from "../../lib/gallery-texts";

/** One photo a page, for a browser without JavaScript (?photo={id}): previous, next, ♥, comment, download. */
export function SinglePhoto({
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
