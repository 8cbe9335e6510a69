import { MapPin } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/index";
import type { SiteHandle } from "../site-layout";
import { BookingPage, choiceClass } from "~/components/booking/booking-layout";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { cn } from "~/lib/utils";
import { BookingErrorBoundary, bookingErrorMeta } from "~/components/booking/booking-error";

export { loader } from "./index.server";

/** /reserver: the studios that take bookings on the site (the header's « Réserver »). */

export const handle: SiteHandle = { solidHeader: true };

export const meta: Route.MetaFunction = ({ loaderData, matches, error }) => {
  if (error || !loaderData) return bookingErrorMeta(error);
  const site = siteFrom(matches);
  return seo({
    title: `Réserver une séance photo | ${site.brand}`,
    description: `Choisissez votre studio, votre séance et votre créneau : réservation en ligne ${site.label}.`,
    path: "/reserver",
    matches,
  });
};

export default function ReserverPage({ loaderData }: Route.ComponentProps) {
  return (
    <BookingPage
      trail={[]}
      title="Réserver une séance"
      intro={
        loaderData.session
          ? `Choisissez le studio où vous souhaitez faire votre « ${loaderData.session.name} ».`
          : "Choisissez le studio où vous souhaitez faire votre séance."
      }
    >
      <ul className="grid gap-3">
        {loaderData.studios.map((studio) => (
          <li key={studio.slug}>
            <Link to={studio.href} className={cn(choiceClass, "w-full")}>
              <span>
                <span className="block text-lg">{studio.name}</span>
                <span className="flex items-center gap-1 text-sm font-normal text-muted-foreground">
                  <MapPin aria-hidden="true" className="size-4" />
                  {studio.address.street}, {studio.address.postalCode} {studio.address.city}
                </span>
              </span>
              <span aria-hidden="true">›</span>
            </Link>
          </li>
        ))}
      </ul>
    </BookingPage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <BookingErrorBoundary error={error} />;
}
