import type { Route } from "./+types/modifier";
import { isUuid } from "~/lib/forms";
import {
  articleHistory,
  restoreArticleAction,
  saveArticle,
} from "~/server/blog/article-form.server";
import {
  getArticleForAdmin,
  getArticleSending,
  listCategoryOptions,
} from "~/server/blog/admin-articles.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  try {
    const article = isUuid(params.id) ? await getArticleForAdmin(params.id) : null;
    if (!article) throw new Error("article introuvable");
    const [categories, sending, history] = await Promise.all([
      listCategoryOptions(),
      getArticleSending(article.id),
      articleHistory(article, request),
    ]);
    return { article, categories, sending, history };
  } catch (error) {
    log.warn("admin_article_load_failed", { error, id: params.id });
    throw await redirectWithToast("/admin/dashboard", {
      type: "error",
      title: "Erreur",
      description: "Impossible de charger l'article",
    });
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  if (!isUuid(params.id)) return new Response("Article inconnu", { status: 404 });
  const formData = await request.formData();
  if (formData.get("intent") === "restore") {
    return restoreArticleAction(params.id, formData.get("revision"), admin);
  }
  return saveArticle(formData, params.id, admin);
}
