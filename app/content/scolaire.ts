import type { IconName } from "~/content/schemas";

export type SchoolItem = { title: string; description: string; icon: IconName };

export const schoolServices: SchoolItem[] = [
  {
    title: "Photos de classe",
    description: "La photo de groupe de chaque classe, élèves et enseignants réunis.",
    icon: "Users",
  },
  {
    title: "Portraits individuels",
    description: "Un portrait de chaque élève, sur fond neutre ou coloré.",
    icon: "Smile",
  },
  {
    title: "Photos de fratrie",
    description: "Frères et sœurs de l'établissement photographiés ensemble.",
    icon: "HeartHandshake",
  },
  {
    title: "Remises de diplômes",
    description: "Les cérémonies de fin d'année et les remises de diplômes.",
    icon: "GraduationCap",
  },
  {
    title: "Annuaires et trombinoscopes",
    description: "Des fichiers prêts pour vos annuaires, cartes et trombinoscopes.",
    icon: "BookOpen",
  },
  {
    title: "Commande en ligne",
    description: "Les familles consultent et commandent leurs photos en ligne.",
    icon: "ShoppingBag",
  },
];

export const schoolCommitments: SchoolItem[] = [
  {
    title: "Un photographe professionnel",
    description: "Habitué aux enfants, patient et bienveillant.",
    icon: "Camera",
  },
  {
    title: "Une organisation sur mesure",
    description: "Un planning calé avec l'équipe éducative pour ne pas perturber les cours.",
    icon: "CalendarCheck",
  },
  {
    title: "Des délais tenus",
    description: "Les photos livrées à la date convenue avec l'établissement.",
    icon: "Clock",
  },
  {
    title: "Des données protégées",
    description: "Les photos des élèves restent privées et ne sont jamais réutilisées.",
    icon: "Lock",
  },
  {
    title: "Une qualité contrôlée",
    description: "Chaque photo est vérifiée et retouchée avant la livraison.",
    icon: "BadgeCheck",
  },
  {
    title: "Des tirages durables",
    description: "Des photos tirées sur papier photographique professionnel, faites pour durer.",
    icon: "Leaf",
  },
];

/** The mobile studio section; its photo is the slot « scolaire.studio-mobile » (with the media's alt text). */
export const mobileStudio = {
  title: "Notre studio mobile",
  description:
    "Nous venons dans votre établissement avec un studio complet : fonds, éclairages et gradins. Une salle suffit, nous installons tout avant l'arrivée des élèves et rangeons tout après la dernière photo.",
  features: [
    "Installation dans une salle de votre établissement",
    "Fonds et éclairages de studio",
    "Gradins pour les photos de classe",
  ],
};
