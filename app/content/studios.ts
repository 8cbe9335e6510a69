export type StudioId = "ussel" | "brive" | "limoges";

export type DayOfWeek =
  "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";

/** One opening of a day, in 24-hour "HH:MM" time, with what a visitor should know about it. */
export type OpeningRange = { opens: string; closes: string; note?: string };

/**
 * A studio's week: the one source of its hours (pages, structured data). A day absent or with no range is
 * closed. Docs: docs/decisions/0022-opening-hours.md.
 */
export type WeeklyHours = Partial<Record<DayOfWeek, OpeningRange[]>>;

export type Studio = {
  id: StudioId;
  name: string;
  city: string;
  description: string;
  /** Photo file in app/assets/photos, without extension. */
  image: string;
  address: { street: string; postalCode: string; city: string };
  /** PLACEHOLDER phone numbers: the range 05 36 49 xx xx is reserved for fiction. */
  phone: string;
  /** PLACEHOLDER */
  email: string;
  /** PLACEHOLDER: external online booking service. */
  bookingUrl: string;
  /** PLACEHOLDER: external gift-voucher shop. */
  giftVoucherUrl: string;
  hours: WeeklyHours;
  pagePath: `/studio-${StudioId}`;
  contactPath: `/contact-studio-${StudioId}`;
};

/** The same ranges on each of the given days. */
function everyDay(days: DayOfWeek[], ranges: OpeningRange[]): WeeklyHours {
  return Object.fromEntries(days.map((day) => [day, ranges]));
}

const tuesdayToFriday: DayOfWeek[] = ["Tuesday", "Wednesday", "Thursday", "Friday"];
const tuesdayToSaturday: DayOfWeek[] = [...tuesdayToFriday, "Saturday"];
const morningAndAfternoon: OpeningRange[] = [
  { opens: "09:00", closes: "12:00" },
  { opens: "14:00", closes: "18:00" },
];

export const studios: Studio[] = [
  {
    id: "ussel",
    name: "Studio d'Ussel",
    city: "Ussel",
    description:
      "Notre studio historique au cœur de la Haute-Corrèze : portraits, familles, naissances et mariages dans un espace lumineux et chaleureux.",
    image: "studio-ussel",
    address: { street: "19 rue du 4 Septembre", postalCode: "19200", city: "Ussel" },
    phone: "05 36 49 10 01",
    email: "ussel@example.com",
    bookingUrl: "https://reservation.example.com/studio-ussel",
    giftVoucherUrl: "https://bons-cadeaux.example.com/studio-ussel",
    // The contact page's reading (SPEC §2 and §9); Saturday keeps the studio page's 9h – 14h.
    hours: {
      ...everyDay(tuesdayToFriday, [
        { opens: "09:00", closes: "12:00", note: "sans rendez-vous" },
        { opens: "14:00", closes: "18:00", note: "sur rendez-vous uniquement" },
      ]),
      Saturday: [{ opens: "09:00", closes: "14:00", note: "sur rendez-vous uniquement" }],
    },
    pagePath: "/studio-ussel",
    contactPath: "/contact-studio-ussel",
  },
  {
    id: "brive",
    name: "Studio de Brive",
    city: "Brive",
    description:
      "Au centre de Brive-la-Gaillarde, un studio pensé pour les séances en famille, les grossesses et les portraits professionnels.",
    image: "studio-brive",
    address: { street: "26 Boulevard Jules Ferry", postalCode: "19100", city: "Brive" },
    phone: "05 36 49 10 02",
    email: "brive@example.com",
    bookingUrl: "https://reservation.example.com/studio-brive",
    giftVoucherUrl: "https://bons-cadeaux.example.com/studio-brive",
    // The contact page's reading (SPEC §2 and §9): closed on Monday.
    hours: everyDay(tuesdayToSaturday, morningAndAfternoon),
    pagePath: "/studio-brive",
    contactPath: "/contact-studio-brive",
  },
  {
    id: "limoges",
    name: "Studio de Limoges",
    city: "Ambazac",
    description:
      "À Ambazac, aux portes de Limoges, un studio au calme pour les nouveau-nés, les portraits et les séances boudoir.",
    image: "studio-limoges",
    address: { street: "16 Rue Jouanet", postalCode: "87240", city: "Ambazac" },
    phone: "05 36 49 10 03",
    email: "limoges@example.com",
    bookingUrl: "https://reservation.example.com/studio-limoges",
    giftVoucherUrl: "https://bons-cadeaux.example.com/studio-limoges",
    // SPEC §9 gives Limoges one reading (its contact page, §2, says "like Ussel": not kept).
    hours: everyDay(tuesdayToSaturday, morningAndAfternoon),
    pagePath: "/studio-limoges",
    contactPath: "/contact-studio-limoges",
  },
];

export function studioById(id: StudioId): Studio {
  const studio = studios.find((candidate) => candidate.id === id);
  if (!studio) throw new Error(`Studio inconnu : ${id}`);
  return studio;
}

/** "05 36 49 10 01" → "tel:+33536491001" */
export function telHref(phone: string): string {
  return `tel:+33${phone.replace(/\D/g, "").replace(/^0/, "")}`;
}
