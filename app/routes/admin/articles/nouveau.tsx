import { useState } from "react";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import type { Route } from "./+types/nouveau";
import { ArticleForm } from "~/components/blog-admin/article-form";
import { UnfinishedDrafts } from "~/components/blog-admin/unfinished-drafts";
import { useServerToast } from "~/components/ui/server-toast";

export { action, loader } from "./nouveau.server";

export const meta: Route.MetaFunction = () => [{ title: "Nouvel article - Administration" }];

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
