import type { PublicSite } from "~/lib/public-site";
import { shownAddress } from "~/lib/external-links";
import { DEFAULT_SHARE_IMAGE } from "~/lib/seo";
import type { SiteContent } from "./site-content.server";

/** The site's facts every public page shows, from the content snapshot. */
export function publicSite(content: SiteContent): PublicSite {
  const { identity } = content.documents;
  const social: PublicSite["social"] = [];
  if (identity.social.facebook) social.push({ name: "Facebook", href: identity.social.facebook });
  if (identity.social.instagram)
    social.push({ name: "Instagram", href: identity.social.instagram });
  if (identity.social.youtube) social.push({ name: "YouTube", href: identity.social.youtube });
  const share = identity.shareImage ? content.photo(identity.shareImage) : undefined;
  return {
    brand: identity.brand,
    tagline: identity.tagline,
    experience: identity.experience,
    label: identity.label,
    email: identity.email,
    phone: identity.phone,
    selfieBoothUrl: shownAddress(identity.selfieBoothUrl),
    social,
    priceRange: identity.priceRange,
    shareImage: share && !share.demo ? share.picture.img.src : DEFAULT_SHARE_IMAGE,
    studios: content.studios.map((studio) => ({
      slug: studio.slug,
      name: studio.data.name,
      city: studio.data.city,
      pagePath: studio.pagePath,
      contactPath: studio.contactPath,
      address: studio.data.address,
      phone: studio.data.phone,
      email: studio.data.email,
      onlineBooking: studio.data.onlineBooking,
    })),
    vouchersOnSale: content.documents.payments.vouchersOnSale,
  };
}
