import type { Picture } from "imagetools-core";
import {
  Camera,
  Clapperboard,
  Medal,
  PartyPopper,
  Star,
  Trophy,
  Users,
  type LucideIcon,
} from "lucide-react";
import groupe from "~/assets/photos/gendarmerie-groupe.jpg?photo";
import ceremonie from "~/assets/photos/gendarmerie-ceremonie.jpg?photo";
import gala from "~/assets/photos/gendarmerie-gala.jpg?photo";
import videoPoster from "~/assets/photos/gendarmerie-video.jpg?photo";
import { fixedPrice, type Price } from "~/lib/prices";

/** The video of a service card: nothing is loaded from the video host before the visitor asks for it. */
export type ServiceVideo = {
  /** PLACEHOLDER video id on YouTube, played from www.youtube-nocookie.com. */
  youtubeId: string;
  title: string;
  poster: Picture;
};

/** SPEC §3 "Gendarmerie service": a photo or a video. */
export type GendarmerieService = {
  title: string;
  price: Price;
  icon: LucideIcon;
  description: string;
  features: string[];
  media: { photo: Picture } | { video: ServiceVideo };
};

export const gendarmerieServices: GendarmerieService[] = [
  {
    title: "Photos de groupe",
    price: fixedPrice(790),
    icon: Users,
    description: "La photo officielle de votre unité ou de votre promotion, en grand format.",
    features: [
      "Installation des gradins et de l'éclairage",
      "Retouche de chaque photo",
      "Livraison sous 48 à 72 h",
    ],
    media: { photo: groupe },
  },
  {
    title: "Reportage cérémonie",
    price: fixedPrice(840),
    icon: Medal,
    description: "Prises d'armes, remises de décorations et passations de commandement.",
    features: [
      "Reportage complet de la cérémonie",
      "Portraits des récipiendaires",
      "Galerie en ligne privée",
    ],
    media: { photo: ceremonie },
  },
  {
    title: "Gala et studio",
    price: fixedPrice(750),
    icon: PartyPopper,
    description: "Un studio photo installé sur place pendant votre gala ou votre soirée.",
    features: [
      "Fond et éclairage de studio",
      "Portraits individuels et de groupe",
      "Photos de l'ambiance de la soirée",
    ],
    media: { photo: gala },
  },
  {
    title: "Vidéo de cérémonie",
    price: fixedPrice(990),
    icon: Clapperboard,
    description: "Le film de votre cérémonie, monté et prêt à partager.",
    features: ["Tournage de la cérémonie", "Montage et habillage", "Fichier prêt pour vos réseaux"],
    media: {
      video: {
        youtubeId: "M7lc1UVf-VE",
        title: "Exemple de vidéo de cérémonie",
        poster: videoPoster,
      },
    },
  },
];

/** SPEC §3 "Gendarmerie package": a bundle of services at a discounted price. */
export type GendarmeriePackage = {
  title: string;
  subtitle: string;
  discountPrice: Price;
  originalPrice: Price;
  icon: LucideIcon;
  description: string;
  features: string[];
  highlighted: boolean;
};

export const gendarmerieOffer = "Offre spéciale 2025";

export const gendarmeriePackages: GendarmeriePackage[] = [
  {
    title: "Formule 1",
    subtitle: "Cérémonie et gala",
    discountPrice: fixedPrice(1200),
    originalPrice: fixedPrice(1590),
    icon: Medal,
    description: "L'essentiel pour garder le souvenir de votre cérémonie et de votre soirée.",
    features: ["Reportage cérémonie", "Gala et studio"],
    highlighted: false,
  },
  {
    title: "Formule 2",
    subtitle: "Groupe, cérémonie et gala",
    discountPrice: fixedPrice(1900),
    originalPrice: fixedPrice(2380),
    icon: Star,
    description: "La formule la plus choisie : toute la journée en photos.",
    features: ["Photos de groupe", "Reportage cérémonie", "Gala et studio"],
    highlighted: true,
  },
  {
    title: "Formule 3",
    subtitle: "Photo et vidéo",
    discountPrice: fixedPrice(2700),
    originalPrice: fixedPrice(3370),
    icon: Trophy,
    description: "Toute la journée en photos, et le film de votre cérémonie.",
    features: ["Photos de groupe", "Reportage cérémonie", "Gala et studio", "Vidéo de cérémonie"],
    highlighted: false,
  },
];

export const selfieBoothRental = {
  title: "Location de borne selfie",
  price: fixedPrice(490),
  unit: "par jour",
  icon: Camera,
  description:
    "Une borne photo en libre-service pour vos galas et vos soirées : vos invités repartent avec leurs photos imprimées.",
  features: [
    "Impressions instantanées",
    "Fond et accessoires fournis",
    "Installation et reprise par nos soins",
  ],
};

/** Every call to action of the gendarmerie page goes to the Ussel studio, which handles this offer. */
export const gendarmerieContactPath = "/contact-studio-ussel";
