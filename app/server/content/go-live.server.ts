import { seedDocuments } from "~/content/seed";
import { parisToday } from "~/lib/dates";
import { sellerGaps } from "~/lib/legal/seller";
import { isPlaceholder } from "~/lib/placeholders";
import type { SiteContent } from "./site-content.server";

/**
 * The go-live checklist of the dashboard (decision 0070): every fact that still holds a demo value of the
 * seed, with the form where the owner replaces it. A fact counts as done once it no longer looks like a
 * placeholder: the demo brand, an address at example.com, a number of the range reserved for fiction
 * (05 36 49), zeros where a registration number goes, the « Exemple » host, a demo photo.
 */

export type ChecklistItem = {
  /** What to replace, in the owner's words. */
  label: string;
  /** Where it still shows, when that helps (« Studio de Brive : téléphone, e-mail »). */
  detail?: string;
  /** The admin form that changes it. */
  href: string;
  done: boolean;
};

function placeholders(fields: Record<string, string>): string[] {
  return Object.entries(fields)
    .filter(([, value]) => isPlaceholder(value))
    .map(([label]) => label);
}

function item(label: string, href: string, pending: string[], detail?: string): ChecklistItem {
  return {
    label,
    href,
    done: pending.length === 0,
    detail: pending.length > 0 ? (detail ?? pending.join(", ")) : undefined,
  };
}

/** What the checklist knows of online booking (go-live-booking.server.ts reads it). */
export type BookingFacts = {
  /** Per studio id: how many public session types it offers and active photographers work there. */
  studios: ReadonlyMap<string, { sessionTypes: number; photographers: number }>;
  /**
   * The session types of the demo (decision 0126) still offered, and whether the owner saved each since:
   * until then she has not said their price, duration and rules are hers.
   */
  demoSessionTypes: ReadonlyArray<{ name: string; reviewed: boolean }>;
};

/** What a studio still lacks to take bookings on the site, in the owner's words; [] when nothing. */
export function missingForOnlineBooking(facts: {
  sessionTypes: number;
  photographers: number;
}): string[] {
  return [
    ...(facts.sessionTypes > 0 ? [] : ["une séance proposée dans ce studio"]),
    ...(facts.photographers > 0 ? [] : ["un photographe qui y travaille"]),
  ];
}

