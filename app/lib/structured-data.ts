import { site, socialLinks } from "~/content/site";
import { studios, type Studio } from "~/content/studios";
import { openingHoursSpecification } from "~/lib/opening-hours";

/** schema.org identifiers are addresses: one for the business, one per studio. */
export const businessId = (siteUrl: string) => `${siteUrl}/#entreprise`;

function postalAddress(studio: Studio) {
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
export function businessStructuredData(siteUrl: string) {
  return {
    "@context": "https://schema.org",
    "@type": "ProfessionalService",
    "@id": businessId(siteUrl),
    name: site.brand,
    description: site.tagline,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/images/logo.svg`,
    image: `${siteUrl}/images/logo-partage.png`,
    email: site.email,
    telephone: studios[0]?.phone,
    priceRange: site.priceRange,
    address: studios.map(postalAddress),
    department: studios.map((studio) => studioBranch(siteUrl, studio)),
    sameAs: socialLinks.map((link) => link.href),
  };
}

/** One studio, as a branch of the business (studio pages). */
export function studioStructuredData(siteUrl: string, studio: Studio) {
  return { "@context": "https://schema.org", ...studioBranch(siteUrl, studio) };
}

function studioBranch(siteUrl: string, studio: Studio) {
  return {
    "@type": "LocalBusiness",
    "@id": `${siteUrl}${studio.pagePath}#studio`,
    name: `${site.brand} – ${studio.name}`,
    url: `${siteUrl}${studio.pagePath}`,
    image: `${siteUrl}/images/logo-partage.png`,
    telephone: studio.phone,
    email: studio.email,
    priceRange: site.priceRange,
    address: postalAddress(studio),
    openingHoursSpecification: openingHoursSpecification(studio.hours),
    branchOf: { "@id": businessId(siteUrl) },
  };
}
