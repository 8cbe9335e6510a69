import { z } from "~/lib/zod";
import { DAYS, type DayOfWeek } from "./days";

/**
 * The business's facts as the database keeps them (decision 0070): one JSON document per subject (identity, legal
 * details, prices, gendarmerie offer, gift sessions, testimonials, page photos, gallery), one row per studio.
 * These schemas are the storage contract: every write is parsed with them, so a document read back always has
 * this shape. The admin's forms have their own schemas (French input such as « 129 € » or « 9h30–18h ») that
 * produce these values. Photos are referenced by the id of their row in the media library (`media`).
 */

const text = (max: number) => z.string().trim().max(max);
const requiredText = (max: number) => text(max).min(1);
const url = z.string().trim().max(500).url();
const optionalUrl = z.union([z.literal(""), url]);
/** A page of this site ("/tarifs") or another site ("https://…"). */
const link = z
  .string()
  .trim()
  .max(500)
  .refine((value) => /^\/(?!\/)/.test(value) || /^https?:\/\//.test(value), "lien invalide");

export const mediaRef = z.string().uuid();
export type MediaRef = z.infer<typeof mediaRef>;

export const priceSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("fixed"), euros: z.number().int().min(0).max(1_000_000) }),
  z.object({ kind: z.literal("from"), euros: z.number().int().min(0).max(1_000_000) }),
  z.object({ kind: z.literal("quote") }),
]);

/** Icons the owner can choose for a card (names of lucide-react icons, drawn by components/ui/icon). */
export const ICON_NAMES = [
  "Award",
  "Baby",
  "BadgeCheck",
  "BookOpen",
  "Briefcase",
  "CalendarCheck",
  "Camera",
  "Clapperboard",
  "Clock",
  "Gift",
  "GraduationCap",
  "Heart",
  "HeartHandshake",
  "IdCard",
  "Leaf",
  "Lock",
  "Medal",
  "Newspaper",
  "PartyPopper",
  "Shield",
  "ShoppingBag",
  "Smile",
  "Sparkles",
  "Star",
  "Trophy",
  "UserRound",
  "Users",
] as const;
export const iconName = z.enum(ICON_NAMES);
export type IconName = z.infer<typeof iconName>;

// --- Identity and legal details (/admin/site) -------------------------------------------------------------

export const identitySchema = z.object({
  brand: requiredText(100),
  tagline: requiredText(300),
  experience: requiredText(100),
  label: text(100),
  email: z.string().trim().max(255).email(),
  phone: text(30),
  selfieBoothUrl: optionalUrl,
  social: z.object({ facebook: optionalUrl, instagram: optionalUrl, youtube: optionalUrl }),
  priceRange: text(10),
  /** The image shared with a link on social networks (Open Graph), and the logo of structured data. */
  shareImage: mediaRef.nullable(),
});
export type Identity = z.infer<typeof identitySchema>;

/** Decision 0176: « franchise » (no TVA, CGI art. 293 B's mention on each invoice) or « assujetti » (TVA). */
export const VAT_REGIMES = ["franchise", "assujetti"] as const;

const legalFields = z.object({
  companyName: requiredText(200),
  legalForm: requiredText(300),
  address: requiredText(300),
  rcs: requiredText(100),
  siret: requiredText(30),
  vatNumber: text(30),
  phone: requiredText(30),
  email: z.string().trim().max(255).email(),
  publicationDirector: requiredText(200),
  host: z.object({
    name: requiredText(200),
    address: requiredText(300),
    phone: requiredText(30),
    website: optionalUrl,
  }),
  vatRegime: z.enum(VAT_REGIMES),
  /** The consumer mediator the seller adheres to (Code de la consommation, L612-1 and L616-1). */
  mediator: z.object({ name: text(200), website: optionalUrl }).default({ name: "", website: "" }),
});

/**
 * The legal details; a document stored before decision 0176 has no TVA regime: one with a TVA number was
 * subject to it, one without was not (read so, not rewritten, so that its old revisions read alike).
 */
export const legalSchema = z.preprocess((value) => {
  if (!value || typeof value !== "object" || "vatRegime" in value) return value;
  const vatNumber = (value as { vatNumber?: unknown }).vatNumber;
  const subject = typeof vatNumber === "string" && vatNumber.trim() !== "";
  return { ...value, vatRegime: subject ? "assujetti" : "franchise" };
}, legalFields);
export type Legal = z.infer<typeof legalSchema>;

