import {
  ICON_NAMES,
  PRICE_TAB_IDS,
  VAT_REGIMES,
  type DocumentKey,
  type Documents,
  type IconName,
} from "~/content/schemas";
import { isIsoDay } from "./dates";
import {
  formatSiret,
  formatVatNumber,
  siretProblem,
  vatNumberFormProblem,
  vatNumberMatchesSiret,
} from "./legal/seller";
import { flatten, type FormTree } from "./forms";
import { formatPriceInput, INVALID_PRICE_MESSAGE, parsePriceInput } from "./price-input";
import type { Price } from "./prices";
import { z } from "./zod";
import { paymentSettingsValues } from "~/lib/payments/settings-form";

/*
 * The admin's forms of the site's documents (decision 0070): for each document, the schema that
 * reads what the owner typed (French prices, one feature per line, dates) into the stored value, with a
 * French message at each field, and the way back (a stored value as the form shows it). Field names are
 * paths (`tabs.0.cards.3.price`, see `parseNestedForm`). An item with a photo (gift session, service, photo
 * of a style gallery) names it by its media id, chosen in a list of the library's photos; the single photos
 * (selfie booth, share image) travel as hidden fields and are replaced in /admin/medias.
 */

export const REQUIRED_MESSAGE = "Ce champ est requis";
const tooLong = (max: number) => `${max} caractères au maximum`;

const requiredText = (max: number, message = REQUIRED_MESSAGE) =>
  z.string({ error: message }).trim().min(1, message).max(max, tooLong(max));
const optionalText = (max: number) =>
  z.string({ error: REQUIRED_MESSAGE }).trim().max(max, tooLong(max)).default("");

export const EMAIL_MESSAGE = "Adresse e-mail invalide : par exemple contact@studio.fr";
const email = z
  .string({ error: EMAIL_MESSAGE })
  .trim()
  .min(1, "L'adresse e-mail est requise")
  .max(255, tooLong(255))
  .email(EMAIL_MESSAGE);

export const URL_MESSAGE = "Adresse web invalide : elle commence par https://";
const isWebAddress = (value: string) =>
  /^https?:\/\/[^\s/]+\.[^\s]+$/.test(value) && URL.canParse(value);
const webAddress = z
  .string({ error: URL_MESSAGE })
  .trim()
  .min(1, REQUIRED_MESSAGE)
  .max(500, tooLong(500))
  .refine(isWebAddress, URL_MESSAGE);
const optionalWebAddress = z
  .string({ error: URL_MESSAGE })
  .trim()
  .max(500, tooLong(500))
  .default("")
  .refine((value) => value === "" || isWebAddress(value), URL_MESSAGE);

const LINK_MESSAGE =
  "Lien invalide : une page du site (par exemple /tarifs) ou une adresse complète (https://…)";
const link = z
  .string({ error: LINK_MESSAGE })
  .trim()
  .min(1, REQUIRED_MESSAGE)
  .max(500, tooLong(500))
  .refine((value) => /^\/(?!\/)\S*$/.test(value) || isWebAddress(value), LINK_MESSAGE);

const price = z.string({ error: INVALID_PRICE_MESSAGE }).transform((value, context): Price => {
  const parsed = parsePriceInput(value);
  if (parsed) return parsed;
  context.addIssue({ code: "custom", message: INVALID_PRICE_MESSAGE });
  return z.NEVER;
});

const MAX_FEATURES = 12;
/** One feature per line; empty lines are left out. */
const features = z
  .string()
  .default("")
  .transform((value) =>
    value
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(z.string().max(200, "Chaque ligne : 200 caractères au maximum"))
      .max(MAX_FEATURES, `${MAX_FEATURES} lignes au maximum`),
  );

const icon = z.enum(ICON_NAMES, { error: "Choisissez une icône de la liste" });
const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on");
export const PHOTO_MESSAGE = "Choisissez une photo de la liste";
const photo = z.string({ error: PHOTO_MESSAGE }).uuid(PHOTO_MESSAGE);

const DATE_MESSAGE = "Date invalide";
const optionalDate = z
  .string()
  .trim()
  .default("")
  .refine((value) => value === "" || isIsoDay(value), DATE_MESSAGE);

const YOUTUBE_MESSAGE =
  "Vidéo YouTube invalide : collez l'adresse de la vidéo (https://www.youtube.com/watch?v=…) ou son identifiant";
