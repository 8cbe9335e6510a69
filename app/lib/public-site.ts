import { useRouteLoaderData } from "react-router";

/**
 * What every public page shows of the business (header, footer, titles, share tags), from the site
 * layout's loader (routes/site-layout.tsx), which reads it from the database (decision 0070).
 */
export type PublicStudio = {
  slug: string;
  name: string;
  city: string;
  pagePath: string;
  contactPath: string;
  address: { street: string; postalCode: string; city: string };
  phone: string;
  email: string;
  /** « Réservation en ligne » is on: its visitors book at /reserver/{slug} (decision 0115). */
  onlineBooking: boolean;
};

export type PublicSite = {
  brand: string;
  tagline: string;
  experience: string;
  label: string;
  email: string;
  phone: string;
  selfieBoothUrl: string;
  social: Array<{ name: "Facebook" | "Instagram" | "YouTube"; href: string }>;
  priceRange: string;
  /** Site-relative address of the image shared with links (Open Graph), and the logo of structured data. */
  shareImage: string;
  studios: PublicStudio[];
  /** Gift vouchers on sale on /bons-cadeaux (decision 0168): the footer links to it then. */
  vouchersOnSale: boolean;
};

export const SITE_LAYOUT_ID = "routes/site-layout";

type Matches = ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;

/** The site's facts in a `meta` function (from the site layout's data). */
export function siteFrom(matches: Matches): PublicSite {
  const layout = matches.find((match) => match?.id === SITE_LAYOUT_ID)?.loaderData as
    { site?: PublicSite } | undefined;
  if (!layout?.site) throw new Error("Les données du site manquent (routes/site-layout).");
  return layout.site;
}

/** The site's facts in a component under the site layout. */
export function useSite(): PublicSite {
  const layout = useRouteLoaderData(SITE_LAYOUT_ID) as { site?: PublicSite } | undefined;
  if (!layout?.site) throw new Error("Les données du site manquent (routes/site-layout).");
  return layout.site;
}

/**
 * Where the header's « Réserver » leads: the booking pages when at least one studio takes bookings on the
 * site, else the contact page (decision 0115).
 */
export function reserveHref(site: Pick<PublicSite, "studios">): string {
  return site.studios.some((studio) => studio.onlineBooking) ? "/reserver" : "/contact";
}

/** "05 36 49 10 01" → "tel:+33536491001" */
export function telHref(phone: string): string {
  return `tel:+33${phone.replace(/\D/g, "").replace(/^0/, "")}`;
}