// --- Prices, gendarmerie, gift sessions (/admin/tarifs) ---------------------------------------------------

export const priceCardSchema = z.object({
  title: requiredText(100),
  price: priceSchema,
  icon: iconName,
  badge: text(40),
  features: z.array(requiredText(200)).max(12),
  link,
  /**
   * The session type this card's offer is booked as (decision 0127), by id; "" for a card booked by other
   * means. The card is then the one home of its price and of « ce qui est compris » (its features).
   */
  sessionType: z.union([z.literal(""), z.string().uuid()]).default(""),
});
export type PriceCard = z.infer<typeof priceCardSchema>;

export const PRICE_TAB_IDS = ["particuliers", "pro"] as const;
export const pricesSchema = z.object({
  tabs: z
    .array(
      z.object({
        id: z.enum(PRICE_TAB_IDS),
        label: requiredText(60),
        cards: z.array(priceCardSchema).max(20),
      }),
    )
    .length(2),
});
export type Prices = z.infer<typeof pricesSchema>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const gendarmerieSchema = z.object({
  offer: z.object({
    title: requiredText(100),
    /** The offer is shown from this day (ISO date), or always when empty. */
    validFrom: z.union([z.literal(""), isoDate]),
    /** …until this day included. */
    validUntil: z.union([z.literal(""), isoDate]),
  }),
  services: z
    .array(
      z.object({
        title: requiredText(100),
        price: priceSchema,
        icon: iconName,
        description: requiredText(500),
        features: z.array(requiredText(200)).max(12),
        photo: mediaRef,
        /** A YouTube video id: the card shows the photo as the video's poster, played on request. */
        youtubeId: z.union([z.literal(""), z.string().regex(/^[\w-]{6,20}$/)]),
        videoTitle: text(200),
      }),
    )
    .max(12),
  packages: z
    .array(
      z.object({
        title: requiredText(100),
        subtitle: text(150),
        discountPrice: priceSchema,
        originalPrice: priceSchema,
        icon: iconName,
        description: requiredText(500),
        features: z.array(requiredText(200)).max(12),
        highlighted: z.boolean(),
      }),
    )
    .max(8),
  selfieBooth: z.object({
    title: requiredText(100),
    price: priceSchema,
    unit: text(40),
    icon: iconName,
    description: requiredText(500),
    features: z.array(requiredText(200)).max(12),
    photo: mediaRef,
  }),
  /** The studio that handles this offer: every call to action of /gendarmerie goes to its contact page. */
  studioSlug: requiredText(60),
});
export type Gendarmerie = z.infer<typeof gendarmerieSchema>;

export const giftSessionsSchema = z.object({
  sessions: z
    .array(
      z.object({
        title: requiredText(100),
        price: priceSchema,
        description: requiredText(500),
        photo: mediaRef,
        link: url,
        /**
         * The session type a voucher for this session books (decision 0166): with a fixed price, the
         * session is sold as a gift voucher on /bons-cadeaux once vouchers are on sale; "" for none.
         */
        sessionType: z.union([z.literal(""), z.string().uuid()]).default(""),
      }),
    )
    .max(20),
});
export type GiftSessions = z.infer<typeof giftSessionsSchema>;

const testimonialSchema = z.object({
  quote: requiredText(1000),
  author: requiredText(100),
  location: text(100),
});
export const TESTIMONIAL_PAGES = ["gendarmerie", "portraitFamille", "grossesse"] as const;
export const testimonialsSchema = z.object({
  gendarmerie: z.array(testimonialSchema).max(12),
  portraitFamille: z.array(testimonialSchema).max(12),
  grossesse: z.array(testimonialSchema).max(12),
});
export type Testimonials = z.infer<typeof testimonialsSchema>;
export type Testimonial = z.infer<typeof testimonialSchema>;

// --- Photos (/admin/medias) -------------------------------------------------------------------------------

/**
 * Every single photo slot of the marketing pages. The page decides how a slot is drawn (a hero under the
 * title, a card's image); the owner decides which photo fills it.
 */
