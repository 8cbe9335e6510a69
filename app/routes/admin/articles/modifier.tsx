import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Link } from "react-router";
import type { Route } from "./+types/modifier";
import { ArticleForm } from "~/components/blog-admin/article-form";
import { ArticleSendingLink } from "~/components/blog-admin/article-sending-link";
import { RevisionHistory } from "~/components/admin/revision-history";
import { useServerToast } from "~/components/ui/server-toast";
import { parisDateTimeInputValue } from "~/lib/dates";

export { action, loader } from "./modifier.server";

export const meta: Route.MetaFunction = () => [{ title: "Modifier l'article - Administration" }];

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
