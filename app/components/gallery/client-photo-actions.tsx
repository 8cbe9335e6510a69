import { useEffect, useRef } from "react";
import { MessageCircle, Pencil } from "lucide-react";
import { Form, Link, useFetcher, useSearchParams } from "react-router";
import { useHydrated } from "~/lib/use-hydrated";
import type { ActionAnswer } from "./client-answer";
import { buttonClass } from "./client-classes";
import type { GalleryTile } from "../../lib/gallery-photo-urls";
import { MAX_COMMENT_LENGTH } from "../../lib/gallery-texts";

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

export function FavouriteButton({
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

export function CommentButton({
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

export function ValidateSelection({ count }: { count: number }) {
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
