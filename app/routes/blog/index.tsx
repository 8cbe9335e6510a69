import { ChevronLeft, ChevronRight, Search } from "lucide-react";
import { Form, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/index";
import { ArticleGrid } from "~/components/blog/article-card";
import { NewsletterSignup } from "~/components/newsletter/newsletter-signup";
import { buttonVariants } from "~/components/ui/button";
import { blogFeedLink } from "~/lib/blog-seo";
import { PageErrorBoundary } from "~/components/error-boundary";
import { siteFrom, useSite } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { cn } from "~/lib/utils";
import { elides } from "~/lib/french";
import { MAX_SEARCH_LENGTH } from "~/lib/blog-search";
export { action, headers, loader } from "./index.server";

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) => {
  if (error) return [{ title: "Page introuvable" }, { name: "robots", content: "noindex" }];
  const page = loaderData?.page ?? 1;
  const site = siteFrom(matches);
  const tags = seo({
    title: `Blog - ${site.brand} | Conseils et Actualités Photo`,
    description:
      "Conseils pour préparer votre séance photo, coulisses de nos studios d'Ussel, Brive et Limoges, et inspiration : naissance, grossesse, famille, mariage.",
    path: page > 1 ? `/blog?page=${page}` : "/blog",
    matches,
    extra: [blogFeedLink(site.brand)],
  });
  // Search results are not pages of their own for search engines.
  return loaderData?.q ? [...tags, { name: "robots", content: "noindex, follow" }] : tags;
};

/** The address of the list with some parameters changed (a change of filter passes `page: null`). */
function listHref(current: URLSearchParams, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes)) {
    if (value) params.set(key, value);
    else params.delete(key);
  }
  const search = params.toString();
  return search ? `/blog?${search}` : "/blog";
}

/*
 * The blog is a light page (decision 0137): only the server renders it. The search is a GET form (Enter
 * sends it), the categories and the pager are links; each answer is a new page.
 */

export default function Blog({ loaderData }: Route.ComponentProps) {
  const site = useSite();
  const { categories, articles, q, categorie, page, pageCount, hasNext } = loaderData;
  const [searchParams] = useSearchParams();

  return (
    <>
      <section className="bg-gradient-to-b from-stone-950 via-stone-900 to-stone-800 pt-36 pb-16 text-center text-white">
        <div className="mx-auto max-w-4xl px-4 sm:px-6">
          <h1 className="text-4xl leading-tight font-bold sm:text-5xl">
            {elides(site.brand) ? "Le Blog d'" : "Le Blog de "}
            <span className="text-gold">{site.brand}</span>
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-stone-200">
            Conseils, coulisses et inspiration photographique
          </p>
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
        <SearchBox term={q} categorie={categorie} />

        <nav aria-label="Catégories" className="mt-6">
          <ul className="flex flex-wrap justify-center gap-2">
            {[{ id: "tous", name: "Tous", slug: "" }, ...categories].map((category) => {
              const active = category.slug === categorie;
              return (
                <li key={category.id}>
                  <Link
                    to={listHref(searchParams, { categorie: category.slug || null, page: null })}
                    aria-current={active ? "page" : undefined}
                    className={cn(
                      "inline-block rounded-full border px-4 py-2 text-sm font-semibold transition-colors",
                      active
                        ? "border-stone-900 bg-stone-900 text-white"
                        : "border-border bg-white text-foreground hover:bg-muted",
                    )}
                  >
                    {category.name}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        <div className="mt-10">
          {articles.length === 0 ? (
            <p className="py-16 text-center text-lg text-muted-foreground">Aucun article trouvé</p>
          ) : (
            <ArticleGrid articles={articles} eagerFirst />
          )}
        </div>

        {page > 1 || hasNext ? (
          <nav aria-label="Pagination" className="mt-12 flex items-center justify-center gap-4">
            {page > 1 ? (
              <Link
                to={listHref(searchParams, { page: page > 2 ? String(page - 1) : null })}
                className={buttonVariants({ variant: "outline" })}
              >
                <ChevronLeft aria-hidden="true" />
                Précédent
              </Link>
            ) : null}
            <span className="text-sm font-semibold" aria-current="page">
              {pageCount !== null && page <= pageCount
                ? `Page ${page} sur ${pageCount}`
                : `Page ${page}`}
            </span>
            {hasNext ? (
              <Link
                to={listHref(searchParams, { page: String(page + 1) })}
                className={buttonVariants({ variant: "outline" })}
              >
                Suivant
                <ChevronRight aria-hidden="true" />
              </Link>
            ) : null}
          </nav>
        ) : null}

        <NewsletterSignup source="blog" className="mt-20" />
      </div>
    </>
  );
}

/** A real GET form: Enter sends it, and the answer is the list for that term (decision 0137). */
function SearchBox({ term, categorie }: { term: string; categorie: string }) {
  return (
    <Form method="get" action="/blog" role="search" className="mx-auto max-w-xl">
      <label htmlFor="recherche-blog" className="sr-only">
        Rechercher un article
      </label>
      {/* The field before its icon: a first paint of the HTML parsed so far never draws the icon alone. */}
      <div className="relative">
        <input
          id="recherche-blog"
          type="search"
          name="q"
          defaultValue={term}
          maxLength={MAX_SEARCH_LENGTH}
          placeholder="Rechercher un article..."
          className="h-12 w-full rounded-full border border-border bg-white pr-5 pl-12 shadow-sm placeholder:text-stone-500"
        />
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-muted-foreground"
        />
      </div>
      {categorie ? <input type="hidden" name="categorie" value={categorie} /> : null}
    </Form>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const back = (
    <Link to="/blog" className={buttonVariants()}>
      Voir les derniers articles
    </Link>
  );

  return (
    <PageErrorBoundary
      error={error}
      notFound={{
        title: "Page introuvable",
        description: "Cette page du blog n'existe pas : il y a moins d'articles que cela.",
      }}
      failure="Le blog n'a pas pu être affiché. Veuillez réessayer."
      action={back}
    />
  );
}
