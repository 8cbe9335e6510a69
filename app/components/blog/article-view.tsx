import type { ReactNode } from "react";
import { Link } from "react-router";
import { UploadedPicture } from "~/components/ui/uploaded-picture";
import { formatDateFr } from "~/lib/dates";
import { cn } from "~/lib/utils";

export type ArticleViewData = {
  title: string;
  author: string;
  /** Sanitised HTML. */
  content: string;
  coverImageUrl: string | null;
  coverFocalX: number;
  coverFocalY: number;
  publishedAt: Date | string | null;
  category: { name: string; slug: string } | null;
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

/**
 * An article as visitors read it (SPEC §2): cover cropped around its focal point, category, title, date,
 * author, sanitised body. The public page and the admin's preview both render it, so a draft looks
 * exactly as it will once published.
 */
export function ArticleView({
  article,
  top,
  share,
}: {
  article: ArticleViewData;
  /** Above the cover (the public page's 'Retour au blog'). */
  top?: ReactNode;
  /** The share buttons, beside the body on wide screens. */
  share?: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-5xl px-4 py-10 sm:px-6 lg:py-14" data-article-view="">
      {top}

      {article.coverImageUrl ? (
        <UploadedPicture
          src={article.coverImageUrl}
          sizes="(min-width: 1280px) 1216px, 100vw"
          alt=""
          width={1200}
          height={630}
          fetchPriority="high"
          focalPoint={{ x: article.coverFocalX, y: article.coverFocalY }}
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
        {share}
        <div
          data-article-body=""
          className={bodyClass}
          // Sanitised by the allowlist on write and again in the loaders that render it.
          dangerouslySetInnerHTML={{ __html: article.content }}
        />
      </div>
    </article>
  );
}
