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

/**
 * The article form's action for both pages: 400 with field errors and everything typed on a refusal,
 * a field message for a slug in use, 'Impossible de sauvegarder l'article' on a failure (values kept),
 * and the dashboard with 'Article créé' / 'Article mis à jour' on success.
 */
export async function saveArticle(request: Request, id: string | null) {
  const formData = await request.formData();
  const values = formValues(formData);
  const parsed = articleSchema.safeParse(values);
  if (!parsed.success) {
    return data<ArticleActionData>({ values, errors: fieldErrors(parsed.error) }, { status: 400 });
  }
  try {
    if (id === null) {
      await createArticle(parsed.data);
      return redirectWithToast("/admin/dashboard", { type: "success", title: "Article créé" });
    }
    if (!(await updateArticle(id, parsed.data))) throw new Error("article introuvable");
    return redirectWithToast("/admin/dashboard", { type: "success", title: "Article mis à jour" });
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
