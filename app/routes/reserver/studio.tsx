import { Clock } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/studio";
import type { SiteHandle } from "../site-layout";
import { BookingErrorBoundary, bookingErrorMeta } from "~/components/booking/booking-error";
import { BookingPage, choiceClass, NO_INDEX } from "~/components/booking/booking-layout";
import { Photo } from "~/components/ui/photo";
import { bookingDaysPath, bookingStudioPath, BOOKING_HOME_PATH } from "~/lib/booking/urls";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { cn } from "~/lib/utils";

export { loader } from "./studio.server";

/** /reserver/{studio}: the session types offered at the studio (a private one with `?lien=`). */

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ loaderData, matches, error }) => {
  if (error || !loaderData) return bookingErrorMeta(error);
  const site = siteFrom(matches);
  return seo({
    title: `Réserver au ${loaderData.studio.name} | ${site.brand}`,
    description: `Les séances photo à réserver en ligne au ${loaderData.studio.name} : choisissez la vôtre, puis votre créneau.`,
    path: bookingStudioPath(loaderData.studio.slug),
    matches,
    extra: loaderData.privateToken ? [NO_INDEX] : [],
  });
};

export default function ReserverStudioPage({ loaderData }: Route.ComponentProps) {
  const { studio, types, privateToken } = loaderData;
  return (
    <BookingPage
      trail={[{ label: "Réserver une séance", to: BOOKING_HOME_PATH }, { label: studio.name }]}
      title={`Réserver au ${studio.name}`}
      intro="Choisissez votre séance."
    >
      {types.length === 0 ? (
        <p>
          Aucune séance ne se réserve en ligne dans ce studio pour le moment : appelez-nous au{" "}
          {studio.phone}.
        </p>
      ) : (
        <ul className="grid gap-3">
          {types.map((type) => {
            const card = (
              <>
                {type.photo ? (
                  <Photo
                    photo={type.photo}
                    alt=""
                    sizes="96px"
                    className="shrink-0"
                    imgClassName="size-20 rounded-lg object-cover sm:size-24"
                  />
                ) : null}
                <span className="min-w-0 flex-1">
                  {type.previewed ? (
                    <span className="mb-1 block text-sm font-semibold text-amber-800">
                      Aperçu de cette séance
                      {type.private ? " (réservable par lien privé uniquement)" : ""}
                    </span>
                  ) : null}
                  <span className="block text-lg">{type.name}</span>
                  {type.description ? (
                    <span className="mt-1 block text-sm font-normal text-muted-foreground">
                      {type.description}
                    </span>
                  ) : null}
                  <span className="mt-2 flex flex-wrap items-center gap-x-3 text-sm font-normal">
                    <span className="inline-flex items-center gap-1">
                      <Clock aria-hidden="true" className="size-4" />
                      {type.duration}
                    </span>
                    {type.priceText ? <span>{type.priceText}</span> : null}
                    {type.request ? <span>Sur demande (le studio confirme)</span> : null}
                  </span>
                </span>
              </>
            );
            return (
              <li key={type.slug}>
                {type.linked ? (
                  <Link
                    to={bookingDaysPath(studio.slug, type.slug, { lien: privateToken })}
                    className={cn(choiceClass, "w-full items-start gap-4")}
                  >
                    {card}
                    <span aria-hidden="true">›</span>
                  </Link>
                ) : (
                  <div className={cn(choiceClass, "w-full items-start gap-4")}>{card}</div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </BookingPage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <BookingErrorBoundary error={error} />;
}