/** A YouTube video's id, from the id itself or from the video's address. */
export function youtubeIdFrom(input: string): string | null {
  const text = input.trim();
  if (text === "") return "";
  if (/^[\w-]{6,20}$/.test(text)) return text;
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  const host = url.hostname.replace(/^(www|m)\./, "");
  const id =
    host === "youtu.be"
      ? url.pathname.slice(1)
      : host === "youtube.com" || host === "youtube-nocookie.com"
        ? (url.searchParams.get("v") ?? url.pathname.match(/^\/(?:embed|shorts)\/([^/]+)/)?.[1])
        : undefined;
  return id && /^[\w-]{6,20}$/.test(id) ? id : null;
}
const youtubeId = z
  .string()
  .default("")
  .transform((value, context) => {
    const id = youtubeIdFrom(value);
    if (id !== null) return id;
    context.addIssue({ code: "custom", message: YOUTUBE_MESSAGE });
    return z.NEVER;
  });

/** A list the owner can add to: a missing list (every item removed) is an empty one. */
const list = <Item extends z.ZodType>(item: Item, max: number, what: string) =>
  z.array(item).max(max, `${max} ${what} au maximum`).default([]);

// --- Labels ---------------------------------------------------------------------------------------------

/** The icons' names as the owner reads them. */
export const ICON_LABELS: Record<IconName, string> = {
  Award: "Récompense",
  Baby: "Bébé",
  BadgeCheck: "Badge validé",
  BookOpen: "Livre ouvert",
  Briefcase: "Mallette",
  CalendarCheck: "Calendrier",
  Camera: "Appareil photo",
  Clapperboard: "Clap de cinéma",
  Clock: "Horloge",
  Gift: "Cadeau",
  GraduationCap: "Toque de diplômé",
  Heart: "Cœur",
  HeartHandshake: "Mains et cœur",
  IdCard: "Carte d'identité",
  Leaf: "Feuille",
  Lock: "Cadenas",
  Medal: "Médaille",
  Newspaper: "Journal",
  PartyPopper: "Fête",
  Shield: "Bouclier",
  ShoppingBag: "Sac de courses",
  Smile: "Sourire",
  Sparkles: "Étincelles",
  Star: "Étoile",
  Trophy: "Trophée",
  UserRound: "Personne",
  Users: "Groupe de personnes",
};

// --- Identity and legal details -------------------------------------------------------------------------

// The identity form is described by its field table: lib/identity-form.ts.

/** A SIRET checked as INSEE numbers them, written in its four groups (decision 0176). */
const siret = requiredText(30)
  .superRefine((value, context) => {
    const problem = value === "" ? null : siretProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  })
  .transform(formatSiret);

/** A TVA number of the French form, if any, written « FR40 123456789 ». */
const vatNumber = optionalText(30)
  .superRefine((value, context) => {
    const problem = value === "" ? null : vatNumberFormProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  })
  .transform(formatVatNumber);

export const VAT_REGIME_MESSAGE = "Choisissez si le studio facture la TVA";

export const legalForm = z
  .object({
    companyName: requiredText(200),
    legalForm: requiredText(300),
    address: requiredText(300),
    rcs: requiredText(100),
    siret,
    vatNumber,
    vatRegime: z.enum(VAT_REGIMES, { error: VAT_REGIME_MESSAGE }),
    mediator: z.object(
      { name: optionalText(200), website: optionalWebAddress },
      { error: REQUIRED_MESSAGE },
    ),
    phone: requiredText(30),
    email,
    publicationDirector: requiredText(200),
    host: z.object(
      {
        name: requiredText(200),
        address: requiredText(300),
        phone: requiredText(30),
        website: optionalWebAddress,
      },
      { error: REQUIRED_MESSAGE },
    ),
  })
  // Subject to TVA, each invoice carries the company's own number (CGI art. 242 nonies A).
  .superRefine((legal, context) => {
    if (legal.vatRegime !== "assujetti") return;
    const message =
      legal.vatNumber === ""
        ? "Indiquez le numéro de TVA intracommunautaire : il figure sur chaque facture"
        : vatNumberMatchesSiret(legal.vatNumber, legal.siret)
          ? null
          : "Ce numéro de TVA ne correspond pas au SIREN du SIRET : vérifiez l'un et l'autre";
    if (message) context.addIssue({ code: "custom", path: ["vatNumber"], message });
  });

// --- Prices ---------------------------------------------------------------------------------------------

/** A session type chosen in a list (decision 0127, 0166); "" for none. */
const sessionTypeChoice = z
  .union([z.literal(""), z.uuid()], {
    error: "Séance inconnue : choisissez-en une dans la liste",
  })
  .default("");

const priceCardForm = z.object({
  title: requiredText(100),
  price,
  icon,
  badge: optionalText(40),
  features,
  link,
  /** The session type the card is booked as (decision 0127), chosen in a list; "" for none. */
  sessionType: sessionTypeChoice,
});

export const pricesForm = z.object({
  tabs: z
    .array(
      z.object({
        id: z.enum(PRICE_TAB_IDS),
        label: requiredText(60),
        cards: list(priceCardForm, 20, "cartes"),
      }),
    )
    .length(2, "Les deux onglets sont requis"),
});

