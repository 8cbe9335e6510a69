import type { Route } from "./+types/nouvelle";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { GalleryForm } from "~/components/gallery-admin/gallery-form";
import { useFormAnswer } from "~/components/ui/server-toast";
import { loadGalleryForm, saveGalleryForm } from "~/server/galleries/admin-pages.server";

export const meta: Route.MetaFunction = () => [{ title: "Nouvelle galerie - Administration" }];

export async function loader({ request }: Route.LoaderArgs) {
  return loadGalleryForm(request, null);
}

export async function action({ request }: Route.ActionArgs) {
  return saveGalleryForm(request, await request.formData(), null);
}

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
