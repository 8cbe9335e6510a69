import type { Route } from "./+types/nouvelle";
import {
  loadSessionTypeForm,
  sessionTypeFormAction,
} from "~/server/booking/session-types-admin.server";

export async function loader({ request }: Route.LoaderArgs) {
  return loadSessionTypeForm(request, null);
}

export async function action({ request }: Route.ActionArgs) {
  return sessionTypeFormAction(request, null);
}