// --- Gendarmerie ----------------------------------------------------------------------------------------

export const gendarmerieForm = z.object({
  offer: z
    .object({
      title: requiredText(100),
      validFrom: optionalDate,
      validUntil: optionalDate,
    })
    .refine(
      (offer) => !offer.validFrom || !offer.validUntil || offer.validFrom <= offer.validUntil,
      { message: "La fin de l'offre doit suivre son début", path: ["validUntil"] },
    ),
  services: list(
    z.object({
      title: requiredText(100),
      price,
      icon,
      description: requiredText(500),
      features,
      photo,
      youtubeId,
      videoTitle: optionalText(200),
    }),
    12,
    "prestations",
  ),
  packages: list(
    z.object({
      title: requiredText(100),
      subtitle: optionalText(150),
      discountPrice: price,
      originalPrice: price,
      icon,
      description: requiredText(500),
      features,
      highlighted: checkbox,
    }),
    8,
    "formules",
  ),
  selfieBooth: z.object({
    title: requiredText(100),
    price,
    unit: optionalText(40),
    icon,
    description: requiredText(500),
    features,
    photo,
  }),
  studioSlug: requiredText(60, "Choisissez un studio"),
});

// --- Gift sessions, testimonials ------------------------------------------------------------------------

export const giftSessionsForm = z.object({
  sessions: list(
    z.object({
      title: requiredText(100),
      price,
      description: requiredText(500),
      photo,
      link: webAddress,
      sessionType: sessionTypeChoice,
    }),
    20,
    "séances",
  ),
});

const testimonialForm = z.object({
  quote: requiredText(1000),
  author: requiredText(100),
  location: optionalText(100),
});
export const testimonialsForm = z.object({
  gendarmerie: list(testimonialForm, 12, "témoignages"),
  portraitFamille: list(testimonialForm, 12, "témoignages"),
  grossesse: list(testimonialForm, 12, "témoignages"),
});

// --- Style galleries (/admin/medias/emplacements) ------------------------------------------------------

/** The `document` a style gallery's form posts: `style:{gallery}` (the page has one form per gallery). */
export const STYLE_DOCUMENT_PREFIX = "style:";

/** One style gallery (Portrait & Famille, Grossesse, Naissances, Boudoir): its photos, each with a title. */
export const styleGalleryForm = z.object({
  photos: list(z.object({ title: requiredText(100), photo }), 30, "photos"),
});

/** A style gallery as its form shows it. */
export function styleGalleryValues(
  items: ReadonlyArray<{ title: string; photo: string }>,
): Record<string, string> {
  return flatten({ photos: items.map((item) => ({ title: item.title, photo: item.photo })) });
}

// --- Stored value → form --------------------------------------------------------------------------------

const lines = (items: readonly string[]) => items.join("\n");
const checked = (value: boolean): Record<string, FormTree> => (value ? { highlighted: "on" } : {});

/** What the form shows for each stored document (prices as the site writes them, one feature a line). */
export const documentTrees = {
  identity: ({ shareImage: _shareImage, ...identity }: Documents["identity"]): FormTree => ({
    ...identity,
    social: { ...identity.social },
  }),
  legal: (legal: Documents["legal"]): FormTree => ({
    ...legal,
    host: { ...legal.host },
    mediator: { ...legal.mediator },
  }),
  prices: (prices: Documents["prices"]): FormTree => ({
    tabs: prices.tabs.map((tab) => ({
      id: tab.id,
      label: tab.label,
      cards: tab.cards.map((card) => ({
        ...card,
        price: formatPriceInput(card.price),
        features: lines(card.features),
      })),
    })),
  }),
  gendarmerie: (offer: Documents["gendarmerie"]): FormTree => ({
    offer: { ...offer.offer },
    services: offer.services.map((service) => ({
      ...service,
      price: formatPriceInput(service.price),
      features: lines(service.features),
    })),
    packages: offer.packages.map(({ highlighted, ...item }) => ({
      ...item,
      discountPrice: formatPriceInput(item.discountPrice),
      originalPrice: formatPriceInput(item.originalPrice),
      features: lines(item.features),
      ...checked(highlighted),
    })),
    selfieBooth: {
      ...offer.selfieBooth,
      price: formatPriceInput(offer.selfieBooth.price),
      features: lines(offer.selfieBooth.features),
    },
    studioSlug: offer.studioSlug,
  }),
  giftSessions: (gifts: Documents["giftSessions"]): FormTree => ({
    sessions: gifts.sessions.map((session) => ({
      ...session,
      price: formatPriceInput(session.price),
    })),
  }),
  testimonials: (testimonials: Documents["testimonials"]): FormTree => ({
    gendarmerie: testimonials.gendarmerie.map((item) => ({ ...item })),
    portraitFamille: testimonials.portraitFamille.map((item) => ({ ...item })),
    grossesse: testimonials.grossesse.map((item) => ({ ...item })),
  }),
  payments: (settings: Documents["payments"]): FormTree => paymentSettingsValues(settings),
} satisfies Partial<{ [K in DocumentKey]: (value: Documents[K]) => FormTree }>;

