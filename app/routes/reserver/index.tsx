import { MapPin } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/index";
import type { SiteHandle } from "../site-layout";
import { BookingPage, choiceClass } from "~/components/booking/booking-layout";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { bookingDaysPath, bookingStudioPath } from "~/lib/booking/urls";
import { siteFrom } from "~/lib/public-site";
import { seo } from "~/lib/seo";
import { bookingStudios } from "~/server/booking/visitor.server";
import { bookingStudiosOf, publicSessionTypes } from "~/server/content/price-offers.server";
import { siteContent } from "~/server/content/site-content.server";
import { cn } from "~/lib/utils";
import { BookingErrorBoundary } from "~/components/booking/booking-error";

/** /reserver: the studios that take bookings on the site (the header's « Réserver »). */

export const handle: SiteHandle = { solidHeader: true };

export async function loader({ request, context }: Route.LoaderArgs) {
  const content = await siteContent(context);
  // From a card of /tarifs (decision 0127): the studios offering that session, each leading to its days.
  const wanted = new URL(request.url).searchParams.get("seance");
  const type = wanted
    ? (await publicSessionTypes()).find((candidate) => candidate.slug === wanted)
    : undefined;
  const offering = type ? bookingStudiosOf(content, type) : [];
  const session = type && offering.length > 0 ? { slug: type.slug, name: type.name } : null;
  const studios = bookingStudios(content)
    .filter((studio) => !session || offering.includes(studio.slug))
    .map((studio) => ({
      slug: studio.slug,
      name: studio.data.name,
      address: studio.data.address,
      href: session ? bookingDaysPath(studio.slug, session.slug) : bookingStudioPath(studio.slug),
    }));
  // No studio takes bookings on the site: the header leads to /contact, and this page does not exist.
  if (studios.length === 0) throw data(null, NOT_FOUND_INIT);
  return { studios, session };
}

export const meta: Route.MetaFunction = ({ matches }) => {
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
