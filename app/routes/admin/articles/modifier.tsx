import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Link } from "react-router";
import type { Route } from "./+types/modifier";
import { ArticleForm } from "~/components/blog-admin/article-form";
import { ArticleSendingLink } from "~/components/blog-admin/article-sending-link";
import { RevisionHistory } from "~/components/admin/revision-history";
import { useServerToast } from "~/components/ui/server-toast";
import { parisDateTimeInputValue } from "~/lib/dates";
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

export const meta: Route.MetaFunction = () => [{ title: "Modifier l'article - Administration" }];

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

export default function EditArticle({ loaderData, actionData }: Route.ComponentProps) {
  const { article, categories, sending, history } = loaderData;
  useServerToast(actionData?.toast);
  const values = actionData?.values ?? {
    id: article.id,
    title: article.title,
    slug: article.slug,
    excerpt: article.excerpt,
    content: article.content,
    author: article.author,
    category_id: article.categoryId ?? "",
    cover_image_url: article.coverImageUrl ?? "",
    cover_focal_x: String(article.coverFocalX),
    cover_focal_y: String(article.coverFocalY),
    seo_image_url: article.seoImageUrl ?? "",
    seo_title: article.seoTitle ?? "",
    seo_description: article.seoDescription ?? "",
    scheduled_at: article.scheduledAt ? parisDateTimeInputValue(article.scheduledAt) : "",
    newsletter_on_publish: article.newsletterOnPublish ? "on" : "",
  };
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader
        title="Modifier l'article"
        actions={
          <>
            <ArticleSendingLink article={article} sending={sending} />
            <Link
              to={
                article.published ? `/blog/${article.slug}` : `/admin/articles/${article.id}/apercu`
              }
              className="inline-flex min-h-9 items-center text-sm underline underline-offset-4"
            >
              {article.published ? "Voir l'article publié" : "Aperçu du brouillon"}
            </Link>
          </>
        }
      />
      <ArticleForm
        // A restore brings a new version: the fields start again from it.
        key={`${article.id}-${history.revisions[0]?.id ?? ""}`}
        mode="edit"
        published={article.published}
        categories={categories}
        values={values}
        errors={actionData?.errors}
        alert={actionData?.toast}
      />
      <RevisionHistory history={history} title="Historique de l'article" />
    </div>
  );
}
