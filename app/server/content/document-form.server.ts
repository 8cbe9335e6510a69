import { data, redirect } from "react-router";
import type { z } from "zod";
import { type DocumentKey, documentSchemas, type Documents } from "~/content/schemas";
import { applyListIntent, type FormDocumentKey } from "~/lib/document-forms";
import {
  type FieldErrors,
  flatten,
  formValues,
  isUuid,
  parseNestedForm,
  unflatten,
} from "~/lib/forms";
import { IDENTITY_HISTORY_LABELS } from "~/lib/identity-form";
import { PAYMENT_HISTORY_LABELS } from "~/lib/payments/settings-form";
import type { HistoryLabels } from "~/lib/revision-changes";
import type { ToastMessage } from "~/lib/toast";
import type { AdminUser } from "../admin/guard.server";
import { log } from "../logger.server";
import { redirectWithToast } from "../toast.server";
import {
  ContentError,
  documentAtRevision,
  documentSubject,
  restoreDocument,
  saveDocument,
  type Author,
} from "./content-store.server";
import { createDocumentPreview, previewHref } from "./preview.server";
import { loadRevisionHistory } from "./revision-history.server";

/**
 * The action of an admin form that edits one document (decision 0070). The form posts its
 * fields by path (`tabs.0.cards.3.price`) and a button's `intent`:
 * - `save`: validates, saves (a revision keeps it), back to the page with a toast;
 * - `preview:/tarifs`: validates, stores the unsaved value and opens the public page with it;
 * - `add:…`, `remove:…`, `up:…`, `down:…`: the form again with its list changed, nothing saved;
 * - `restore` (with `revision`): an earlier version back online.
 * Refusals answer the typed values with French messages at the fields.
 */

export type DocumentFormAnswer = {
  document: FormDocumentKey;
  values: Record<string, string>;
  errors: FieldErrors;
  /** A new one for each answer: the form is drawn again from `values`. */
  nonce: string;
  message?: ToastMessage;
};

export type DocumentFormOptions<K extends FormDocumentKey> = {
  key: K;
  schema: z.ZodType;
  /** The stored value from the form's output (and the stored value, for what the form does not edit). */
  build: (parsed: never, stored: Documents[K]) => Documents[K];
  load: () => Promise<Documents[K]>;
  /** Checks that need the database (a studio that exists…): errors by field name, or none. */
  check?: (value: Documents[K]) => Promise<FieldErrors>;
  /** The public pages a preview may open. */
  previewPaths: readonly string[];
  /** The admin page, where a save goes back to. */
  page: string;
  savedTitle: string;
};

export const authorOf = (admin: AdminUser): Author => ({
  id: admin.id,
  name: admin.name || admin.email,
});

function answer(
  key: FormDocumentKey,
  values: Record<string, string>,
  errors: FieldErrors = {},
  status = 200,
  message?: ToastMessage,
) {
  return data<DocumentFormAnswer>(
    { document: key, values, errors, nonce: crypto.randomUUID(), ...(message ? { message } : {}) },
    { status },
  );
}

const CHECK_FIELDS: ToastMessage = {
  type: "error",
  title: "Rien n'est enregistré",
  description: "Corrigez les champs signalés en rouge, puis enregistrez à nouveau.",
};

/** The public pages showing each document, where its earlier versions can be seen. */
const DOCUMENT_PAGES: Record<DocumentKey, ReadonlyArray<{ label: string; path: string }>> = {
  identity: [{ label: "la page d'accueil", path: "/" }],
  legal: [{ label: "les mentions légales", path: "/mentions-legales" }],
  prices: [{ label: "la page Tarifs", path: "/tarifs" }],
  gendarmerie: [{ label: "la page Gendarmerie", path: "/gendarmerie" }],
  giftSessions: [{ label: "la page Séances à offrir", path: "/seances-a-offrir" }],
  testimonials: [
    { label: "la page Gendarmerie", path: "/gendarmerie" },
    { label: "la page Portrait & Famille", path: "/portrait-famille" },
    { label: "la page Grossesse", path: "/prestations/grossesse" },
  ],
  pagePhotos: [{ label: "la page d'accueil", path: "/" }],
  gallery: [{ label: "la Galerie", path: "/galerie" }],
  // No public page shows them yet: /bons-cadeaux will (decision 0162).
  payments: [],
};

/** What a document's history calls its fields, when its form has a field table (decision 0152). */
const HISTORY_LABELS: Partial<Record<DocumentKey, HistoryLabels>> = {
  identity: IDENTITY_HISTORY_LABELS,
  payments: PAYMENT_HISTORY_LABELS,
};

