import { Link } from "react-router";
import type { Route } from "./+types/apercu";
import { ArticleView } from "~/components/blog/article-view";
import { isUuid } from "~/lib/forms";
import { formatLongDateTimeFr } from "~/lib/dates";
import { getArticleForAdmin, loadArticleVersion } from "~/server/blog/admin-articles.server";
import { VERSION_PARAM } from "~/server/content/revision-history.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { sanitizeArticleHtml } from "~/server/sanitize.server";
import { redirectWithToast } from "~/server/toast.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Aperçu : ${loaderData?.article.title ?? "article"} - Administration` },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const article = isUuid(params.id) ? await getArticleForAdmin(params.id) : null;
  if (!article) {
    throw await redirectWithToast("/admin/dashboard", {
      type: "error",
      title: "Erreur",
      description: "Impossible de charger l'article",
    });
  }
  // « Voir l'article avec cette version » in its history: that version's texts and photos in place.
  const versionId = new URL(request.url).searchParams.get(VERSION_PARAM);
  const version = isUuid(versionId) ? await loadArticleVersion(article.id, versionId) : null;
  // A draft has no publication date yet: it shows today's, as it would if published now.
  return {
    article: {
      ...article,
      ...version?.data,
      content: sanitizeArticleHtml(version?.data.content ?? article.content),
      publishedAt: article.publishedAt ?? new Date(),
    },
    versionDate: version ? version.createdAt.toISOString() : null,
  };
}

/** A draft exactly as it will look once published (the public page's component), for administrators. */
export default function ArticlePreview({ loaderData }: Route.ComponentProps) {
  const { article, versionDate } = loaderData;
  return (
    <div className="space-y-6">
      <div
        role="status"
        className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
      >
        <p>
          <strong>Aperçu</strong> —{" "}
          {versionDate ? (
            <>
              la version du <time dateTime={versionDate}>{formatLongDateTimeFr(versionDate)}</time>
              {article.published ? " de cet article publié" : " de ce brouillon"}
            </>
          ) : article.published ? (
            "article publié"
          ) : (
            "brouillon non publié"
          )}
          , visible des seuls administrateurs.
        </p>
        <Link
          to={`/admin/articles/${article.id}/modifier`}
          className="font-semibold underline underline-offset-4"
        >
          Modifier l'article
        </Link>
      </div>
      <div className="rounded-xl bg-white">
        <ArticleView article={article} />
      </div>
    </div>
  );
}
