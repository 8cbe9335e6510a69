import type { Route } from "./+types/nouveau";
import { loadStudioForm, studioFormAction } from "~/server/content/studios-admin.server";

export async function loader({ request }: Route.LoaderArgs) {
  return loadStudioForm(request, null);
}

export async function action({ request }: Route.ActionArgs) {
  return studioFormAction(request, null);
}
