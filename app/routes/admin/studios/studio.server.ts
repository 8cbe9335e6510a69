import type { Route } from "./+types/studio";
import { loadStudioForm, studioFormAction } from "~/server/content/studios-admin.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadStudioForm(request, params.id);
}

export async function action({ request, params }: Route.ActionArgs) {
  return studioFormAction(request, params.id);
}
