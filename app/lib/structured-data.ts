import type { Closure, StudioData } from "~/content/schemas";
import { openingHoursSpecification, specialOpeningHoursSpecification } from "~/lib/opening-hours";
import type { PublicSite } from "~/lib/public-site";
import { absoluteUrl } from "~/lib/seo";

/** schema.org identifiers are addresses: one for the business, one per studio. */
export const businessId = (siteUrl: string) => `${siteUrl}/#entreprise`;

/** What the structured data says of a studio (from the database, through the page's loader). */
export type StudioFacts = Pick<
  StudioData,
  "name" | "address" | "phone" | "email" | "hours" | "geo"
> & {
  pagePath: string;
  /** The closures under way or to come (past ones say nothing to a search engine). */
  closures: Closure[];
  /** The studio's booking pages (/reserver/{slug}) when it takes bookings on the site, else null. */
  bookingPath: string | null;
};

type BusinessFacts = Pick<
  PublicSite,
  "brand" | "tagline" | "email" | "phone" | "priceRange" | "social" | "shareImage"
>;

function postalAddress(studio: StudioFacts) {
  return {
    "@type": "PostalAddress",
    streetAddress: studio.address.street,
    postalCode: studio.address.postalCode,
    addressLocality: studio.address.city,
    addressCountry: "FR",
  };
}

/**
 * The business as a whole (home page head, SPEC §1). Each studio keeps its own hours, so they appear per
 * studio (`department`), exactly as on the studio pages, not as one business-wide week.
 */
export function businessStructuredData(
  siteUrl: string,
  site: BusinessFacts,
  studios: StudioFacts[],
) {
  return {
    "@context": "https://schema.org",
    "@type": "ProfessionalService",
    "@id": businessId(siteUrl),
    name: site.brand,
    description: site.tagline,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/images/logo.svg`,
    image: absoluteUrl(siteUrl, site.shareImage),
    email: site.email,
    telephone: site.phone || studios[0]?.phone,
    priceRange: site.priceRange,
    address: studios.map(postalAddress),
    department: studios.map((studio) => studioBranch(siteUrl, site, studio)),
    sameAs: site.social.map((link) => link.href),
  };
}

/** One studio, as a branch of the business (studio pages). */
export function studioStructuredData(siteUrl: string, site: BusinessFacts, studio: StudioFacts) {
  return { "@context": "https://schema.org", ...studioBranch(siteUrl, site, studio) };
}

function studioBranch(siteUrl: string, site: BusinessFacts, studio: StudioFacts) {
  return {
    "@type": "LocalBusiness",
    "@id": `${siteUrl}${studio.pagePath}#studio`,
    name: `${site.brand} – ${studio.name}`,
    url: `${siteUrl}${studio.pagePath}`,
    image: absoluteUrl(siteUrl, site.shareImage),
    telephone: studio.phone,
    email: studio.email,
    priceRange: site.priceRange,
    address: postalAddress(studio),
    ...(studio.geo
      ? {
          geo: {
            "@type": "GeoCoordinates",
            latitude: studio.geo.latitude,
            longitude: studio.geo.longitude,
          },
        }
      : {}),
    openingHoursSpecification: openingHoursSpecification(studio.hours),
    ...(studio.closures.length > 0
      ? { specialOpeningHoursSpecification: specialOpeningHoursSpecification(studio.closures) }
      : {}),
    // The booking pages as schema.org's booking action (decision 0115).
    ...(studio.bookingPath
      ? {
          potentialAction: {
            "@type": "ReserveAction",
            target: {
              "@type": "EntryPoint",
              urlTemplate: `${siteUrl}${studio.bookingPath}`,
              inLanguage: "fr-FR",
              actionPlatform: [
                "https://schema.org/DesktopWebPlatform",
                "https://schema.org/MobileWebPlatform",
              ],
            },
            result: { "@type": "Reservation", name: `Séance photo – ${studio.name}` },
          },
        }
      : {}),
    branchOf: { "@id": businessId(siteUrl) },
  };
}
