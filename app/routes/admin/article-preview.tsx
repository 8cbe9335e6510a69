import { Link } from "react-router";
import type { Route } from "./+types/article-preview";
import { UploadedPicture } from "~/components/ui/uploaded-picture";
import { formatDateFr } from "~/lib/dates";
import { getArticleForAdmin } from "~/server/admin/articles.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { sanitizeArticleHtml } from "~/server/sanitize.server";
import { redirectWithToast } from "~/server/toast.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Aperçu : ${loaderData?.article.title ?? "article"} - Administration` },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const article = /^[0-9a-f-]{36}$/i.test(params.id) ? await getArticleForAdmin(params.id) : null;
  if (!article) {
    throw await redirectWithToast("/admin/dashboard", {
      type: "error",
      title: "Erreur",
      description: "Impossible de charger l'article",
    });
  }
  return { article: { ...article, content: sanitizeArticleHtml(article.content) } };
}

const bodyStyles =
  "mt-8 space-y-4 text-lg leading-relaxed [&_a]:text-gold-dark [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-gold [&_blockquote]:pl-4 [&_blockquote]:italic [&_h2]:mt-8 [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:mt-6 [&_h3]:text-xl [&_h3]:font-semibold [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-xl [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6";

/** A draft as it will look once published, visible to administrators only. */
export default function ArticlePreview({ loaderData }: Route.ComponentProps) {
  const { article } = loaderData;
  return (
    <div className="space-y-6">
      <div
        role="status"
        className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
      >
        <p>
          <strong>Aperçu</strong> — {article.published ? "article publié" : "brouillon non publié"},
          visible des seuls administrateurs.
        </p>
        <Link
          to={`/admin/articles/${article.id}/modifier`}
          className="font-semibold underline underline-offset-4"
        >
          Modifier l'article
        </Link>
      </div>
      <article className="mx-auto max-w-3xl rounded-xl bg-white p-5 sm:p-10">
        {article.category ? (
          <p className="text-sm font-semibold text-gold-dark">{article.category.name}</p>
        ) : null}
        <h1 className="mt-2 text-4xl font-bold">{article.title}</h1>
        <p className="mt-3 text-muted-foreground">
          {formatDateFr(article.publishedAt ?? new Date())} · Par {article.author}
        </p>
        {article.coverImageUrl ? (
          <UploadedPicture
            src={article.coverImageUrl}
            sizes="(min-width: 768px) 768px, 100vw"
            alt=""
            className="mt-6 aspect-[1200/630] w-full rounded-2xl object-cover"
          />
        ) : null}
        <div className={bodyStyles} dangerouslySetInnerHTML={{ __html: article.content }} />
      </article>
    </div>
  );
}
