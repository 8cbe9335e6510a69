import { RefreshCw } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/seance";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { RevisionHistory } from "~/components/admin/revision-history";
import { SessionTypeForm } from "~/components/booking-admin/session-type-form";
import { ReservationsNav } from "~/components/booking-admin/reservations-nav";
import { useFormAnswer } from "~/components/ui/server-toast";

export { action, loader } from "./seance.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.sessionType?.name ?? "Séance"} - Administration` },
];

export default function EditSessionType({ loaderData, actionData }: Route.ComponentProps) {
  const { sessionType, values, history, studios, photos, origin, priceCard } = loaderData;
  const { answer, toast } = useFormAnswer(actionData);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader
        title={sessionType?.name ?? "Séance"}
        summary={
          sessionType?.archived
            ? "Cette séance est archivée : elle n'est pas proposée à la réservation."
            : undefined
        }
      />
      <ReservationsNav />
      {sessionType?.unpayableWarning ? (
        <div
          role="status"
          className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm font-medium text-amber-900"
        >
          <p>
            {sessionType.unpayableWarning.before}
            <Link to="/admin/reglages/paiement" className="underline">
              {sessionType.unpayableWarning.settingsLink}
            </Link>
            {sessionType.unpayableWarning.after}
          </p>
        </div>
      ) : null}
      {sessionType && sessionType.privateLinks.length > 0 ? (
        <section
          aria-labelledby="lien-prive"
          className="space-y-3 rounded-xl border border-border bg-white p-4 sm:p-6"
        >
          <h2 id="lien-prive" className="font-sans text-lg font-semibold">
            Lien privé
          </h2>
          <p className="text-sm text-muted-foreground">
            Cette séance n'apparaît pas sur la page Réserver : seules les personnes qui ont ce lien
            peuvent la réserver. Copiez-le et envoyez-le à vos clients.
          </p>
          {sessionType.privateLinks.map((link, index) => (
            <div key={link.path} className="space-y-1">
              <label htmlFor={`lien-prive-${index}`} className="text-sm font-semibold">
                {link.studioName}
              </label>
              <input
                id={`lien-prive-${index}`}
                readOnly
                value={`${origin}${link.path}`}
                className="w-full rounded-md border border-border bg-muted px-3 py-2 font-mono text-sm"
                onFocus={(event) => event.currentTarget.select()}
              />
            </div>
          ))}
          <ConfirmedActionForm
            id={sessionType.id}
            intent="renew-link"
            param="nouveau-lien"
            confirmation="Créer un nouveau lien privé ? L'ancien lien ne fonctionnera plus."
            variant="default"
            label={
              <>
                <RefreshCw aria-hidden="true" />
                Générer un nouveau lien
              </>
            }
          />
        </section>
      ) : null}
      <SessionTypeForm
        key={history.revisions[0]?.id ?? sessionType?.id}
        creating={false}
        values={answer?.values ?? values}
        errors={answer && "errors" in answer ? answer.errors : undefined}
        alert={toast}
        studios={studios}
        photos={photos}
        priceCard={priceCard}
      />
      <RevisionHistory history={history} title="Historique de la séance" />
    </div>
  );
}
