import { data } from "react-router";
import { articleSchema } from "~/lib/admin-schemas";
import { type FieldErrors, fieldErrors, formValues } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { log } from "../logger.server";
import { redirectWithToast } from "../toast.server";
import {
  createArticle,
  SlugTakenError,
  UnknownCategoryError,
  updateArticle,
} from "./articles.server";

export type ArticleActionData = {
  values: Record<string, string>;
  errors?: FieldErrors;
  toast?: ToastMessage;
};

const isUuid = (value: string | undefined): value is string =>
  value !== undefined &&
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

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
  const { intent, ...values } = formValues(formData);
  const publish = intent === "publish";
  const parsed = articleSchema.safeParse(values);
  if (!parsed.success) {
    return data<ArticleActionData>({ values, errors: fieldErrors(parsed.error) }, { status: 400 });
  }
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
      return data<ArticleActionData>(
        { values, errors: { slug: "Ce slug est déjà utilisé par un autre article" } },
        { status: 400 },
      );
    }
    if (error instanceof UnknownCategoryError) {
      return data<ArticleActionData>(
        { values, errors: { category_id: "Cette catégorie n'existe plus" } },
        { status: 400 },
      );
    }
    log.error("admin_article_save_failed", { error });
    return data<ArticleActionData>(
      {
        values,
        toast: {
          type: "error",
          title: "Erreur",
          description: "Impossible de sauvegarder l'article",
        },
      },
      { status: 500 },
    );
  }
}
