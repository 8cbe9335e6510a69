import { site } from "./site";
import { studioById } from "./studios";

const headOffice = studioById("ussel");

/**
 * The facts the legal pages need (mentions légales, données personnelles, politique cookies). Values marked
 * PLACEHOLDER are not known yet and must be replaced before going live; until then they read as obvious
 * placeholders (zeros, « Exemple ») on the pages.
 */
export const legal = {
  publisher: {
    /** PLACEHOLDER: registered company name. */
    companyName: `${site.brand} SARL`,
    /** PLACEHOLDER: legal form and share capital. */
    legalForm: "Société à responsabilité limitée (SARL) au capital de 1 000 €",
    /** Registered office: assumed to be the historic studio in Ussel. PLACEHOLDER if it differs. */
    address: `${headOffice.address.street}, ${headOffice.address.postalCode} ${headOffice.address.city}`,
    /** PLACEHOLDER: registration with the trade and companies register. */
    rcs: "RCS Brive 000 000 000",
    /** PLACEHOLDER */
    siret: "000 000 000 00000",
    /** PLACEHOLDER: intra-community VAT number. */
    vatNumber: "FR00 000000000",
    phone: headOffice.phone,
    email: site.email,
  },
  /** PLACEHOLDER: the person responsible for what the site publishes (usually the manager). */
  publicationDirector: "Prénom Nom, gérant(e)",
  host: {
    /** PLACEHOLDER: the company whose servers run the site. */
    name: "Hébergeur Exemple SAS",
    /** PLACEHOLDER */
    address: "1 rue de l'Exemple, 75000 Paris, France",
    /** PLACEHOLDER */
    phone: "01 00 00 00 00",
    /** PLACEHOLDER */
    website: "https://hebergeur.example.com",
  },
  /** Where people exercise their rights over their personal data. */
  privacyContact: site.email,
  /** SPEC §9: personal data is kept 18 months after the last contact. */
  retentionMonths: 18,
  /** SPEC §9: requests about personal data are answered within 2 months. */
  responseDelayMonths: 2,
  /** Date of the current version of the legal pages (ISO). */
  lastUpdated: "2026-11-21",
} as const;

export const cnil = {
  name: "Commission nationale de l'informatique et des libertés (CNIL)",
  address: "3 place de Fontenoy, TSA 80715, 75334 Paris Cedex 07",
  website: "https://www.cnil.fr",
  complaintUrl: "https://www.cnil.fr/fr/plaintes",
} as const;

/** Every cookie the site sets: all strictly necessary, all for the administrators (app/server/auth.server.ts). */
export const cookies = [
  {
    name: "studio.session_token",
    purpose: "Garde l'administrateur connecté à l'espace d'administration.",
    lifetime: "7 jours, prolongés tant que la session est utilisée",
  },
  {
    name: "studio.two_factor",
    purpose:
      "Relie les deux étapes de la connexion d'un administrateur qui utilise la double authentification.",
    lifetime: "quelques minutes",
  },
  {
    name: "toast",
    purpose:
      "Transporte un message de confirmation d'une page de l'administration à la suivante (« Article publié »…).",
    lifetime: "le temps d'afficher le message",
  },
] as const;
