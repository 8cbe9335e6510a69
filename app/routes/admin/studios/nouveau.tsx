import type { Route } from "./+types/nouveau";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { StudioForm } from "~/components/studio/studio-form";
import { useFormAnswer } from "~/components/ui/server-toast";
import { loadStudioForm, studioFormAction } from "~/server/content/studios-admin.server";

export const meta: Route.MetaFunction = () => [{ title: "Nouveau studio - Administration" }];

export async function loader({ request }: Route.LoaderArgs) {
  return loadStudioForm(request, null);
}

export async function action({ request }: Route.ActionArgs) {
  return studioFormAction(request, null);
}

export default function NewStudio({ loaderData, actionData }: Route.ComponentProps) {
  const { answer, toast } = useFormAnswer(actionData);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader
        title="Nouveau studio"
        summary="Ses pages et son formulaire de contact apparaissent sur le site dès sa création."
      />
      <StudioForm
        creating
        values={answer?.values ?? loaderData.values}
        errors={answer && "errors" in answer ? answer.errors : undefined}
        alert={toast}
      />
    </div>
  );
}
