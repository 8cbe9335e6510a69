import type { Picture } from "imagetools-core";
import {
  Award,
  Camera,
  Clock,
  GraduationCap,
  Newspaper,
  PartyPopper,
  Shield,
  Sparkles,
  UserRound,
  type LucideIcon,
} from "lucide-react";
import borneSelfie from "~/assets/photos/borne-selfie.jpg?photo";
import gendarmerie from "~/assets/photos/gendarmerie-hero.jpg?photo";
import portrait from "~/assets/photos/pro-portrait.jpg?photo";
import reportage from "~/assets/photos/pro-reportage.jpg?photo";
import evenement from "~/assets/photos/pro-evenement.jpg?photo";
import scolaire from "~/assets/photos/scolaire-hero.jpg?photo";
import { site } from "./site";

/** A link of a card: a page of the site, or another site (opened in a new tab). */
export type CardLink = { href: string; external?: boolean };

/** SPEC §3 "Professional service". */
export type ProfessionalService = {
  title: string;
  description: string;
  photo: Picture;
  icon: LucideIcon;
  link?: CardLink;
};

export const professionalServices: ProfessionalService[] = [
  {
    title: "Portrait",
    description:
      "Portraits de dirigeants et d'équipes, photos pour vos sites et réseaux, au studio ou dans vos locaux.",
    photo: portrait,
    icon: UserRound,
  },
  {
    title: "Reportage",
    description:
      "Votre activité, vos savoir-faire et vos locaux racontés en images pour votre communication.",
    photo: reportage,
    icon: Newspaper,
  },
  {
    title: "Événement",
    description:
      "Séminaires, inaugurations, salons et soirées : un reportage discret, des photos livrées rapidement.",
    photo: evenement,
    icon: PartyPopper,
  },
  {
    title: "Location borne selfie",
    description:
      "Une borne photo pour animer vos soirées et événements, avec impressions instantanées.",
    photo: borneSelfie,
    icon: Camera,
    link: { href: site.selfieBoothUrl, external: true },
  },
  {
    title: "Gendarmerie",
    description:
      "Photos de groupe, cérémonies, galas et vidéo : une offre dédiée aux unités de gendarmerie.",
    photo: gendarmerie,
    icon: Shield,
    link: { href: "/gendarmerie" },
  },
  {
    title: "Scolaire",
    description:
      "Photos de classe et portraits individuels dans votre établissement, avec notre studio mobile.",
    photo: scolaire,
    icon: GraduationCap,
    link: { href: "/scolaire" },
  },
];

export type Reason = { title: string; description: string; icon: LucideIcon };

export const reasonsToChooseUs: Reason[] = [
  {
    title: "L'expérience",
    description: `${site.label}, ${site.experience} au service des entreprises et des institutions.`,
    icon: Award,
  },
  {
    title: "La réactivité",
    description:
      "Un devis rapide, une organisation souple et des photos livrées dans les délais convenus.",
    icon: Clock,
  },
  {
    title: "La qualité",
    description: "Du matériel professionnel, une retouche soignée et des images prêtes à publier.",
    icon: Sparkles,
  },
];

/** A mailto: link asking for a quote, the subject filled in. */
export const quoteRequestMailto = (subject: string) =>
  `mailto:${site.email}?subject=${encodeURIComponent(subject)}`;

export const quoteRequestHref = quoteRequestMailto("Demande de devis professionnel");
