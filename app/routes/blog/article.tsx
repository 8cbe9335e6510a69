import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/article";
import type { SiteHandle } from "../site-layout";
import { ArticleGrid } from "~/components/blog/article-card";
import { ArticleView } from "~/components/blog/article-view";
import { ShareButtons } from "~/components/blog/share-buttons";
import { NewsletterSignup } from "~/components/newsletter/newsletter-signup";
import { PageErrorBoundary } from "~/components/error-boundary";
import { Button } from "~/components/ui/button";
import {
  blogFeedLink,
  blogPostingStructuredData,
  breadcrumbStructuredData,
  shareImageOf,
} from "~/lib/blog-seo";
import { jsonLd, seo, siteUrlFrom } from "~/lib/seo";
import { siteFrom } from "~/lib/public-site";
export { action, headers, loader } from "./article.server";

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) => {
  const siteUrl = siteUrlFrom(matches);
  const site = siteFrom(matches);
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
    matches,
    image,
    type: "article",
    extra: [
      blogFeedLink(site.brand),
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
        blogPostingStructuredData(
          siteUrl,
          {
            ...article,
            image,
            categoryName: article.category?.name ?? null,
          },
          site,
        ),
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

export default function BlogArticle({ loaderData }: Route.ComponentProps) {
  const { article, related, canonicalUrl } = loaderData;
  return (
    <div className="pt-18">
      <ArticleView
        article={article}
        top={
          <Link
            to="/blog"
            className="inline-flex items-center gap-2 text-sm font-semibold text-muted-foreground hover:text-foreground"
          >
            <ArrowLeft aria-hidden="true" className="size-4" />
            Retour au blog
          </Link>
        }
        share={
          <ShareButtons
            url={canonicalUrl}
            className="lg:absolute lg:top-10 lg:-left-24 lg:h-full lg:flex-col"
          />
        }
      />

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
  const back = (
    <Button asChild>
      <Link to="/blog">
        <ArrowLeft aria-hidden="true" />
        Retour au blog
      </Link>
    </Button>
  );

  return (
    <PageErrorBoundary
      error={error}
      notFound={{
        title: "Article non trouvé",
        description: "Cet article n'existe pas ou n'est plus publié.",
      }}
      failure="L'article n'a pas pu être affiché. Veuillez réessayer."
      action={back}
    />
  );
}
