import { randomUUID } from "node:crypto";
import type { Route } from "./+types/nouveau";
import { saveArticle } from "~/server/blog/article-form.server";
import { listCategoryOptions, listUnfinishedDrafts } from "~/server/blog/admin-articles.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { log } from "~/server/logger.server";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  // One visit of the page: its autosaves update one draft, whatever answers get lost (decision 0111).
  const draftSession = randomUUID();
  try {
    const [categories, unfinishedDrafts] = await Promise.all([
      listCategoryOptions(),
      listUnfinishedDrafts(admin.id),
    ]);
    return { categories, unfinishedDrafts, draftSession, loadError: null };
  } catch (error) {
    log.error("admin_categories_load_failed", { error });
    return {
      categories: [],
      unfinishedDrafts: [],
      draftSession,
      loadError: {
        type: "error" as const,
        title: "Erreur",
        description: "Impossible de charger les catégories",
      },
    };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return saveArticle(await request.formData(), null, admin);
}