export const PHOTO_SLOTS = {
  "accueil.hero": "Accueil : grande photo",
  "prestations.hero": "Prestations : grande photo",
  "prestations.naissance": "Prestations : carte Naissance",
  "prestations.grossesse": "Prestations : carte Grossesse",
  "prestations.portrait-famille": "Prestations : carte Portrait & Famille",
  "prestations.mariages": "Prestations : carte Mariages",
  "prestations.seances-a-offrir": "Prestations : carte Séances à offrir",
  "prestations.professionnels": "Prestations : carte Professionnels",
  "portrait-famille.hero": "Portrait & Famille : grande photo",
  "grossesse.hero": "Grossesse : grande photo",
  "naissances.hero": "Naissances : grande photo",
  "mariages.hero": "Mariages : grande photo",
  "seances-a-offrir.hero": "Séances à offrir : grande photo",
  "professionnels.hero": "Professionnels : grande photo",
  "professionnels.portrait": "Professionnels : carte Portrait",
  "professionnels.reportage": "Professionnels : carte Reportage",
  "professionnels.evenement": "Professionnels : carte Événement",
  "professionnels.borne-selfie": "Professionnels : carte Location borne selfie",
  "professionnels.gendarmerie": "Professionnels : carte Gendarmerie",
  "professionnels.scolaire": "Professionnels : carte Scolaire",
  "gendarmerie.hero": "Gendarmerie : grande photo",
  "scolaire.hero": "Scolaire : grande photo",
  "scolaire.studio-mobile": "Scolaire : le studio mobile",
  "contact.hero": "Contact : grande photo",
} as const;
export type PhotoSlot = keyof typeof PHOTO_SLOTS;
export const photoSlotKeys = Object.keys(PHOTO_SLOTS) as [PhotoSlot, ...PhotoSlot[]];

const styleImageSchema = z.object({ title: requiredText(100), photo: mediaRef });
export type StyleImage = z.infer<typeof styleImageSchema>;

/** Photo galleries of a page: the style galleries of the service pages, and /boudoir's. */
export const STYLE_GALLERIES = {
  "portrait-famille": "Portrait & Famille : les styles",
  grossesse: "Grossesse : les photos",
  naissances: "Naissances : les styles",
  boudoir: "Boudoir : la galerie",
} as const;
export type StyleGalleryKey = keyof typeof STYLE_GALLERIES;

export const pagePhotosSchema = z.object({
  slots: z.record(z.enum(photoSlotKeys), mediaRef),
  galleries: z.object({
    "portrait-famille": z.array(styleImageSchema).max(30),
    grossesse: z.array(styleImageSchema).max(30),
    naissances: z.array(styleImageSchema).max(30),
    boudoir: z.array(styleImageSchema).max(30),
  }),
});
export type PagePhotos = z.infer<typeof pagePhotosSchema>;

export const GALLERY_CATEGORIES = ["Événement", "Famille", "Mariage"] as const;
export const gallerySchema = z.object({
  items: z
    .array(
      z.object({
        title: requiredText(150),
        category: z.enum(GALLERY_CATEGORIES),
        photo: mediaRef,
        /** The customer gallery on the photo-delivery service. */
        link: url,
      }),
    )
    .max(200),
});
export type Gallery = z.infer<typeof gallerySchema>;

// --- Studios (/admin/studios) -----------------------------------------------------------------------------

// The days are kept apart (no zod) for the pages that show hours.
export { DAYS, type DayOfWeek };

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);
export const openingRangeSchema = z
  .object({ opens: time, closes: time, note: text(100).optional() })
  .refine((range) => range.opens < range.closes, "la fermeture doit suivre l'ouverture");
export type OpeningRange = z.infer<typeof openingRangeSchema>;
export const weeklyHoursSchema = z.partialRecord(z.enum(DAYS), z.array(openingRangeSchema).max(4));
export type WeeklyHours = z.infer<typeof weeklyHoursSchema>;

/** A dated closure (holidays, a public holiday): the studio is closed from `from` to `to` included. */
export const closureSchema = z
  .object({ from: isoDate, to: isoDate, label: text(100) })
  .refine((closure) => closure.from <= closure.to, "la fin doit suivre le début");
export type Closure = z.infer<typeof closureSchema>;

const optionSchema = z.object({
  value: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    .max(50),
  label: requiredText(100),
});
export type Option = z.infer<typeof optionSchema>;

