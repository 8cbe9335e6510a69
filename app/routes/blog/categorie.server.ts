import { data } from "react-router";
import type { Route } from "./+types/categorie";
import { blogPageHeaders, NOT_FOUND_INIT } from "~/lib/blog-seo";
import { listPublishedArticlesOfCategory } from "~/server/blog/articles.server";
import { findCategoryBySlug } from "~/server/blog/categories.server";

export async function loader({ params }: Route.LoaderArgs) {
  const category = await findCategoryBySlug(params.slug);
  if (!category) throw data(null, NOT_FOUND_INIT);
  const articles = await listPublishedArticlesOfCategory(category.id);
  return { category, articles };
}

export const headers = blogPageHeaders;
