export type StudioId = "ussel" | "brive" | "limoges";

export type DayOfWeek =
  "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday";

/** One line of opening hours as a visitor reads it. */
export type HoursLine = { days: string; hours: string };

/** Machine-readable opening hours for search engines (schema.org OpeningHoursSpecification). */
export type OpeningSpecification = { days: DayOfWeek[]; opens: string; closes: string };

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
  /**
   * SPEC §9 gives two readings of the hours for some studios: the studio page's and the contact page's.
   * Each page shows its own reading.
   */
  hours: { studioPage: HoursLine[]; contactPage: HoursLine[] };
  openingSpecification: OpeningSpecification[];
  pagePath: `/studio-${StudioId}`;
  contactPath: `/contact-studio-${StudioId}`;
};

const tuesdayToFriday: DayOfWeek[] = ["Tuesday", "Wednesday", "Thursday", "Friday"];
const tuesdayToSaturday: DayOfWeek[] = [...tuesdayToFriday, "Saturday"];

const appointmentOnlyReading: HoursLine[] = [
  { days: "Du mardi au vendredi", hours: "9h – 12h sans rendez-vous" },
  { days: "Du mardi au vendredi", hours: "14h – 18h sur rendez-vous uniquement" },
  { days: "Le samedi", hours: "sur rendez-vous uniquement" },
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
    hours: {
      studioPage: [
        { days: "Du mardi au vendredi", hours: "9h – 12h30, après-midi sur rendez-vous" },
        { days: "Le samedi", hours: "9h – 14h" },
      ],
      contactPage: appointmentOnlyReading,
    },
    openingSpecification: [
      { days: tuesdayToFriday, opens: "09:00", closes: "12:30" },
      { days: ["Saturday"], opens: "09:00", closes: "14:00" },
    ],
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
    hours: {
      studioPage: [{ days: "Du lundi au samedi", hours: "9h – 18h, sur rendez-vous" }],
      contactPage: [{ days: "Du mardi au samedi", hours: "9h – 12h et 14h – 18h" }],
    },
    openingSpecification: [
      {
        days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
        opens: "09:00",
        closes: "18:00",
      },
    ],
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
    hours: {
      studioPage: [{ days: "Du mardi au samedi", hours: "9h – 12h et 14h – 18h" }],
      contactPage: appointmentOnlyReading,
    },
    openingSpecification: [
      { days: tuesdayToSaturday, opens: "09:00", closes: "12:00" },
      { days: tuesdayToSaturday, opens: "14:00", closes: "18:00" },
    ],
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
