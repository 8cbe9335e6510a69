import { data } from "react-router";
import { STYLE_GALLERIES, type StyleGalleryKey } from "~/content/schemas";
import { applyListIntent, STYLE_DOCUMENT_PREFIX, styleGalleryForm } from "~/lib/document-forms";
import { type FieldErrors, flatten, formValues, parseNestedForm, unflatten } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import type { AdminUser } from "../admin/guard.server";
import { redirectWithToast } from "../toast.server";
import { ContentError, loadDocument, saveDocument } from "./content-store.server";
import { authorOf } from "./document-form.server";

/**
 * The form of one style gallery (/admin/medias/emplacements, decision 0070): its photos, each a
 * title and a photo of the library, added (« Ajouter une photo »), removed, moved and retitled. The list
 * buttons answer the form changed, nothing saved; « Enregistrer » saves the gallery into the page photos
 * document (a revision keeps the previous one, so a removal is undone from the history). Each form posts
 * `document=style:{gallery}`, which tells the page's forms apart.
 */

export function styleGalleryOf(document: FormDataEntryValue | null): StyleGalleryKey | null {
  if (typeof document !== "string" || !document.startsWith(STYLE_DOCUMENT_PREFIX)) return null;
  const key = document.slice(STYLE_DOCUMENT_PREFIX.length);
  return Object.hasOwn(STYLE_GALLERIES, key) ? (key as StyleGalleryKey) : null;
}

export type StyleGalleryAnswer = {
  document: string;
  values: Record<string, string>;
  errors: FieldErrors;
  nonce: string;
  message?: ToastMessage;
};

function answer(
  gallery: StyleGalleryKey,
  values: Record<string, string>,
  errors: FieldErrors = {},
  status = 200,
  message?: ToastMessage,
) {
  return data<StyleGalleryAnswer>(
    {
      document: `${STYLE_DOCUMENT_PREFIX}${gallery}`,
      values,
      errors,
      nonce: crypto.randomUUID(),
      ...(message ? { message } : {}),
    },
    { status },
  );
}

export async function styleGalleryAction(
  formData: FormData,
  gallery: StyleGalleryKey,
  admin: AdminUser,
  page: string,
) {
  const intent = String(formData.get("intent") ?? "save");
  const omit = ["intent", "document"];
  const changed = applyListIntent(unflatten(formValues(formData, omit)), intent);
  if (changed) return answer(gallery, flatten(changed));
  if (intent !== "save") return data({ error: "Action inconnue" }, { status: 400 });

  const parsed = parseNestedForm(formData, styleGalleryForm, { omit });
  if (!parsed.ok) {
    return answer(gallery, parsed.values, parsed.errors, 400, {
      type: "error",
      title: "Rien n'est enregistré",
      description: "Corrigez les champs signalés en rouge, puis enregistrez à nouveau.",
    });
  }
  try {
    const value = await loadDocument("pagePhotos");
    value.galleries[gallery] = parsed.data.photos;
    await saveDocument(
      "pagePhotos",
      value,
      authorOf(admin),
      `${STYLE_GALLERIES[gallery]} (${parsed.data.photos.length} photo${parsed.data.photos.length > 1 ? "s" : ""})`,
    );
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    return answer(gallery, parsed.values, {}, 400, {
      type: "error",
      title: "Rien n'est enregistré",
      description: error.message,
    });
  }
  return redirectWithToast(page, {
    type: "success",
    title: "Galerie enregistrée",
    description: STYLE_GALLERIES[gallery],
  });
}
