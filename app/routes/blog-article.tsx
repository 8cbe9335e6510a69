import { ArrowLeft } from "lucide-react";
import { data, isRouteErrorResponse, Link, type ShouldRevalidateFunction } from "react-router";
import { isbot } from "isbot";
import type { Route } from "./+types/blog-article";
import type { SiteHandle } from "./site-layout";
import { ArticleGrid } from "~/components/blog/article-card";
import { ShareButtons } from "~/components/blog/share-buttons";
import { NewsletterSignup } from "~/components/newsletter/newsletter-signup";
import { Button } from "~/components/ui/button";
import {
  blogLinks,
  blogPageHeaders,
  NOT_FOUND_INIT,
  blogPostingStructuredData,
  breadcrumbStructuredData,
  shareImageOf,
} from "~/lib/blog-seo";
import { formatDateFr } from "~/lib/dates";
import { jsonLd, seo, siteUrlFrom } from "~/lib/seo";
import { cn } from "~/lib/utils";
import { countArticleView } from "~/server/article-views.server";
import { findPublishedArticle, listRelatedArticles } from "~/server/articles.server";
import { onEveryServe } from "~/server/context";
import { env } from "~/server/env.server";
import { handleNewsletterSubmission } from "~/server/newsletter.server";
import { sanitizeArticleHtml } from "~/server/sanitize.server";
import { UploadedPicture } from "~/components/ui/uploaded-picture";

export const handle: SiteHandle = { solidHeader: true };

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const article = await findPublishedArticle(params.slug);
  if (!article) throw data(null, NOT_FOUND_INIT);

  // A person's visit counts one view, also when the page cache serves the page again; crawlers' do not.
  onEveryServe(context, request, ({ userAgent }) => {
    if (!isbot(userAgent)) countArticleView(article.id);
  });

  const related = await listRelatedArticles(article);
  return {
    article: { ...article, content: sanitizeArticleHtml(article.content) },
    related,
    canonicalUrl: `${env().SITE_URL}/blog/${article.slug}`,
  };
}

// Signing up to the newsletter must not reload the article (nor count another view).
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  defaultShouldRevalidate,
}) => (formMethod && formMethod.toUpperCase() !== "GET" ? false : defaultShouldRevalidate);

export const action = ({ request, context }: Route.ActionArgs) =>
  handleNewsletterSubmission(request, context);

export const headers = blogPageHeaders;
export const links = blogLinks;

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) => {
  const siteUrl = siteUrlFrom(matches);
  if (!loaderData) {
    return [{ title: "Article non trouvé" }, { name: "robots", content: "noindex" }];
  }
  const { article } = loaderData;
  const image = shareImageOf(article);
  const path = `/blog/${params.slug}`;
  const publishedTime = article.publishedAt ? new Date(article.publishedAt).toISOString() : null;
  return seo({
    title: article.seoTitle || article.title,
    description: article.seoDescription || article.excerpt,
    path,
    siteUrl,
    image,
    type: "article",
    extra: [
      ...(publishedTime ? [{ property: "article:published_time", content: publishedTime }] : []),
      {
        property: "article:modified_time",
        content: new Date(article.updatedAt).toISOString(),
      },
      { property: "article:author", content: article.author },
      ...(article.category
        ? [{ property: "article:section", content: article.category.name }]
        : []),
      jsonLd(
        blogPostingStructuredData(siteUrl, {
          ...article,
          image,
          categoryName: article.category?.name ?? null,
        }),
      ),
      jsonLd(
        breadcrumbStructuredData(siteUrl, [
          { name: "Accueil", path: "/" },
          { name: "Blog", path: "/blog" },
          ...(article.category
            ? [{ name: article.category.name, path: `/blog/categorie/${article.category.slug}` }]
            : []),
          { name: article.title, path },
        ]),
      ),
    ],
  });
};

