import type { Route } from "./+types/brouillon";
import { articleDraftSchema } from "~/lib/admin-schemas";
import { formValues, isUuid, parseForm } from "~/lib/forms";
import {
  ArticlePublishedError,
  saveDraft,
  SlugTakenError,
  UnknownCategoryError,
} from "~/server/blog/admin-articles.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { log } from "~/server/logger.server";

const notSaved = (reason: string, status: number, errors?: Record<string, string | undefined>) =>
  Response.json(
    { error: "Brouillon non enregistré", reason, ...(errors ? { errors } : {}) },
    { status },
  );

/**
 * The article form's autosave (resource route, the form's fields plus `id` once the draft exists, and the
 * new-article visit's `draft_session`): saves a draft, never publishes, never touches a published
 * article. Answers `{ id, savedAt, slug }` (the address may differ from the one sent, decision 0111), with
 * `merged: true` when a new visit's save went into her unfinished draft of the same title (decision 0130),
 * or 4xx with the reason in French. The form's own buttons still go through the full validation.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request, { resource: true });
  let values: Record<string, string>;
  try {
    values = formValues(await request.formData());
  } catch {
    return notSaved("Le formulaire n'a pas pu être lu.", 400);
  }
  const { id = "", intent: _intent, draft_session: session = "", ...fields } = values;
  if (id !== "" && !isUuid(id)) return notSaved("Article inconnu.", 404);
  if (session !== "" && !isUuid(session)) return notSaved("Le formulaire n'a pas pu être lu.", 400);
  const parsed = parseForm(fields, articleDraftSchema);
  if (!parsed.ok) {
    return notSaved(Object.values(parsed.errors)[0] ?? "Données invalides", 400, parsed.errors);
  }
  try {
    const saved = await saveDraft(id === "" ? null : id, parsed.data, {
      session: session === "" ? null : session,
      by: admin.id,
    });
    if (!saved) return notSaved("Article inconnu.", 404);
    const merged = "merged" in saved && saved.merged;
    return Response.json(
      {
        id: saved.id,
        savedAt: saved.updatedAt.toISOString(),
        slug: saved.slug,
        ...(merged ? { merged } : {}),
      },
      { status: id === "" && !merged ? 201 : 200 },
    );
  } catch (error) {
    if (error instanceof ArticlePublishedError) {
      return notSaved(
        "L'article est publié : ses modifications ne sont enregistrées que par le bouton « Enregistrer ».",
        409,
      );
    }
    if (error instanceof SlugTakenError) {
      return notSaved("Ce slug est déjà utilisé par un autre article", 409, {
        slug: "Ce slug est déjà utilisé par un autre article",
      });
    }
    if (error instanceof UnknownCategoryError) {
      return notSaved("Cette catégorie n'existe plus", 409, {
        category_id: "Cette catégorie n'existe plus",
      });
    }
    log.error("admin_article_autosave_failed", { error });
    return notSaved("Erreur du serveur pendant l'enregistrement.", 500);
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  return new Response("Méthode non autorisée", { status: 405, headers: { Allow: "POST" } });
}
