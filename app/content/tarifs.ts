import { Baby, Briefcase, Gift, Heart, IdCard, Users, type LucideIcon } from "lucide-react";
import { fixedPrice, formatPrice, onQuote, priceFrom, type Price } from "~/lib/prices";
import { sessionFacts } from "./prestations";

/** A card of the prices page (SPEC §3 "Price card"). */
export type PriceCard = {
  title: string;
  price: Price;
  icon: LucideIcon;
  badge?: string;
  features: string[];
  /** The page that tells more about this session ('En savoir plus'). */
  link: string;
};

export type PriceTab = {
  /** Value of the `onglet` URL parameter. */
  id: "particuliers" | "pro";
  label: string;
  cards: PriceCard[];
};

const printIncluded = "Un tirage papier 20x30 cm offert";

export const priceTabs: PriceTab[] = [
  {
    id: "particuliers",
    label: "Particuliers",
    cards: [
      {
        title: "Séance Famille",
        price: fixedPrice(79),
        icon: Users,
        features: [
          `Séance de ${sessionFacts.famille.duration} en studio`,
          printIncluded,
          `Découverte de vos photos ${sessionFacts.famille.discovery}`,
        ],
        link: "/portrait-famille",
      },
      {
        title: "Séance Grossesse",
        price: fixedPrice(79),
        icon: Heart,
        features: [
          `Séance de ${sessionFacts.grossesse.duration}, ${sessionFacts.grossesse.idealMoment}`,
          printIncluded,
          `Découverte de vos photos ${sessionFacts.grossesse.discovery}`,
        ],
        link: "/prestations/grossesse",
      },
      {
        title: "Séance Naissance",
        price: fixedPrice(99),
        icon: Baby,
        features: [
          `Séance de ${sessionFacts.naissance.duration}, ${sessionFacts.naissance.idealMoment}`,
          printIncluded,
          `Découverte de vos photos ${sessionFacts.naissance.discovery}`,
        ],
        link: "/prestations/naissances",
      },
      {
        title: "Coffret Grossesse + Naissance",
        price: fixedPrice(129),
        icon: Gift,
        badge: "Meilleur Prix",
        features: [
          "Une séance grossesse puis une séance naissance",
          "Un tirage papier 20x30 cm offert à chaque séance",
          "Découverte de vos photos 15 jours après chaque séance",
        ],
        link: "/prestations/naissances",
      },
      {
        title: "Portrait CV",
        price: fixedPrice(59),
        icon: IdCard,
        features: [
          "Portrait professionnel en studio",
          "Photos retouchées pour votre CV et vos réseaux",
          "Conseils de pose et de tenue",
        ],
        link: "/professionnels",
      },
    ],
  },
  {
    id: "pro",
    label: "Pro & Mariages",
    cards: [
      {
        title: "Mariages",
        price: priceFrom(990),
        icon: Heart,
        badge: "Populaire",
        features: [
          "Reportage des préparatifs à la soirée",
          `Réservation ${sessionFacts.mariage.booking}`,
          `Vos photos livrées ${sessionFacts.mariage.delivery}`,
        ],
        link: "/prestations/mariages",
      },
      {
        title: "Prestations Pro",
        price: onQuote,
        icon: Briefcase,
        features: [
          "Portraits d'équipe et de dirigeants",
          "Reportages et événements d'entreprise",
          "Devis personnalisé selon votre projet",
        ],
        link: "/professionnels",
      },
    ],
  },
];

export const defaultPriceTab = "particuliers" satisfies PriceTab["id"];

/** The tab named by `?onglet=`, the default one for any other value. */
export function priceTabFromParameter(value: string | null): PriceTab["id"] {
  return value === "pro" ? "pro" : defaultPriceTab;
}

/** The price of a card, for the pages that quote it (« 79 € »). */
export function priceOf(title: string): string {
  const card = priceTabs.flatMap((tab) => tab.cards).find((candidate) => candidate.title === title);
  if (!card) throw new Error(`Tarif inconnu : ${title}`);
  return formatPrice(card.price);
}
