import type { Route } from "./+types/nouveau";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { StudioForm } from "~/components/studio/studio-form";
import { useFormAnswer } from "~/components/ui/server-toast";

export { action, loader } from "./nouveau.server";

export const meta: Route.MetaFunction = () => [{ title: "Nouveau studio - Administration" }];

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
