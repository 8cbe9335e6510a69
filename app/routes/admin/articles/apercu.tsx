import { Link } from "react-router";
import type { Route } from "./+types/apercu";
import { ArticleView } from "~/components/blog/article-view";
import { formatLongDateTimeFr } from "~/lib/dates";

export { loader } from "./apercu.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Aperçu : ${loaderData?.article.title ?? "article"} - Administration` },
];

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
