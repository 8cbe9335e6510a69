import type { Route } from "./+types/nouvelle";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { GalleryForm } from "~/components/gallery-admin/gallery-form";
import { useFormAnswer } from "~/components/ui/server-toast";

export { action, loader } from "./nouvelle.server";

export const meta: Route.MetaFunction = () => [{ title: "Nouvelle galerie - Administration" }];

export default function NewGallery({ loaderData, actionData }: Route.ComponentProps) {
  const { answer, toast } = useFormAnswer(actionData);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader
        title="Nouvelle galerie"
        summary="Un code d'accès est créé avec la galerie ; vous déposerez les photos à l'étape suivante."
      />
      <GalleryForm
        creating
        values={answer?.values ?? loaderData.values}
        errors={answer && "errors" in answer ? answer.errors : undefined}
        alert={toast}
        studios={loaderData.studios}
      />
    </div>
  );
}
