import { data, redirect } from "react-router";
import { DAYS, studioDataSchema, type StudioData } from "~/content/schemas";
import { formValues, isUuid, type FormAnswer } from "~/lib/forms";
import {
  closureRowCount,
  hoursField,
  MAX_CLOSURES,
  parseStudioForm,
  studioFormValues,
  STUDIO_HISTORY_LABELS,
} from "~/lib/studio-form";
import {
  ContentError,
  listStudios,
  restoreStudio,
  saveStudio,
  studioSubject,
  type Author,
} from "./content-store.server";
import { onlineBookingRefusal, publicBookingLink } from "./go-live-booking.server";
import { createStudioPreview, previewHref } from "./preview.server";
import { env } from "../env.server";
import { loadRevisionHistory, type RevisionHistoryData } from "./revision-history.server";
import { studioPaths } from "./site-content.server";
import { moveRow } from "../db/reorder.server";
import { unprintableFields } from "../pdf/printable.server";
import { failedForm, invalidForm } from "../forms.server";
import { log } from "../logger.server";
import { redirectWithToast } from "../toast.server";
import { requireAdmin, type AdminUser } from "../admin/guard.server";

/**
 * The studio form's loader and action, shared by /admin/studios/nouveau and /admin/studios/:id (decision
 * 0070): one form for every field of a studio; « Enregistrer » saves it (with its revision),
 * « Prévisualiser » shows the public page with the unsaved values, « Ajouter une fermeture » gives one
 * more closure row (keeping what was typed, without JavaScript), and each earlier version can be restored.
 */

export const authorOf = (admin: AdminUser): Author => ({
  id: admin.id,
  name: admin.name || admin.email,
});

/** What a new studio's form starts with. */
export function newStudioValues(): Record<string, string> {
  const values: Record<string, string> = {
    telephone: "required",
    sources: ["Bouche-à-oreille", "Google", "Facebook", "Instagram", "Autre"].join("\n"),
    closureCount: "1",
  };
  for (const day of DAYS) values[hoursField(day)] = "";
  return values;
}

export type StudioFormLoaderData = {
  studio: { id: string; slug: string; name: string; retired: boolean; pagePath: string } | null;
  /** With online booking on: the studio's public booking page and its QR code (decision 0127). */
  bookingLink: { url: string; qrCode: string } | null;
  values: Record<string, string>;
  history: RevisionHistoryData;
};

export async function loadStudioForm(
  request: Request,
  id: string | null,
): Promise<StudioFormLoaderData> {
  await requireAdmin(request);
  if (id === null) {
    return {
      studio: null,
      bookingLink: null,
      values: newStudioValues(),
      history: { revisions: [], viewed: null, changedSince: false },
    };
  }
  const studio = isUuid(id) ? (await listStudios()).find((row) => row.id === id) : undefined;
  if (!studio) {
    throw await redirectWithToast("/admin/studios", {
      type: "error",
      title: "Studio introuvable",
      description: "Ce studio n'existe pas ou plus.",
    });
  }
  const history = await studioHistory(studio.id, request);
  return {
    studio: {
      id: studio.id,
      slug: studio.slug,
      name: studio.data.name,
      retired: studio.retiredAt !== null,
      pagePath: studioPaths(studio.slug).pagePath,
    },
    bookingLink:
      studio.data.onlineBooking && !studio.retiredAt
        ? await publicBookingLink(env().SITE_URL, studio.slug)
        : null,
    values: studioFormValues(studio.slug, studio.data),
    history,
  };
}

/** The history of a studio: each save, and the version asked for with a link to its page as it was. */
function studioHistory(id: string, request: Request) {
  return loadRevisionHistory(studioSubject(id), request, {
    labels: STUDIO_HISTORY_LABELS,
    normalize: (value) => {
      const { slug, ...data } = value as { slug: string };
      return { slug, ...studioDataSchema.parse(data) };
    },
    previews: (revisionId, value) => [
      {
        label: "Voir la page du studio avec cette version",
        href: previewHref(studioPaths((value as { slug: string }).slug).pagePath, revisionId),
      },
    ],
  });
}

export async function studioFormAction(request: Request, id: string | null) {
  const admin = await requireAdmin(request);
  const author = authorOf(admin);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "save");
  const all = await listStudios();
  const current = id === null ? null : all.find((row) => row.id === id);
  if (id !== null && !current) return data({ error: "Studio inconnu" }, { status: 404 });
  const here = id === null ? "/admin/studios/nouveau" : `/admin/studios/${id}`;

  if (intent === "restore" && current) {
    const revision = formData.get("revision");
    const restored = isUuid(revision) && (await restoreStudio(current.id, revision, author));
    return redirectWithToast(
      here,
      restored
        ? { type: "success", title: "Version restaurée", description: "Elle est en ligne." }
        : { type: "error", title: "Erreur", description: "Cette version n'existe pas." },
    );
  }

  const values = formValues(formData, ["intent", "revision"]);
  if (intent === "add-closure") {
    const rows = Math.min(closureRowCount(values) + 1, MAX_CLOSURES);
    return data<FormAnswer>({
      status: "more",
      values: { ...values, closureCount: String(rows) },
    });
  }
  if (intent !== "save" && intent !== "preview") {
    return data({ error: "Action inconnue" }, { status: 400 });
  }

  const firstPhoto = all[0]?.data.photo;
  const previous: StudioData | null = current?.data ?? null;
  if (!firstPhoto) throw new Error("no studio to take a photo from");
  const parsed = parseStudioForm(values, previous, firstPhoto);
  if (!parsed.ok) return invalidForm(values, parsed.errors);
  // Every gift voucher valid at this studio prints its name, address and phone (decision 0164): what the
  // PDF's fonts cannot draw is refused here, not when a paid voucher is drawn and cannot be.
  const unprintable = await unprintableFields(
    {
      name: parsed.data.name,
      street: parsed.data.address.street,
      addressCity: parsed.data.address.city,
      phone: parsed.data.phone,
    },
    "le bon",
  );
  if (Object.keys(unprintable).length > 0) return invalidForm(values, unprintable);

  // Never on without a session to book and someone to take it (decision 0127): say what is missing.
  if (intent === "save" && parsed.data.onlineBooking) {
    const refusal = await onlineBookingRefusal(id);
    if (refusal) return invalidForm(values, { onlineBooking: refusal });
  }

  if (intent === "preview") {
    const previewId = await createStudioPreview(
      { id, slug: parsed.slug, data: parsed.data },
      author,
    );
    return redirect(previewHref(studioPaths(parsed.slug).pagePath, previewId));
  }

  try {
    const savedId = await saveStudio(id, parsed.slug, parsed.data, author);
    return redirectWithToast(`/admin/studios/${savedId}`, {
      type: "success",
      title: id === null ? "Studio créé" : "Studio enregistré",
      description: "Ses pages sont à jour sur le site.",
    });
  } catch (error) {
    if (error instanceof ContentError) {
      const field = /adresse/.test(error.message) ? "slug" : "form";
      return invalidForm(values, { [field]: error.message });
    }
    log.error("admin_studio_save_failed", { error });
    return failedForm(values, {
      type: "error",
      title: "Erreur",
      description: "Impossible d'enregistrer le studio. Réessayez dans un instant.",
    });
  }
}

/** Moves a studio one place up or down in the menus; false when it cannot move. */
export function moveStudio(id: string, direction: "up" | "down"): Promise<boolean> {
  return moveRow("studios", id, direction);
}
