import type { PhotoSlot } from "~/content/schemas";

/**
 * A card of the services page (SPEC §3 "Prestation card"): the text is the page's, the photo the owner's
 * (its slot in the page photos, /admin/medias).
 */
export type PrestationCard = { title: string; description: string; photo: PhotoSlot; link: string };

export const prestationCards: PrestationCard[] = [
  {
    title: "Naissance",
    description:
      "Les tout premiers jours de votre bébé, photographiés en douceur dans un studio chauffé et apaisant.",
    photo: "prestations.naissance",
    link: "/prestations/naissances",
  },
  {
    title: "Grossesse",
    description:
      "Une séance pour célébrer votre ventre rond, seule, en couple ou avec les aînés, au 7e ou 8e mois.",
    photo: "prestations.grossesse",
    link: "/prestations/grossesse",
  },
  {
    title: "Portrait & Famille",
    description:
      "Portraits individuels, enfants, couples et familles réunies : des images naturelles qui vous ressemblent.",
    photo: "prestations.portrait-famille",
    link: "/prestations/portraits-familles",
  },
  {
    title: "Mariages",
    description:
      "Des préparatifs à la soirée, le reportage complet de votre journée, raconté avec discrétion.",
    photo: "prestations.mariages",
    link: "/prestations/mariages",
  },
  {
    title: "Séances à offrir",
    description:
      "Une séance photo en cadeau : Iris, Fashion, Super-Héros ou Princesse, à réserver en ligne.",
    photo: "prestations.seances-a-offrir",
    link: "/seances-a-offrir",
  },
  {
    title: "Professionnels",
    description:
      "Portraits d'équipe, reportages, événements, gendarmerie et photographie scolaire.",
    photo: "prestations.professionnels",
    link: "/professionnels",
  },
];

/** Durations and delays of the private sessions (SPEC §9), shared by the service pages and the prices. */
export const sessionFacts = {
  famille: { duration: "45 min à 1 h", discovery: "10 jours après la séance" },
  grossesse: {
    duration: "45 min à 1 h",
    discovery: "15 jours après la séance",
    idealMoment: "entre le 7e et le 8e mois de grossesse",
  },
  naissance: {
    duration: "1 h 30 à 2 h 30",
    discovery: "15 jours après la séance",
    idealMoment: "idéalement entre le 7e et le 15e jour de vie",
  },
  portrait: { duration: "1 h 30", delivery: "10 jours après la séance" },
  mariage: { booking: "au moins 30 jours à l'avance", delivery: "à J+15" },
  includedPrint: "un tirage papier 20x30 cm offert",
} as const;

export type Step = { title: string; description: string };
export type SessionType = { title: string; description: string; duration: string };

export const portraitProcess: Step[] = [
  {
    title: "Prise de contact",
    description:
      "Par téléphone, e-mail ou en ligne, nous fixons ensemble la date et le style de votre séance.",
  },
  {
    title: "Préparation",
    description:
      "Nous vous conseillons sur les tenues, les couleurs et les accessoires à apporter.",
  },
  {
    title: "La séance",
    description: `Au studio, dans une ambiance détendue : ${sessionFacts.portrait.duration} pour un portrait, ${sessionFacts.famille.duration} en famille.`,
  },
  {
    title: "Vos photos",
    description: `Nous découvrons ensemble vos photos ${sessionFacts.famille.discovery}, avec ${sessionFacts.includedPrint}.`,
  },
];

export const portraitSessionTypes: SessionType[] = [
  {
    title: "Portrait individuel",
    description:
      "Un portrait qui vous ressemble, naturel ou plus travaillé, sur le fond de votre choix.",
    duration: sessionFacts.portrait.duration,
  },
  {
    title: "Famille",
    description: "Parents, enfants, grands-parents : toute la famille réunie devant l'objectif.",
    duration: sessionFacts.famille.duration,
  },
  {
    title: "Enfants et fratrie",
    description: "Des séances ludiques, au rythme des enfants, pour saisir leurs vrais sourires.",
    duration: sessionFacts.famille.duration,
  },
  {
    title: "Couple",
    description:
      "Une séance complice pour un anniversaire, des fiançailles ou simplement pour vous.",
    duration: sessionFacts.famille.duration,
  },
];

export const newbornProcess: Step[] = [
  {
    title: "Réservation pendant la grossesse",
    description: `Nous fixons une date provisoire, ${sessionFacts.naissance.idealMoment}, ajustée à la naissance.`,
  },
  {
    title: "La séance",
    description: `${sessionFacts.naissance.duration} au rythme de bébé, dans un studio chauffé : tétées et câlins compris.`,
  },
  {
    title: "La découverte",
    description: `Nous découvrons ensemble vos photos ${sessionFacts.naissance.discovery}, avec ${sessionFacts.includedPrint}.`,
  },
];

export const pregnancyTips: Step[] = [
  {
    title: "Le bon moment",
    description: `La séance se prévoit ${sessionFacts.grossesse.idealMoment} : le ventre est bien rond et vous êtes encore à l'aise.`,
  },
  {
    title: "Les tenues",
    description:
      "Privilégiez des matières près du corps et des couleurs unies ; le studio prête aussi des robes.",
  },
  {
    title: "En famille",
    description: "Le futur papa et les aînés sont les bienvenus pour quelques photos ensemble.",
  },
  {
    title: "Le jour J",
    description: `Prévoyez ${sessionFacts.grossesse.duration} sans vous presser, et vos photos se découvrent ${sessionFacts.grossesse.discovery}.`,
  },
];

export const weddingHighlights: Step[] = [
  {
    title: "Réservez tôt",
    description: `Réservez votre photographe ${sessionFacts.mariage.booking} ; les samedis d'été partent vite.`,
  },
  {
    title: "Toute la journée",
    description: "Préparatifs, cérémonie, photos de couple et de groupe, vin d'honneur et soirée.",
  },
  {
    title: "Vos photos à J+15",
    description: `Vos photos retouchées vous sont livrées ${sessionFacts.mariage.delivery} dans une galerie en ligne privée.`,
  },
];
