import { data } from "react-router";
import type { Route } from "./+types/index";
import { MAX_SEARCH_LENGTH } from "~/lib/blog-search";
import { blogPageHeaders, NOT_FOUND_INIT } from "~/lib/blog-seo";
import { BLOG_PAGE_SIZE, publishedArticlesPage } from "~/server/blog/articles.server";
import { listCategories } from "~/server/blog/categories.server";
import { handleNewsletterSubmission } from "~/server/newsletter/sign-up.server";

function pageNumber(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").trim().slice(0, MAX_SEARCH_LENGTH);
  const categorie = params.get("categorie") ?? "";
  const page = pageNumber(params.get("page"));
  const query = { category: categorie || null, search: q };
  // Two queries, side by side: one round trip of waiting.
  const [categories, { articles, total, exact }] = await Promise.all([
    listCategories(),
    publishedArticlesPage({ ...query, page }),
  ]);
  // A page past the last one (an old link, a typed number) is no page: 404, with the way back.
  if (page > 1 && articles.length === 0) throw data(null, NOT_FOUND_INIT);
  const pageCount = Math.max(1, Math.ceil(total / BLOG_PAGE_SIZE));
  return {
    categories,
    articles,
    q,
    categorie,
    page,
    // Past countCap matches the pager says 'Page N' only.
    pageCount: exact ? pageCount : null,
    // SPEC §9: 'Suivant' only when a full page came back, and only when more articles follow.
    hasNext: articles.length === BLOG_PAGE_SIZE && (!exact || page < pageCount),
  };
}

export const action = ({ request, context }: Route.ActionArgs) =>
  handleNewsletterSubmission(request, context);

export const headers = blogPageHeaders;