/** Typography of the sanitised body (no typography plugin: the few rules an article needs). */
const bodyClass = cn(
  "mt-10 text-lg leading-relaxed text-stone-800",
  "[&_h2]:mt-10 [&_h2]:text-3xl [&_h2]:font-bold [&_h3]:mt-8 [&_h3]:text-2xl [&_h3]:font-semibold",
  "[&_h4]:mt-6 [&_h4]:text-xl [&_h4]:font-semibold [&_p]:mt-5",
  "[&_ul]:mt-5 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:mt-5 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:mt-2",
  "[&_a]:font-medium [&_a]:text-gold-dark [&_a]:underline [&_a]:underline-offset-2",
  "[&_blockquote]:mt-6 [&_blockquote]:border-l-4 [&_blockquote]:border-gold [&_blockquote]:pl-5 [&_blockquote]:italic",
  "[&_img]:mt-6 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-xl [&_figcaption]:mt-2 [&_figcaption]:text-center [&_figcaption]:text-sm [&_figcaption]:text-muted-foreground",
  "[&_pre]:mt-6 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-stone-900 [&_pre]:p-4 [&_pre]:text-sm [&_pre]:text-stone-100",
  "[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-muted [&_:not(pre)>code]:px-1.5 [&_:not(pre)>code]:text-base",
  "[&_table]:mt-6 [&_table]:w-full [&_table]:border-collapse [&_table]:text-base [&_td]:border [&_td]:border-border [&_td]:p-2 [&_th]:border [&_th]:border-border [&_th]:bg-muted [&_th]:p-2 [&_th]:text-left",
  "[&_hr]:my-10 [&_hr]:border-border",
);

export default function BlogArticle({ loaderData }: Route.ComponentProps) {
  const { article, related, canonicalUrl } = loaderData;
  return (
    <div className="pt-18">
      <article className="mx-auto max-w-5xl px-4 py-10 sm:px-6 lg:py-14">
        <Link
          to="/blog"
          className="inline-flex items-center gap-2 text-sm font-semibold text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Retour au blog
        </Link>

        {article.coverImageUrl ? (
          <UploadedPicture
            src={article.coverImageUrl}
            sizes="(min-width: 1280px) 1216px, 100vw"
            alt=""
            width={1200}
            height={630}
            fetchPriority="high"
            className="mt-6 aspect-[1200/630] w-full rounded-2xl object-cover shadow-sm"
          />
        ) : null}

        <header className="mx-auto mt-8 max-w-3xl">
          {article.category ? (
            <Link
              to={`/blog/categorie/${article.category.slug}`}
              className="inline-block rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-gold-dark hover:bg-amber-200"
            >
              {article.category.name}
            </Link>
          ) : null}
          <h1 className="mt-4 text-4xl leading-tight font-bold sm:text-5xl">{article.title}</h1>
          <p className="mt-4 flex flex-wrap gap-x-3 text-muted-foreground">
            {article.publishedAt ? (
              <time dateTime={new Date(article.publishedAt).toISOString()}>
                {formatDateFr(article.publishedAt)}
              </time>
            ) : null}
            <span aria-hidden="true">·</span>
            <span>Par {article.author}</span>
          </p>
        </header>

        <div className="relative mx-auto mt-6 max-w-3xl lg:mt-0">
          <ShareButtons
            url={canonicalUrl}
            className="lg:absolute lg:top-10 lg:-left-24 lg:h-full lg:flex-col"
          />
          <div
            className={bodyClass}
            // Sanitised by the allowlist on write and again in this route's loader.
            dangerouslySetInnerHTML={{ __html: article.content }}
          />
        </div>
      </article>

      {related.length > 0 ? (
        <section aria-labelledby="articles-similaires" className="bg-muted py-16">
          <div className="mx-auto max-w-7xl px-4 sm:px-6">
            <h2 id="articles-similaires" className="text-center text-3xl font-bold">
              Articles similaires
            </h2>
            <div className="mt-10">
              <ArticleGrid articles={related} headingLevel="h3" />
            </div>
          </div>
        </section>
      ) : null}

      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
        <NewsletterSignup source="article" />
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="flex min-h-[70vh] flex-col items-center justify-center px-6 pt-28 pb-16 text-center">
      <h1 className="text-4xl font-bold">
        {notFound ? "Article non trouvé" : "Une erreur est survenue"}
      </h1>
      <p className="mt-4 max-w-md text-muted-foreground">
        {notFound
          ? "Cet article n'existe pas ou n'est plus publié."
          : "L'article n'a pas pu être affiché. Veuillez réessayer."}
      </p>
      <Button asChild className="mt-8">
        <Link to="/blog">
          <ArrowLeft aria-hidden="true" />
          Retour au blog
        </Link>
      </Button>
    </section>
  );
}
