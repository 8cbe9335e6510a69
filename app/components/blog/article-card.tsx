import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { UploadedPicture } from "~/components/ui/uploaded-picture";
import { formatDateFr } from "~/lib/dates";
import type { ArticleCard as ArticleCardData } from "~/server/blog/articles.server";

type ArticleCardProps = {
  article: ArticleCardData;
  /** Heading level of the card's title within the page. */
  headingLevel?: "h2" | "h3";
  /** The card is at the top of the page: its cover is the likely LCP element, so load it at once. */
  eager?: boolean;
};

/** One article in a grid (SPEC §2): cover, category, title, excerpt, date, 'Lire la suite'. */
export function ArticleCard({
  article,
  headingLevel: Heading = "h2",
  eager = false,
}: ArticleCardProps) {
  const href = `/blog/${article.slug}`;
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-white shadow-sm transition-shadow focus-within:shadow-lg hover:shadow-lg">
      <div className="aspect-[16/10] overflow-hidden bg-muted">
        {article.coverImageUrl ? (
          <UploadedPicture
            src={article.coverImageUrl}
            sizes="(min-width: 1024px) 384px, (min-width: 768px) 50vw, 100vw"
            alt=""
            width={1200}
            height={750}
            loading={eager ? "eager" : "lazy"}
            fetchPriority={eager ? "high" : undefined}
            decoding="async"
            focalPoint={{ x: article.coverFocalX, y: article.coverFocalY }}
            className="h-full w-full object-cover transition-transform duration-500 group-hover:scale-105"
          />
        ) : null}
      </div>
      <div className="flex flex-1 flex-col p-6">
        {article.category ? (
          <p className="mb-3">
            <span className="inline-block rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-gold-dark">
              {article.category.name}
            </span>
          </p>
        ) : null}
        <Heading className="line-clamp-2 text-xl leading-snug font-semibold">
          {article.title}
        </Heading>
        <p className="mt-3 line-clamp-3 flex-1 text-sm text-muted-foreground">{article.excerpt}</p>
        <div className="mt-5 flex items-center justify-between gap-4 text-sm">
          {article.publishedAt ? (
            <time
              dateTime={new Date(article.publishedAt).toISOString()}
              className="text-muted-foreground"
            >
              {formatDateFr(article.publishedAt)}
            </time>
          ) : (
            <span />
          )}
          <Link
            to={href}
            className="inline-flex min-h-11 items-center gap-1 rounded-sm font-semibold text-gold-dark after:absolute after:inset-0 group-hover:underline"
          >
            Lire la suite
            <span className="sr-only"> : {article.title}</span>
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
        </div>
      </div>
    </article>
  );
}

/** Cards in 1, 2 or 3 columns (small, medium, large screens). */
export function ArticleGrid({
  articles,
  headingLevel,
  eagerFirst = false,
}: {
  articles: ArticleCardData[];
  headingLevel?: "h2" | "h3";
  /** The grid opens the page: the first cover loads at once (LCP), the others lazily. */
  eagerFirst?: boolean;
}) {
  return (
    <ul className="grid gap-8 md:grid-cols-2 lg:grid-cols-3">
      {articles.map((article, index) => (
        <li key={article.id}>
          <ArticleCard
            article={article}
            headingLevel={headingLevel}
            eager={eagerFirst && index === 0}
          />
        </li>
      ))}
    </ul>
  );
}
