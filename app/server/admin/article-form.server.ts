import { articleSchema } from "~/lib/admin-schemas";
import { isUuid, parseForm } from "~/lib/forms";
import { failedForm, invalidForm } from "../forms.server";
import { log } from "../logger.server";
import { redirectWithToast } from "../toast.server";
import {
  createArticle,
  SlugTakenError,
  UnknownCategoryError,
  updateArticle,
} from "./articles.server";

/**
 * The article form's action for both pages: 400 with field errors and everything typed on a refusal,
 * a field message for a slug in use, 'Impossible de sauvegarder l'article' on a failure (values kept),
 * and the dashboard with 'Article créé' / 'Article mis à jour' / 'Article publié' on success.
 * `intent=publish` ('Publier') saves and publishes; any other intent saves without changing the
 * publication. On the new-article page, a draft the autosave already created (field `id`) is updated
 * instead of creating a second article.
 */
export async function saveArticle(request: Request, id: string | null) {
  const formData = await request.formData();
  const publish = formData.get("intent") === "publish";
  const parsed = parseForm(formData, articleSchema, { omit: ["intent"] });
  const { values } = parsed;
  if (!parsed.ok) return invalidForm(values, parsed.errors);
  const draftId = id ?? (isUuid(values.id) ? values.id : null);
  try {
    const published = { type: "success", title: "Article publié" } as const;
    if (draftId === null) {
      await createArticle(parsed.data, { publish });
      return redirectWithToast(
        "/admin/dashboard",
        publish ? published : { type: "success", title: "Article créé" },
      );
    }
    if (!(await updateArticle(draftId, parsed.data, { publish }))) {
      throw new Error("article introuvable");
    }
    return redirectWithToast(
      "/admin/dashboard",
      publish
        ? published
        : { type: "success", title: id === null ? "Article créé" : "Article mis à jour" },
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
