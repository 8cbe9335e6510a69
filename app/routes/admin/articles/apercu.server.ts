import type { Route } from "./+types/apercu";
import { isUuid } from "~/lib/forms";
import { getArticleForAdmin, loadArticleVersion } from "~/server/blog/admin-articles.server";
import { VERSION_PARAM } from "~/server/content/revision-history.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { sanitizeArticleHtml } from "~/server/sanitize.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const article = isUuid(params.id) ? await getArticleForAdmin(params.id) : null;
  if (!article) {
    throw await redirectWithToast("/admin/dashboard", {
      type: "error",
      title: "Erreur",
      description: "Impossible de charger l'article",
    });
  }
  // « Voir l'article avec cette version » in its history: that version's texts and photos in place.
  const versionId = new URL(request.url).searchParams.get(VERSION_PARAM);
  const version = isUuid(versionId) ? await loadArticleVersion(article.id, versionId) : null;
  // A draft has no publication date yet: it shows today's, as it would if published now.
  return {
    article: {
      ...article,
      ...version?.data,
      content: sanitizeArticleHtml(version?.data.content ?? article.content),
      publishedAt: article.publishedAt ?? new Date(),
    },
    versionDate: version ? version.createdAt.toISOString() : null,
  };
}
