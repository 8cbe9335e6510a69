import { randomUUID } from "node:crypto";
import { useState } from "react";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import type { Route } from "./+types/nouveau";
import { ArticleForm } from "~/components/blog-admin/article-form";
import { UnfinishedDrafts } from "~/components/blog-admin/unfinished-drafts";
import { useServerToast } from "~/components/ui/server-toast";
import { saveArticle } from "~/server/blog/article-form.server";
import { listCategoryOptions, listUnfinishedDrafts } from "~/server/blog/admin-articles.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { log } from "~/server/logger.server";

export const meta: Route.MetaFunction = () => [{ title: "Nouvel article - Administration" }];

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

export default function NewArticle({ loaderData, actionData }: Route.ComponentProps) {
  useServerToast(loaderData.loadError);
  useServerToast(actionData?.toast);
  // As the page opened: a reload of the data after a refused save would list this visit's own draft.
  const [unfinishedDrafts] = useState(loaderData.unfinishedDrafts);
  const values = actionData?.values ?? {};
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader title="Nouvel article" />
      <UnfinishedDrafts drafts={unfinishedDrafts} />
      <ArticleForm
        mode="create"
        categories={loaderData.categories}
        draftSession={values.draft_session || loaderData.draftSession}
        values={values}
        errors={actionData?.errors}
        alert={actionData?.toast}
      />
    </div>
  );
}
