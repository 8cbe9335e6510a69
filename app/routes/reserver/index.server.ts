import { data } from "react-router";
import type { Route } from "./+types/index";
import { NOT_FOUND_INIT } from "~/lib/blog-seo";
import { bookingDaysPath, bookingStudioPath } from "~/lib/booking/urls";
import { bookingStudios } from "~/server/booking/visitor.server";
import { bookingStudiosOf, publicSessionTypes } from "~/server/content/price-offers.server";
import { siteContent } from "~/server/content/site-content.server";

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
