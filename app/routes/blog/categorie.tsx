import { ChevronRight } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/categorie";
import type { SiteHandle } from "../site-layout";
import { ArticleGrid } from "~/components/blog/article-card";
import { PageErrorBoundary } from "~/components/error-boundary";
import { Button } from "~/components/ui/button";
import { siteFrom } from "~/lib/public-site";
import { blogFeedLink, breadcrumbStructuredData } from "~/lib/blog-seo";
import { jsonLd, seo, siteUrlFrom } from "~/lib/seo";
export { headers, loader } from "./categorie.server";

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) => {
  if (!loaderData) {
    return [{ title: "Catégorie non trouvée" }, { name: "robots", content: "noindex" }];
  }
  const siteUrl = siteUrlFrom(matches);
  const { category } = loaderData;
  const path = `/blog/categorie/${params.slug}`;
  return seo({
    title: `${category.name} - Blog ${siteFrom(matches).brand}`,
    description:
      category.description ||
      `Tous nos articles « ${category.name} » : conseils, coulisses et inspiration photographique.`,
    path,
    matches,
    extra: [
      blogFeedLink(siteFrom(matches).brand),
      jsonLd(
        breadcrumbStructuredData(siteUrl, [
          { name: "Accueil", path: "/" },
          { name: "Blog", path: "/blog" },
          { name: category.name, path },
        ]),
      ),
    ],
  });
};

export default function BlogCategory({ loaderData }: Route.ComponentProps) {
  const { category, articles } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 pt-28 pb-20 sm:px-6">
      <nav aria-label="Fil d'Ariane">
        <ol className="flex flex-wrap items-center gap-1 text-sm text-muted-foreground">
          <li>
            <Link to="/" className="hover:text-foreground hover:underline">
              Accueil
            </Link>
          </li>
          <li aria-hidden="true">
            <ChevronRight className="size-4" />
          </li>
          <li>
            <Link to="/blog" className="hover:text-foreground hover:underline">
              Blog
            </Link>
          </li>
          <li aria-hidden="true">
            <ChevronRight className="size-4" />
          </li>
          <li aria-current="page" className="font-semibold text-foreground">
            {category.name}
          </li>
        </ol>
      </nav>

      <header className="mt-8 max-w-3xl">
        <h1 className="text-4xl font-bold sm:text-5xl">{category.name}</h1>
        {category.description ? (
          <p className="mt-4 text-lg text-muted-foreground">{category.description}</p>
        ) : null}
      </header>

      <div className="mt-12">
        {articles.length > 0 ? (
          <ArticleGrid articles={articles} eagerFirst />
        ) : (
          <div className="rounded-2xl bg-muted px-6 py-16 text-center">
            <p className="text-lg text-muted-foreground">
              Aucun article dans cette catégorie pour le moment
            </p>
            <Button asChild variant="outline" className="mt-6">
              <Link to="/blog">Voir tous les articles</Link>
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const back = (
    <Button asChild>
      <Link to="/blog">Voir tous les articles</Link>
    </Button>
  );

  return (
    <PageErrorBoundary
      error={error}
      notFound={{
        title: "Catégorie non trouvée",
        description: "Cette catégorie n'existe pas ou a été supprimée.",
      }}
      failure="La catégorie n'a pas pu être affichée. Veuillez réessayer."
      action={back}
    />
  );
}