export type FormDocumentKey = keyof typeof documentTrees;

/** A stored document as its form's values. */
export function documentValues<K extends FormDocumentKey>(
  key: K,
  value: Documents[K],
): Record<string, string> {
  return flatten((documentTrees[key] as (value: Documents[K]) => FormTree)(value));
}

const emptyCard = {
  title: "",
  price: "",
  icon: "Camera",
  badge: "",
  features: "",
  link: "",
  sessionType: "",
};
const emptyTestimonial = { quote: "", author: "", location: "" };

/**
 * The lists the owner can add items to (« Ajouter une carte »), by path with `*` for an index, and the
 * item each starts with. An item with a photo starts without one: the form asks for it (a list of the
 * library's photos), and refuses to save until it is chosen.
 */
export const LIST_TEMPLATES: Record<string, Record<string, string>> = {
  "tabs.*.cards": emptyCard,
  sessions: { title: "", price: "", description: "", photo: "", link: "", sessionType: "" },
  services: {
    title: "",
    price: "",
    icon: "Camera",
    description: "",
    features: "",
    photo: "",
    youtubeId: "",
    videoTitle: "",
  },
  photos: { title: "", photo: "" },
  packages: {
    title: "",
    subtitle: "",
    discountPrice: "",
    originalPrice: "",
    icon: "Star",
    description: "",
    features: "",
  },
  gendarmerie: emptyTestimonial,
  portraitFamille: emptyTestimonial,
  grossesse: emptyTestimonial,
};

/** The template of the list at `path` (`tabs.1.cards` → the price card's), if items can be added to it. */
export function listTemplate(path: string): Record<string, string> | undefined {
  return LIST_TEMPLATES[path.replace(/\.\d+(?=\.|$)/g, ".*")];
}

// --- Lists without JavaScript ---------------------------------------------------------------------------

/** The buttons that change a list (each posts `intent`): add to `path`, or remove/move the item `path.i`. */
export const listIntent = {
  add: (list: string) => `add:${list}`,
  remove: (item: string) => `remove:${item}`,
  up: (item: string) => `up:${item}`,
  down: (item: string) => `down:${item}`,
};

const LIST_INTENT = /^(add|remove|up|down):([A-Za-z][\w-]*(?:\.(?:\d{1,3}|[A-Za-z][\w-]*))*)$/;

function childAt(tree: FormTree, segment: string): FormTree | undefined {
  if (typeof tree === "string") return undefined;
  if (Array.isArray(tree)) return /^\d+$/.test(segment) ? tree[Number(segment)] : undefined;
  return Object.hasOwn(tree, segment) ? tree[segment] : undefined;
}

/**
 * What the form becomes after a list button (« Ajouter une carte », « Retirer », « Monter »…): the values
 * with the list changed, everything typed kept. Undefined when `intent` is not a list button, or names a
 * list or an item that does not exist (a crafted post).
 */
export function applyListIntent(
  tree: { [key: string]: FormTree },
  intent: string,
): { [key: string]: FormTree } | undefined {
  const match = LIST_INTENT.exec(intent);
  if (!match) return undefined;
  const [, action, path = ""] = match;
  const segments = path.split(".");
  const copy = structuredClone(tree);
  if (action === "add") {
    const template = listTemplate(path);
    if (!template) return undefined;
    const parent = segments
      .slice(0, -1)
      .reduce<FormTree | undefined>(
        (node, segment) => (node === undefined ? undefined : childAt(node, segment)),
        copy,
      );
    const name = segments.at(-1) ?? "";
    if (!parent || typeof parent === "string" || Array.isArray(parent)) return undefined;
    const current = Object.hasOwn(parent, name) ? parent[name] : [];
    if (!Array.isArray(current)) return undefined;
    parent[name] = [...current, { ...template }];
    return copy;
  }
  const index = Number(segments.at(-1));
  const listNode = segments
    .slice(0, -1)
    .reduce<FormTree | undefined>(
      (node, segment) => (node === undefined ? undefined : childAt(node, segment)),
      copy,
    );
  if (!Array.isArray(listNode) || !Number.isInteger(index) || index >= listNode.length) {
    return undefined;
  }
  if (action === "remove") listNode.splice(index, 1);
  else {
    const target = action === "up" ? index - 1 : index + 1;
    if (target < 0 || target >= listNode.length) return copy;
    const [item] = listNode.splice(index, 1);
    if (item !== undefined) listNode.splice(target, 0, item);
  }
  return copy;
}
