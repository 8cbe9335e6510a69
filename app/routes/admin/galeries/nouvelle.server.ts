import type { Route } from "./+types/nouvelle";
import { loadGalleryForm, saveGalleryForm } from "~/server/galleries/admin-pages.server";

export async function loader({ request }: Route.LoaderArgs) {
  return loadGalleryForm(request, null);
}

export async function action({ request }: Route.ActionArgs) {
  return saveGalleryForm(request, await request.formData(), null);
}
