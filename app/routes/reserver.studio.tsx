import { Clock } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/reserver.studio";
import type { SiteHandle } from "./site-layout";
import { BookingErrorBoundary } from "~/components/booking/booking-error";
import { BookingPage, choiceClass, NO_INDEX } from "~/components/booking/booking-layout";
import { bookingDaysPath, bookingStudioPath, BOOKING_HOME_PATH } from "~/lib/booking/urls";
import { durationLabelFr } from "~/lib/booking/words";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { cn } from "~/lib/utils";
import {
  bookingStudioAt,
  offeredSessionTypes,
  privateTokenOf,
} from "~/server/booking/visitor.server";
import { siteContent } from "~/server/content/site-content.server";

/** /reserver/{studio}: the session types offered at the studio (a private one with `?lien=`). */

export const handle: SiteHandle = { solidHeader: true };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  const studio = bookingStudioAt(content, params.studio);
  const privateToken = privateTokenOf(new URL(request.url).searchParams.get("lien"));
  const types = await offeredSessionTypes(studio.id, privateToken);
  return {
    studio: { slug: studio.slug, name: studio.data.name, phone: studio.data.phone },
    privateToken,
    types: types.map((type) => ({
      slug: type.slug,
      name: type.name,
      description: type.description,
      duration: durationLabelFr(type.durationMinutes),
      priceText: type.priceText,
      request: type.mode === "request",
      private: type.visibility === "private",
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
      trail={[{ label: "Studio", to: BOOKING_HOME_PATH }, { label: studio.name }]}
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
          {types.map((type) => (
            <li key={type.slug}>
              <Link
                to={bookingDaysPath(studio.slug, type.slug, { lien: privateToken })}
                className={cn(choiceClass, "w-full items-start")}
              >
                <span>
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
                <span aria-hidden="true">›</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </BookingPage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <BookingErrorBoundary error={error} />;
}
