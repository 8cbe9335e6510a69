import { data, redirect } from "react-router";
import { bookingStudioPath } from "~/lib/booking/urls";
import {
  acceptedDepositMethods,
  askedDepositOf,
  depositUnpayable,
  sessionTypeUnpayableWarning,
} from "~/lib/booking/deposit";
import {
  applyQuestionIntent,
  newSessionTypeValues,
  parseSessionTypeForm,
  sessionTypeFormValues,
  SESSION_TYPE_HISTORY_LABELS,
  SESSION_TYPES_PAGE,
  type SessionTypeValue,
} from "~/lib/booking/session-type-form";
import { formValues, isUuid, type FormAnswer } from "~/lib/forms";
import type { PaymentMethod } from "~/lib/payments/model";
import type { ToastMessage } from "~/lib/toast";
import {
  findSessionType,
  renewPrivateToken,
  restoreSessionType,
  saveSessionType,
  SessionTypeError,
  sessionTypeSubject,
  sessionTypeValue,
  type SessionTypeRow,
} from "./session-type-store.server";
import { listLibrary } from "../content/media-store.server";
import { listStudios, loadDocument } from "../content/content-store.server";
import { createSessionTypePreview, previewHref } from "../content/preview.server";
import { loadRevisionHistory, type RevisionHistoryData } from "../content/revision-history.server";
import { failedForm, invalidForm } from "../forms.server";
import { unprintableFields } from "../pdf/printable.server";
import { log } from "../logger.server";
import { redirectWithToast } from "../toast.server";
import { authorOf } from "../content/studios-admin.server";
import { requireAdmin } from "../admin/guard.server";

/*
 * The session type form's loader and action, shared by /admin/reservations/seances/nouvelle and
 * /admin/reservations/seances/:id (decision 0116): « Enregistrer » saves it with its revision, the questions'
 * buttons give the form back with its list changed (nothing saved, without JavaScript), and an earlier
 * version can be seen and restored.
 */

/**
 * The addresses of a private type's link, one per studio offering it: its page of free days, the secret as
 * `lien` (the visitor's booking pages, `bookingDaysPath` of app/lib/booking/urls.ts, read it there).
 */
export function privateLinkPaths(
  type: { slug: string; privateToken: string | null; studioIds: readonly string[] },
  studios: readonly { id: string; slug: string; name: string }[],
): { studioName: string; path: string }[] {
  const token = type.privateToken;
  if (!token) return [];
  return studios
    .filter((studio) => type.studioIds.includes(studio.id))
    .map((studio) => ({
      studioName: studio.name,
      path: `/reserver/${studio.slug}/${type.slug}?lien=${encodeURIComponent(token)}`,
    }));
}

export type SessionTypeFormLoaderData = {
  sessionType: {
    id: string;
    name: string;
    archived: boolean;
    privateLinks: { studioName: string; path: string }[];
    /** Its deposit no way of paying the owner takes now can pay (decision 0186): it books online no more. */
    unpayableWarning: ReturnType<typeof sessionTypeUnpayableWarning> | null;
  } | null;
  values: Record<string, string>;
  studios: { id: string; slug: string; name: string }[];
  photos: { value: string; label: string }[];
  history: RevisionHistoryData;
};

async function formChoices() {
  const [studios, library] = await Promise.all([listStudios(), listLibrary()]);
  return {
    studios: studios
      .filter((studio) => studio.retiredAt === null)
      .map((studio) => ({ id: studio.id, slug: studio.slug, name: studio.data.name })),
    photos: library.map((photo) => ({
      value: photo.id,
      label: photo.demo ? `${photo.alt} (démonstration)` : photo.alt,
    })),
  };
}

/** The history of a type: each save, and the version asked for with its studios' booking pages as it was. */
function sessionTypeHistory(
  id: string,
  request: Request,
  studios: readonly { id: string; slug: string; name: string }[],
) {
  return loadRevisionHistory(sessionTypeSubject(id), request, {
    labels: SESSION_TYPE_HISTORY_LABELS,
    normalize: (value) => value,
    previews: (revisionId, value) =>
      studios
        .filter((studio) => (value as SessionTypeValue).studioIds.includes(studio.id))
        .map((studio) => ({
          label: `Voir la page Réserver du ${studio.name} avec cette version`,
          href: previewHref(bookingStudioPath(studio.slug), revisionId),
        })),
  });
}

