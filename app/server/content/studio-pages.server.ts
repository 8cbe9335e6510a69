import { VOUCHERS_PATH } from "~/lib/vouchers/order-page";
import type { ContactFormSettings } from "~/content/schemas";
import type { SitePhoto } from "~/lib/media";
import { bookingStudioPath } from "~/lib/booking/urls";
import { parisToday } from "~/lib/dates";
import { shownAddress } from "~/lib/external-links";
import { upcomingClosures } from "~/lib/opening-hours";
import type { StudioFacts } from "~/lib/structured-data";
import type { SiteContent, StudioRecord } from "./site-content.server";

/**
 * What a studio's page and contact page show of it, from the content snapshot: its facts, its photo, the
 * closures under way or to come, and its contact form's settings.
 */
export type StudioPageData = StudioFacts & {
  slug: string;
  contactPath: string;
  city: string;
  description: string;
  bookingUrl: string;
  giftVoucherUrl: string;
  photo: SitePhoto;
  contactForm: ContactFormSettings;
};

/** What the structured data needs of a studio (home page and studio page alike). */
export function studioFacts(studio: StudioRecord, today = parisToday()): StudioFacts {
  const { name, address, phone, email, hours, geo, closures } = studio.data;
  return {
    pagePath: studio.pagePath,
    name,
    address,
    phone,
    email,
    hours,
    geo,
    closures: upcomingClosures(closures, today),
    bookingPath: studio.data.onlineBooking ? bookingStudioPath(studio.slug) : null,
  };
}

export function studioPageData(
  content: SiteContent,
  studio: StudioRecord,
  today = parisToday(),
): StudioPageData {
  const { data } = studio;
  return {
    ...studioFacts(studio, today),
    slug: studio.slug,
    contactPath: studio.contactPath,
    city: data.city,
    description: data.description,
    // A link the owner has not set yet is not shown (decision 0126).
    bookingUrl: shownAddress(data.bookingUrl),
    // Vouchers sold on the site replace the studio's external shop (decision 0168).
    giftVoucherUrl: content.documents.payments.vouchersOnSale
      ? VOUCHERS_PATH
      : shownAddress(data.giftVoucherUrl),
    photo: content.photo(data.photo),
    contactForm: data.contactForm,
  };
}

/**
 * What a studio's contact page needs of it: hydrated (decision 0090), the page sends it to the browser in
 * React Router's hand-off, so what only the studio's page shows (description, booking and gift links,
 * coordinates, the photo's library facts) is left out (decision 0095).
 */
export type StudioContactData = Omit<
  StudioPageData,
  | "pagePath"
  | "city"
  | "description"
  | "bookingUrl"
  | "giftVoucherUrl"
  | "geo"
  | "photo"
  | "bookingPath"
> & { photo: Pick<SitePhoto, "picture"> };

export function studioContactData(
  content: SiteContent,
  studio: StudioRecord,
  today = parisToday(),
): StudioContactData {
  const { name, address, phone, email, hours, closures } = studioFacts(studio, today);
  return {
    name,
    address,
    phone,
    email,
    hours,
    closures,
    slug: studio.slug,
    contactPath: studio.contactPath,
    photo: { picture: content.photo(studio.data.photo).picture },
    contactForm: studio.data.contactForm,
  };
}

/** The studio whose page (`/studio-{slug}`) or contact page (`/contact-studio-{slug}`) is `path`. */
export function studioAt(
  content: SiteContent,
  path: string,
): { kind: "studio" | "contact"; studio: StudioRecord } | undefined {
  for (const studio of content.studios) {
    if (studio.pagePath === path) return { kind: "studio", studio };
    if (studio.contactPath === path) return { kind: "contact", studio };
  }
  return undefined;
}