/**
 * The history of a document as its page shows it: each save and what it changed, and the version
 * `request` asks to see (`?version=`), with links to the public pages showing it.
 */
export function documentHistory(key: DocumentKey, request: Request) {
  return loadRevisionHistory(documentSubject(key), request, {
    normalize: (data) => documentSchemas[key].parse(data),
    labels: HISTORY_LABELS[key],
    previews: (revisionId) =>
      DOCUMENT_PAGES[key].map((page) => ({
        label: `Voir ${page.label} avec cette version`,
        href: previewHref(page.path, revisionId),
      })),
  });
}

/**
 * What a restored version must pass, by document: a check its page's save makes and that the history may
 * hold versions from before (the seller's details every invoice prints).
 */
export type RestoreChecks = {
  [K in FormDocumentKey]?: (value: Documents[K]) => Promise<FieldErrors>;
};

/** A field's message (« Enregistrez d'abord vos clés Stripe ») as a sentence of a toast. */
const asSentence = (message: string) => (/[.!?…]$/.test(message) ? message : `${message}.`);

/**
 * Restores `revision` of one of `keys` (the one it belongs to), unless it fails its document's check in
 * `checks`; a toast says how it went.
 */
export async function restoreAction(
  keys: readonly FormDocumentKey[],
  revision: FormDataEntryValue | null,
  admin: AdminUser,
  page: string,
  checks: RestoreChecks = {},
) {
  if (isUuid(revision)) {
    for (const key of keys) {
      const check = checks[key] as
        ((value: Documents[typeof key]) => Promise<FieldErrors>) | undefined;
      if (check) {
        // A version saved before a check existed may hold what a save now refuses: it stays in the
        // history, and what is online does not change.
        const value = await documentAtRevision(key, revision);
        const errors = value
          ? Object.values(await check(value)).filter((error) => error !== undefined)
          : [];
        if (errors.length > 0) {
          return redirectWithToast(page, {
            type: "error",
            title: "Version non restaurée",
            description: `${errors.map(asSentence).join(" ")} La version en ligne n'a pas changé.`,
          });
        }
      }
      if (await restoreDocument(key, revision, authorOf(admin))) {
        return redirectWithToast(page, {
          type: "success",
          title: "Version restaurée",
          description: "Cette version est de nouveau en ligne.",
        });
      }
    }
  }
  return redirectWithToast(page, {
    type: "error",
    title: "Version introuvable",
    description: "Cette version n'existe plus : rechargez la page.",
  });
}

export async function documentFormAction<K extends FormDocumentKey>(
  formData: FormData,
  admin: AdminUser,
  options: DocumentFormOptions<K>,
) {
  const { key } = options;
  const intent = String(formData.get("intent") ?? "save");
  if (intent === "restore") {
    // A version of the history passes the check a save of it would (a page's check reads the site as it
    // is now: cards need keys, a card its session type).
    const checks: RestoreChecks = options.check ? { [key]: options.check } : {};
    return restoreAction([key], formData.get("revision"), admin, options.page, checks);
  }
  const omit = ["intent", "document", "revision"];

  const changed = applyListIntent(unflatten(formValues(formData, omit)), intent);
  if (changed) return answer(key, flatten(changed));

  const previewPath = intent.startsWith("preview:") ? intent.slice("preview:".length) : null;
  if (intent !== "save" && (previewPath === null || !options.previewPaths.includes(previewPath))) {
    return data({ error: "Action inconnue" }, { status: 400 });
  }

  const parsed = parseNestedForm(formData, options.schema, { omit });
  const { values } = parsed;
  if (!parsed.ok) return answer(key, values, parsed.errors, 400, CHECK_FIELDS);
  try {
    const stored = await options.load();
    const value = documentSchemas[key].parse(
      options.build(parsed.data as never, stored),
    ) as Documents[K];
    const errors = (await options.check?.(value)) ?? {};
    if (Object.keys(errors).length > 0) return answer(key, values, errors, 400, CHECK_FIELDS);
    const author = authorOf(admin);
    if (previewPath !== null) {
      const id = await createDocumentPreview(key, value, author);
      return redirect(previewHref(previewPath, id));
    }
    await saveDocument(key, value, author);
    return redirectWithToast(options.page, { type: "success", title: options.savedTitle });
  } catch (error) {
    if (error instanceof ContentError) {
      return answer(key, values, {}, 400, {
        type: "error",
        title: "Rien n'est enregistré",
        description: error.message,
      });
    }
    log.error("admin_document_save_failed", { error, key });
    return answer(key, values, {}, 500, {
      type: "error",
      title: "Erreur",
      description: "Impossible d'enregistrer : réessayez dans un instant.",
    });
  }
}
