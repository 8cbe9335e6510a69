import { site, socialLinks } from "~/content/site";
import { studios, type Studio } from "~/content/studios";

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

/** The business as a whole (home page head, SPEC §1). */
export function businessStructuredData(siteUrl: string) {
  const days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
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
    openingHoursSpecification: [
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: days,
        opens: site.openingHours.opens,
        closes: site.openingHours.closes,
      },
    ],
    sameAs: socialLinks.map((link) => link.href),
  };
}

/** One studio, as a branch of the business (studio pages). */
export function studioStructuredData(siteUrl: string, studio: Studio) {
  return {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    "@id": `${siteUrl}${studio.pagePath}#studio`,
    name: `${site.brand} – ${studio.name}`,
    url: `${siteUrl}${studio.pagePath}`,
    image: `${siteUrl}/images/logo-partage.png`,
    telephone: studio.phone,
    email: studio.email,
    priceRange: site.priceRange,
    address: postalAddress(studio),
    openingHoursSpecification: studio.openingSpecification.map((spec) => ({
      "@type": "OpeningHoursSpecification",
      dayOfWeek: spec.days,
      opens: spec.opens,
      closes: spec.closes,
    })),
    branchOf: { "@id": businessId(siteUrl) },
  };
}
