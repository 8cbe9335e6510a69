import type { Route } from "./+types/nouvelle";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { SessionTypeForm } from "~/components/booking-admin/session-type-form";
import { ReservationsNav } from "~/components/booking-admin/reservations-nav";
import { useFormAnswer } from "~/components/ui/server-toast";

export { action, loader } from "./nouvelle.server";

export const meta: Route.MetaFunction = () => [{ title: "Nouvelle séance - Administration" }];

export default function NewSessionType({ loaderData, actionData }: Route.ComponentProps) {
  const { answer, toast } = useFormAnswer(actionData);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader
        title="Nouvelle séance"
        summary="Elle est proposée à la réservation dès sa création, dans les studios cochés."
      />
      <ReservationsNav />
      <SessionTypeForm
        creating
        values={answer?.values ?? loaderData.values}
        errors={answer && "errors" in answer ? answer.errors : undefined}
        alert={toast}
        studios={loaderData.studios}
        photos={loaderData.photos}
      />
    </div>
  );
}