export async function loadSessionTypeForm(
  request: Request,
  id: string | null,
): Promise<SessionTypeFormLoaderData> {
  await requireAdmin(request);
  const choices = await formChoices();
  if (id === null) {
    return {
      sessionType: null,
      values: newSessionTypeValues(choices.studios.map((studio) => studio.id)),
      ...choices,
      history: { revisions: [], viewed: null, changedSince: false },
    };
  }
  const row = await findSessionType(id);
  if (!row) {
    throw await redirectWithToast(SESSION_TYPES_PAGE, {
      type: "error",
      title: "Séance introuvable",
      description: "Cette séance n'existe pas ou plus.",
    });
  }
  const payments = await loadDocument("payments");
  return {
    sessionType: describe(row, choices.studios, acceptedDepositMethods(payments)),
    values: sessionTypeFormValues(sessionTypeValue(row)),
    ...choices,
    history: await sessionTypeHistory(row.id, request, choices.studios),
  };
}

function describe(
  row: SessionTypeRow,
  studios: readonly { id: string; slug: string; name: string }[],
  accepted: readonly PaymentMethod[],
) {
  const rule = askedDepositOf(row.deposit);
  return {
    id: row.id,
    name: row.name,
    archived: row.archivedAt !== null,
    privateLinks: row.visibility === "private" ? privateLinkPaths(row, studios) : [],
    // As on her payment settings (unpayableDepositWarnings): an archived type is not offered anyway.
    unpayableWarning:
      row.archivedAt === null && rule && depositUnpayable(rule, accepted)
        ? sessionTypeUnpayableWarning(rule)
        : null,
  };
}

export async function sessionTypeFormAction(request: Request, id: string | null) {
  const admin = await requireAdmin(request);
  const author = authorOf(admin);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "save");
  const current = id === null ? null : await findSessionType(id);
  if (id !== null && !current) return data({ error: "Séance inconnue" }, { status: 404 });
  const here = current ? `${SESSION_TYPES_PAGE}/${current.id}` : `${SESSION_TYPES_PAGE}/nouvelle`;

  if (intent === "restore" && current) {
    const revision = formData.get("revision");
    const restored = isUuid(revision) && (await restoreSessionType(current.id, revision, author));
    return redirectWithToast(
      here,
      restored
        ? { type: "success", title: "Version restaurée", description: "Elle est en service." }
        : { type: "error", title: "Erreur", description: "Cette version n'existe pas." },
    );
  }

  if (intent === "renew-link" && current) {
    const renewed = current.visibility === "private" && (await renewPrivateToken(current.id));
    return redirectWithToast(
      here,
      renewed
        ? {
            type: "success",
            title: "Nouveau lien privé",
            description: "L'ancien lien ne fonctionne plus : donnez le nouveau à vos clients.",
          }
        : { type: "error", title: "Cette séance n'est pas privée" },
    );
  }

  const values = formValues(formData, ["intent", "revision"]);
  if (intent !== "save" && intent !== "preview") {
    const changed = applyQuestionIntent(values, intent);
    if (!changed) return data({ error: "Action inconnue" }, { status: 400 });
    return data<FormAnswer>({ status: "more", values: changed });
  }

  const choices = await formChoices();
  // A studio retired since keeps its place in a type that offers it (its box is not shown, so it is kept).
  const keptRetired = (current?.studioIds ?? []).filter(
    (studioId) => !choices.studios.some((studio) => studio.id === studioId),
  );
  const parsed = parseSessionTypeForm(values, {
    studioIds: choices.studios.map((studio) => studio.id),
    photoIds: choices.photos.map((photo) => photo.value),
  });
  if (!parsed.ok) return invalidForm(values, parsed.errors);
  // Its name is on the lines of its deposits' and balances' invoices, immutable once issued.
  const unprintable = await unprintableFields({ name: parsed.value.name }, "la facture");
  if (unprintable.name) return invalidForm(values, unprintable);
  const value = { ...parsed.value, studioIds: [...parsed.value.studioIds, ...keptRetired] };

  if (intent === "preview") {
    // The booking page of the first studio offering it, with this unsaved version in place (a new tab).
    const studio = choices.studios.find((candidate) => value.studioIds.includes(candidate.id));
    if (!studio) return invalidForm(values, { studios: "Cochez au moins un studio" });
    const previewId = await createSessionTypePreview(current?.id ?? null, value, author);
    return redirect(previewHref(bookingStudioPath(studio.slug), previewId));
  }

  try {
    const savedId = await saveSessionType(current?.id ?? null, value, author);
    const toast: ToastMessage = {
      type: "success",
      title: current ? "Séance enregistrée" : "Séance créée",
      description:
        value.visibility === "private"
          ? "Elle se réserve par son lien privé, affiché en haut de la page."
          : "Elle est proposée à la réservation dans les studios cochés.",
    };
    return redirectWithToast(`${SESSION_TYPES_PAGE}/${savedId}`, toast);
  } catch (error) {
    if (error instanceof SessionTypeError)
      return invalidForm(values, { [error.field]: error.message });
    log.error("admin_session_type_save_failed", { error });
    return failedForm(values, {
      type: "error",
      title: "Erreur",
      description: "Impossible d'enregistrer la séance. Réessayez dans un instant.",
    });
  }
}
