import { createContext, data } from "react-router";
import { isbot } from "isbot";
import type { Route } from "./+types/article";
import { blogPageHeaders, NOT_FOUND_INIT } from "~/lib/blog-seo";
import { countArticleView } from "~/server/blog/article-views.server";
import { findPublishedArticle, listRelatedArticles } from "~/server/blog/articles.server";
import { onEveryServe } from "~/server/context";
import { env } from "~/server/env.server";
import { handleNewsletterSubmission } from "~/server/newsletter/sign-up.server";
import { sanitizeArticleHtml } from "~/server/sanitize.server";

/** Set by the action: the page rendered after it answers a sign-up, not a new visit. */
const signingUp = createContext(false);

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const article = await findPublishedArticle(params.slug);
  if (!article) throw data(null, NOT_FOUND_INIT);

  // A person's visit counts one view, also when the page cache serves the page again; crawlers' do not,
  // nor does the article shown again with the answer to its newsletter form (a light page, decision 0137).
  if (!context.get(signingUp)) {
    onEveryServe(context, request, ({ userAgent }) => {
      if (!isbot(userAgent)) countArticleView(article.id);
    });
  }

  const related = await listRelatedArticles(article);
  return {
    article: { ...article, content: sanitizeArticleHtml(article.content) },
    related,
    canonicalUrl: `${env().SITE_URL}/blog/${article.slug}`,
  };
}

export function action({ request, context }: Route.ActionArgs) {
  context.set(signingUp, true);
  return handleNewsletterSubmission(request, context);
}

export const headers = blogPageHeaders;
