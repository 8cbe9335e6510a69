import type { IconName, PhotoSlot } from "~/content/schemas";

/** SPEC §3 "Professional service": the text is the page's, the photo the owner's (its slot). */
export type ProfessionalService = {
  title: string;
  description: string;
  photo: PhotoSlot;
  icon: IconName;
  /** A page of the site, or the selfie-booth rental site (the identity's address, in a new tab). */
  link?: { href: string } | "selfie-booth";
};

export const professionalServices: ProfessionalService[] = [
  {
    title: "Portrait",
    description:
      "Portraits de dirigeants et d'équipes, photos pour vos sites et réseaux, au studio ou dans vos locaux.",
    photo: "professionnels.portrait",
    icon: "UserRound",
  },
  {
    title: "Reportage",
    description:
      "Votre activité, vos savoir-faire et vos locaux racontés en images pour votre communication.",
    photo: "professionnels.reportage",
    icon: "Newspaper",
  },
  {
    title: "Événement",
    description:
      "Séminaires, inaugurations, salons et soirées : un reportage discret, des photos livrées rapidement.",
    photo: "professionnels.evenement",
    icon: "PartyPopper",
  },
  {
    title: "Location borne selfie",
    description:
      "Une borne photo pour animer vos soirées et événements, avec impressions instantanées.",
    photo: "professionnels.borne-selfie",
    icon: "Camera",
    link: "selfie-booth",
  },
  {
    title: "Gendarmerie",
    description:
      "Photos de groupe, cérémonies, galas et vidéo : une offre dédiée aux unités de gendarmerie.",
    photo: "professionnels.gendarmerie",
    icon: "Shield",
    link: { href: "/gendarmerie" },
  },
  {
    title: "Scolaire",
    description:
      "Photos de classe et portraits individuels dans votre établissement, avec notre studio mobile.",
    photo: "professionnels.scolaire",
    icon: "GraduationCap",
    link: { href: "/scolaire" },
  },
];

export type Reason = { title: string; description: string; icon: IconName };

/** The three reasons of SPEC §2; the first one names the business's label and experience (its identity). */
export function reasonsToChooseUs(identity: { label: string; experience: string }): Reason[] {
  return [
    {
      title: "L'expérience",
      description: `${identity.label}, ${identity.experience} au service des entreprises et des institutions.`,
      icon: "Award",
    },
    {
      title: "La réactivité",
      description:
        "Un devis rapide, une organisation souple et des photos livrées dans les délais convenus.",
      icon: "Clock",
    },
    {
      title: "La qualité",
      description:
        "Du matériel professionnel, une retouche soignée et des images prêtes à publier.",
      icon: "Sparkles",
    },
  ];
}

/** A mailto: link to the business's address asking for a quote, the subject filled in. */
export const quoteRequestMailto = (email: string, subject: string) =>
  `mailto:${email}?subject=${encodeURIComponent(subject)}`;

export const PROFESSIONAL_QUOTE_SUBJECT = "Demande de devis professionnel";
