import { ExternalLink } from "lucide-react";
import type { Route } from "./+types/studio";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { CopyField } from "~/components/admin/copy-field";
import { RevisionHistory } from "~/components/admin/revision-history";
import { StudioForm } from "~/components/studio/studio-form";
import { useFormAnswer } from "~/components/ui/server-toast";

export { action, loader } from "./studio.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.studio?.name ?? "Studio"} - Administration` },
];

export default function EditStudio({ loaderData, actionData }: Route.ComponentProps) {
  const { studio, values, history, bookingLink } = loaderData;
  const { answer, toast } = useFormAnswer(actionData);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader
        title={studio?.name ?? "Studio"}
        summary={
          studio?.retired ? "Ce studio est retiré : ses pages ne sont pas sur le site." : undefined
        }
        actions={
          studio && !studio.retired ? (
            <a
              href={studio.pagePath}
              target="_blank"
              rel="noopener"
              className="inline-flex min-h-11 items-center gap-1 text-sm underline underline-offset-4"
            >
              Voir la page du studio
              <ExternalLink aria-hidden="true" className="size-4" />
              <span className="sr-only"> (nouvel onglet)</span>
            </a>
          ) : null
        }
      />
      {bookingLink ? (
        <section
          aria-labelledby="lien-reservation"
          className="space-y-4 rounded-xl border border-border bg-white p-6"
        >
          <h2 id="lien-reservation" className="text-lg font-semibold">
            Réservation en ligne : le lien à partager
          </h2>
          <CopyField
            id="lien-reservation-studio"
            label="Lien de réservation"
            value={bookingLink.url}
          />
          <figure className="flex items-center gap-4">
            <img
              src={bookingLink.qrCode}
              alt={`QR code du lien ${bookingLink.url}`}
              width={160}
              height={160}
              className="size-40"
            />
            <figcaption className="text-sm text-muted-foreground">
              À imprimer sur une affiche ou une carte : un téléphone qui le photographie ouvre la
              page de réservation du studio.
            </figcaption>
          </figure>
        </section>
      ) : null}
      <StudioForm
        // A save or a restore brings a new version: the fields start again from it.
        key={history.revisions[0]?.id ?? studio?.id}
        creating={false}
        values={answer?.values ?? values}
        errors={answer && "errors" in answer ? answer.errors : undefined}
        alert={toast}
      />
      <RevisionHistory history={history} title="Historique du studio" />
    </div>
  );
}
