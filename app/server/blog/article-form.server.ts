import { articleSchema } from "~/lib/admin-schemas";
import { ARTICLE_REVISION_FIELDS, articleSubject } from "~/lib/article-revision";
import { formatLongDateTimeFr } from "~/lib/dates";
import { isUuid, parseForm } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { failedForm, invalidForm } from "../forms.server";
import { log } from "../logger.server";
import type { CreateSendingOutcome } from "../newsletter/sending.server";
import { authorOf } from "../content/document-form.server";
import { loadRevisionHistory } from "../content/revision-history.server";
import { redirectWithToast } from "../toast.server";
import type { AdminUser } from "../admin/guard.server";
import {
  type AdminArticle,
  createArticle,
  findSessionDraft,
  restoreArticle,
  type SavedArticle,
  SlugTakenError,
  UnknownCategoryError,
  updateArticle,
} from "./admin-articles.server";

/** What became of the newsletter asked for at publication, in the owner's words. */
export function sendingNotice(sending: CreateSendingOutcome | null): string | undefined {
  if (!sending) return undefined;
  switch (sending.kind) {
    case "created":
      return `Envoi aux abonnés en cours : ${sending.total} ${sending.total > 1 ? "e-mails" : "e-mail"}.`;
    case "no-subscribers":
      return "Aucun abonné confirmé : aucun e-mail n'est parti.";
    case "already-sent":
      return "L'article a déjà été envoyé aux abonnés : il ne l'est pas une seconde fois.";
    default:
      return undefined;
  }
}

/** The dashboard's message after a save: SPEC's title, and what happens to the publication. */
function savedToast(
  saved: SavedArticle,
  { publish, created, typedSlug }: { publish: boolean; created: boolean; typedSlug: string },
) {
  const moved = saved.movedToSlug
    ? `Adresse de l'article : /blog/${saved.movedToSlug} (/blog/${typedSlug} est celle d'un brouillon enregistré automatiquement).`
    : undefined;
  const description = (notice: string | undefined) =>
    [moved, notice].filter(Boolean).join(" ") || undefined;
  if (publish) {
    return {
      type: "success",
      title: "Article publié",
      description: description(sendingNotice(saved.sending)),
    } satisfies ToastMessage;
  }
  return {
    type: "success",
    title: created ? "Article créé" : "Article mis à jour",
    description: description(
      saved.scheduledAt
        ? `Publication programmée le ${formatLongDateTimeFr(saved.scheduledAt)}.`
        : saved.unscheduled
          ? "Publication déprogrammée : l'article reste un brouillon."
          : undefined,
    ),
  } satisfies ToastMessage;
}

/**
 * The article form's action for both pages: 400 with field errors and everything typed on a refusal,
 * a field message for a slug in use, 'Impossible de sauvegarder l'article' on a failure (values kept),
 * and the dashboard with 'Article créé' / 'Article mis à jour' / 'Article publié' on success.
 * `intent=publish` ('Publier') saves and publishes now (and sends the newsletter when the box is ticked);
 * any other intent saves, and schedules a draft's publication when a time is given. On the new-article
 * page, a draft the autosave already created (field `id`, else the visit's `draft_session` when the
 * autosave's answer never came back) is updated instead of creating a second one, and an address held by
 * an unfinished autosaved draft gives way to the next free one (decision 0111).
 */
export async function saveArticle(formData: FormData, id: string | null, admin: AdminUser) {
  const adminId = admin.id;
  const parsed = parseForm(formData, articleSchema);
  const { intent: _intent, ...values } = parsed.values;
  if (!parsed.ok) return invalidForm(values, parsed.errors);
  const publish = parsed.data.intent === "publish";
  const session = id === null && isUuid(values.draft_session) ? values.draft_session : null;
  try {
    const draftId =
      id ?? (isUuid(values.id) ? values.id : session ? await findSessionDraft(session) : null);
    const options = {
      publish,
      by: adminId,
      author: authorOf(admin),
      yieldToAutosavedDrafts: id === null,
    };
    const typedSlug = parsed.data.slug;
    if (draftId === null) {
      const saved = await createArticle(parsed.data, options);
      return redirectWithToast(
        "/admin/dashboard",
        savedToast(saved, { publish, created: true, typedSlug }),
      );
    }
    const saved = await updateArticle(draftId, parsed.data, options);
    if (!saved) throw new Error("article introuvable");
    return redirectWithToast(
      "/admin/dashboard",
      savedToast(saved, { publish, created: id === null, typedSlug }),
    );
  } catch (error) {
    if (error instanceof SlugTakenError) {
      return invalidForm(values, { slug: "Ce slug est déjà utilisé par un autre article" });
    }
    if (error instanceof UnknownCategoryError) {
      return invalidForm(values, { category_id: "Cette catégorie n'existe plus" });
    }
    log.error("admin_article_save_failed", { error });
    return failedForm(values, {
      type: "error",
      title: "Erreur",
      description: "Impossible de sauvegarder l'article",
    });
  }
}

/**
 * The history of an article on its page (decision 0114): each save with the form and what it changed,
 * and the version asked for (`?version=`) with what bringing it back would change, compared with the
 * article as it is now (a draft's autosave included), and its preview.
 */
export function articleHistory(article: AdminArticle, request: Request) {
  const current = Object.fromEntries(
    ARTICLE_REVISION_FIELDS.map((field) => [field, article[field]]),
  );
  return loadRevisionHistory(articleSubject(article.id), request, {
    normalize: (data) => ({ ...current, ...(data as object) }),
    current,
    html: ["content"],
    previews: (revisionId) => [
      {
        label: "Voir l'article avec cette version",
        href: `/admin/articles/${article.id}/apercu?version=${revisionId}`,
      },
    ],
  });
}

/** « Restaurer cette version » on an article's page: back to the page with a toast saying how it went. */
export async function restoreArticleAction(
  id: string,
  revision: FormDataEntryValue | null,
  admin: AdminUser,
) {
  const page = `/admin/articles/${id}/modifier`;
  const restored = isUuid(revision) ? await restoreArticle(id, revision, authorOf(admin)) : false;
  if (restored === null) {
    return redirectWithToast("/admin/dashboard", {
      type: "error",
      title: "Erreur",
      description: "Impossible de charger l'article",
    });
  }
  return redirectWithToast(
    page,
    restored
      ? {
          type: "success",
          title: "Version restaurée",
          description: "L'article a repris le texte de cette version.",
        }
      : {
          type: "error",
          title: "Version introuvable",
          description: "Cette version n'existe plus : rechargez la page.",
        },
  );
}
