import { AdminPageHeader } from "~/components/admin/admin-page-header";
import type { Route } from "./+types/article-new";
import { ArticleForm } from "~/components/admin/article-form";
import { useServerToast } from "~/components/ui/server-toast";
import { saveArticle } from "~/server/admin/article-form.server";
import { listCategoryOptions } from "~/server/admin/articles.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { log } from "~/server/logger.server";

export const meta: Route.MetaFunction = () => [{ title: "Nouvel article - Administration" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  try {
    return { categories: await listCategoryOptions(), loadError: null };
  } catch (error) {
    log.error("admin_categories_load_failed", { error });
    return {
      categories: [],
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
  return saveArticle(request, null, admin.id);
}

export default function NewArticle({ loaderData, actionData }: Route.ComponentProps) {
  useServerToast(loaderData.loadError);
  useServerToast(actionData?.toast);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader title="Nouvel article" />
      <ArticleForm
        mode="create"
        categories={loaderData.categories}
        values={actionData?.values ?? {}}
        errors={actionData?.errors}
        alert={actionData?.toast}
      />
    </div>
  );
}