export function goLiveChecklist(content: SiteContent, booking?: BookingFacts): ChecklistItem[] {
  const { identity, legal, giftSessions, gallery, gendarmerie, testimonials, pagePhotos } =
    content.documents;
  const items: ChecklistItem[] = [];

  items.push(
    item(
      "Nom du studio (la marque)",
      "/admin/site",
      identity.brand === seedDocuments.identity.brand ? ["nom de démonstration"] : [],
    ),
    item(
      "Coordonnées générales",
      "/admin/site",
      placeholders({ "e-mail": identity.email, téléphone: identity.phone }),
    ),
    item(
      "Réseaux sociaux et site de la borne selfie",
      "/admin/site",
      placeholders({
        Facebook: identity.social.facebook,
        Instagram: identity.social.instagram,
        YouTube: identity.social.youtube,
        "borne selfie": identity.selfieBoothUrl,
      }),
    ),
    item(
      "Mentions légales : société et hébergeur",
      "/admin/site#mentions-legales",
      placeholders({
        "raison sociale": legal.companyName,
        RCS: legal.rcs,
        SIRET: legal.siret,
        "TVA intracommunautaire": legal.vatNumber,
        téléphone: legal.phone,
        "e-mail": legal.email,
        "directeur de la publication": legal.publicationDirector,
        hébergeur: legal.host.name,
        "adresse de l'hébergeur": legal.host.address,
        "téléphone de l'hébergeur": legal.host.phone,
        "site de l'hébergeur": legal.host.website,
      }),
    ),
    // Decision 0176: what an invoice and a consumer's sale need of the seller; no invoice without it.
    item(
      "Facturation : SIRET, TVA et médiateur de la consommation",
      "/admin/site#facturation",
      sellerGaps(legal),
    ),
  );

  for (const studio of content.studios) {
    items.push(
      item(
        `${studio.data.name} : coordonnées et liens`,
        `/admin/studios/${studio.id}`,
        placeholders({
          téléphone: studio.data.phone,
          "e-mail": studio.data.email,
          // Booking on the site replaces the external link: its placeholder no longer shows.
          ...(studio.data.onlineBooking ? {} : { "réservation en ligne": studio.data.bookingUrl }),
          // Vouchers sold on the site replace the studio's shop (decision 0168): its placeholder no longer shows.
          ...(content.documents.payments.vouchersOnSale
            ? {}
            : { "bons cadeaux": studio.data.giftVoucherUrl }),
        }),
      ),
    );
  }

  // Decisions 0113 and 0127: off until the owner turns it on per studio (the studio's form), with its session types. A
  // studio with it on but nothing to book or nobody to take the booking is not done either.
  const bookable = (studio: (typeof content.studios)[number]) => {
    if (!studio.data.onlineBooking) return false;
    const facts = booking?.studios.get(studio.id);
    return !facts || missingForOnlineBooking(facts).length === 0;
  };
  const withoutOnlineBooking = content.studios.filter((studio) => !bookable(studio));
  const off = withoutOnlineBooking.filter((studio) => !studio.data.onlineBooking);
  const lacking = withoutOnlineBooking.filter((studio) => studio.data.onlineBooking);
  const lacks = (studio: (typeof content.studios)[number]) =>
    missingForOnlineBooking(
      booking?.studios.get(studio.id) ?? { sessionTypes: 0, photographers: 0 },
    ).join(" et ");
  items.push(
    item(
      "Réservation en ligne",
      withoutOnlineBooking[0] ? `/admin/studios/${withoutOnlineBooking[0].id}` : "/admin/studios",
      withoutOnlineBooking.map((studio) => studio.data.name),
      withoutOnlineBooking.length > 0
        ? [
            ...(off.length > 0
              ? [`pas encore activée : ${off.map((studio) => studio.data.name).join(", ")}`]
              : []),
            ...lacking.map((studio) => `${studio.data.name} : il manque ${lacks(studio)}`),
          ].join(" ; ")
        : undefined,
    ),
  );

  const demoTypes = booking?.demoSessionTypes ?? [];
  if (demoTypes.length > 0) {
    const toReview = demoTypes.filter((type) => !type.reviewed).map((type) => type.name);
    items.push(
      item(
        "Séances de démonstration : prix, durées et règles",
        "/admin/reservations/seances",
        toReview,
        toReview.length > 0
          ? `à relire et enregistrer (ou archiver) : ${toReview.join(", ")}`
          : undefined,
      ),
    );
  }

  const giftLinks = giftSessions.sessions.filter((session) => isPlaceholder(session.link));
  items.push(
    item(
      "Liens de réservation des séances à offrir",
      "/admin/tarifs",
      giftLinks.map((session) => session.title),
    ),
  );
  const videos = gendarmerie.services.filter(
    (service) =>
      service.youtubeId !== "" &&
      service.youtubeId ===
        seedDocuments.gendarmerie.services.find((seed) => seed.title === service.title)?.youtubeId,
  );
  const today = parisToday();
  const expired = gendarmerie.offer.validUntil !== "" && gendarmerie.offer.validUntil < today;
  items.push(
    item("Offre gendarmerie : vidéo et dates de l'offre", "/admin/tarifs", [
      ...videos.map((service) => `vidéo d'exemple (${service.title})`),
      ...(expired ? [`« ${gendarmerie.offer.title} » est terminée`] : []),
    ]),
  );
  const sampleQuotes = Object.values(testimonials)
    .flat()
    .filter((testimonial) =>
      Object.values(seedDocuments.testimonials)
        .flat()
        .some((seed) => seed.quote === testimonial.quote),
    );
  items.push(
    item(
      "Témoignages de vrais clients",
      "/admin/tarifs",
      sampleQuotes.map((testimonial) => testimonial.author),
      sampleQuotes.length > 0 ? `${sampleQuotes.length} témoignage(s) d'exemple` : undefined,
    ),
  );
  const galleryLinks = gallery.items.filter((entry) => isPlaceholder(entry.link));
  items.push(
    item(
      "Liens des galeries clients (/galerie)",
      "/admin/medias",
      galleryLinks.map((entry) => entry.title),
      galleryLinks.length > 0 ? `${galleryLinks.length} lien(s) d'exemple` : undefined,
    ),
  );

  const photoIds = [
    ...Object.values(pagePhotos.slots),
    ...Object.values(pagePhotos.galleries).flatMap((images) => images.map((image) => image.photo)),
    ...gallery.items.map((entry) => entry.photo),
    ...giftSessions.sessions.map((session) => session.photo),
    ...gendarmerie.services.map((service) => service.photo),
    gendarmerie.selfieBooth.photo,
    ...content.studios.map((studio) => studio.data.photo),
  ];
  const demoPhotos = new Set(photoIds.filter((id) => content.photo(id).demo));
  items.push(
    item(
      "Photos de vos séances à la place des photos de démonstration",
      "/admin/medias",
      [...demoPhotos],
      demoPhotos.size > 0 ? `${demoPhotos.size} photo(s) de démonstration en ligne` : undefined,
    ),
    item(
      "Image de partage sur les réseaux sociaux",
      "/admin/medias",
      identity.shareImage ? [] : ["l'image par défaut"],
    ),
  );
  return items;
}
