import { Clock } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/studio";
import type { SiteHandle } from "../site-layout";
import { BookingErrorBoundary } from "~/components/booking/booking-error";
import { BookingPage, choiceClass, NO_INDEX } from "~/components/booking/booking-layout";
import { Photo } from "~/components/ui/photo";
import { bookingDaysPath, bookingStudioPath, BOOKING_HOME_PATH } from "~/lib/booking/urls";
import { sessionOffer } from "~/lib/booking/offer";
import { durationLabelFr } from "~/lib/booking/words";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { cn } from "~/lib/utils";
import {
  bookingStudioAt,
  offeredSessionTypes,
  privateTokenOf,
  withPreviewedType,
} from "~/server/booking/visitor.server";
import { siteContent } from "~/server/content/site-content.server";

/** /reserver/{studio}: the session types offered at the studio (a private one with `?lien=`). */

export const handle: SiteHandle = { solidHeader: true };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  const studio = bookingStudioAt(content, params.studio);
  const privateToken = privateTokenOf(new URL(request.url).searchParams.get("lien"));
  const offered = await offeredSessionTypes(studio.id, privateToken);
  const { types, previewedId } = withPreviewedType(offered, content, studio.id);
  return {
    studio: { slug: studio.slug, name: studio.data.name, phone: studio.data.phone },
    privateToken,
    types: types.map((type) => ({
      slug: type.slug,
      name: type.name,
      description: type.description,
      photo: type.photoId ? content.photo(type.photoId) : null,
      duration: durationLabelFr(type.durationMinutes),
      // The price card's when the type is its offer (decision 0127).
      priceText: sessionOffer(content.documents.prices, type).price,
      request: type.mode === "request",
      private: type.visibility === "private",
      previewed: type.id === previewedId,
      // One not created yet has no page of free days to open.
      linked: type.id !== "apercu",
    })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
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
