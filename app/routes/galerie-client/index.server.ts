import { data, redirect } from "react-router";
import type { Route } from "./+types/index";
import type { ActionAnswer } from "~/components/gallery/client-answer";
import type { GalleryTile } from "~/lib/gallery-photo-urls";
import { MAX_COMMENT_LENGTH } from "~/lib/gallery-texts";
import { formatDateFr, formatLongDateTimeFr } from "~/lib/dates";
import { isUuid } from "~/lib/forms";
import { formatSize } from "~/lib/sizes";
import { clientGalleryPath } from "~/lib/gallery-urls";
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
  lockedMessage,
  setComment,
  setFavourite,
  touchClientActivity,
  validateSelection,
} from "~/server/galleries/client.server";
import { studioContact } from "~/server/galleries/emails.server";

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
    formatSize(list.reduce((total, photo) => total + photo.bytes, 0));
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
  });
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