export const contactFormSettingsSchema = z.object({
  shootingTypes: z.array(optionSchema).min(1).max(30),
  sources: z.array(optionSchema).max(30),
  /** Ussel and Brive ask for a phone number (required); Limoges has no phone field. */
  telephone: z.enum(["required", "optional", "none"]),
  /** Brive requires the source; the others leave it optional. */
  sourceRequired: z.boolean(),
});
export type ContactFormSettings = z.infer<typeof contactFormSettingsSchema>;

export const STUDIO_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const studioDataSchema = z.object({
  name: requiredText(100),
  /** The city the studio is known by (« Limoges »), in menus and titles. */
  city: requiredText(100),
  description: requiredText(500),
  longDescription: text(3000),
  address: z.object({
    street: requiredText(200),
    postalCode: z.string().regex(/^\d{5}$/),
    city: requiredText(100),
  }),
  phone: requiredText(30),
  email: z.string().trim().max(255).email(),
  bookingUrl: optionalUrl,
  /**
   * « Réservation en ligne » (decision 0115): the studio's « Réserver » leads to the site's own
   * booking pages (/reserver/{slug}) instead of `bookingUrl`. Off until the owner turns it on.
   */
  onlineBooking: z.boolean().default(false),
  giftVoucherUrl: optionalUrl,
  hours: weeklyHoursSchema,
  closures: z.array(closureSchema).max(50),
  geo: z
    .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
    .nullable(),
  photo: mediaRef,
  contactForm: contactFormSettingsSchema,
});
export type StudioData = z.infer<typeof studioDataSchema>;

// --- Payments ----------------------------------------------------------------------------------------------

/** Whole euros the owner types for vouchers' amounts (presets, the free amount's bounds). */
const voucherEuros = z.number().int().min(5).max(5_000);

/**
 * How the site takes payments and sells gift vouchers (decision 0162). Off until the owner turns vouchers on;
 * each way of paying is hers to allow. The IBAN is stored compact (no spaces, capitals). The card's keys are
 * not here: they are secrets, kept encrypted apart (app/server/payments/payment-keys.server.ts).
 */
export const paymentsSchema = z.object({
  /** Gift vouchers on sale on /bons-cadeaux (the studios' « Offrir une séance » lead there). */
  vouchersOnSale: z.boolean().default(false),
  card: z.boolean().default(false),
  transfer: z.boolean().default(false),
  studio: z.boolean().default(false),
  transferHolder: text(200).default(""),
  transferIban: z
    .string()
    .max(34)
    .regex(/^([A-Z]{2}\d{2}[A-Z0-9]{11,30})?$/)
    .default(""),
  /** Days a transfer is awaited before the order is released (the buyer is told the date). */
  transferDays: z.number().int().min(1).max(30).default(8),
  /** How long a voucher is valid from its purchase, in months. */
  voucherValidityMonths: z.number().int().min(1).max(36).default(12),
  /** The amounts offered at one click on /bons-cadeaux, in whole euros. */
  amountPresets: z.array(voucherEuros).max(6).default([50, 100, 150, 200]),
  /** The free amount's bounds, in whole euros. */
  amountMin: voucherEuros.default(30),
  amountMax: voucherEuros.default(500),
});
export type PaymentSettings = z.infer<typeof paymentsSchema>;

// --- Documents --------------------------------------------------------------------------------------------

/** Every document of `site_documents`, by key, with its schema. */
export const documentSchemas = {
  identity: identitySchema,
  legal: legalSchema,
  prices: pricesSchema,
  gendarmerie: gendarmerieSchema,
  giftSessions: giftSessionsSchema,
  testimonials: testimonialsSchema,
  pagePhotos: pagePhotosSchema,
  gallery: gallerySchema,
  payments: paymentsSchema,
} as const;
export type DocumentKey = keyof typeof documentSchemas;
export type Documents = { [K in DocumentKey]: z.infer<(typeof documentSchemas)[K]> };
export const DOCUMENT_KEYS = Object.keys(documentSchemas) as DocumentKey[];

/** What the owner reads about each document in its history. */
export const DOCUMENT_LABELS: Record<DocumentKey, string> = {
  identity: "Identité du site",
  legal: "Mentions légales",
  prices: "Tarifs",
  gendarmerie: "Offre gendarmerie",
  giftSessions: "Séances à offrir",
  testimonials: "Témoignages",
  pagePhotos: "Photos des pages",
  gallery: "Galerie",
  payments: "Paiements et bons cadeaux",
};
