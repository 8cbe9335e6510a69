/**
 * What the legal pages say that is not the business's own details (those — publisher, company number,
 * publication director, host — are the `legal` document, edited at /admin/site): the rules SPEC §9 sets
 * and the date of the pages' current wording.
 */
export const legalPolicy = {
  /** SPEC §9: personal data is kept 18 months after the last contact. */
  retentionMonths: 18,
  /** SPEC §9: requests about personal data are answered within 2 months. */
  responseDelayMonths: 2,
  /**
   * Date of the current wording of the legal pages (ISO): the texts are code, so a change of their
   * wording is a code change that moves this date. An edit of the details in the admin does not.
   */
  lastUpdated: "2026-11-29",
} as const;

export const cnil = {
  name: "Commission nationale de l'informatique et des libertés (CNIL)",
  address: "3 place de Fontenoy, TSA 80715, 75334 Paris Cedex 07",
  website: "https://www.cnil.fr",
  complaintUrl: "https://www.cnil.fr/fr/plaintes",
} as const;

/** Every cookie the site sets: all strictly necessary, all for the administrators (app/server/auth/auth.server.ts). */
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
    name: "galerie-{identifiant}",
    purpose:
      "Garde ouverte la galerie privée d'un client après qu'il a saisi son code d'accès (déposé uniquement à ce moment-là, et seulement pour les adresses de cette galerie).",
    lifetime: "30 jours au plus, jamais au-delà de l'expiration de la galerie",
  },
  {
    name: "toast",
    purpose:
      "Transporte un message de confirmation d'une page de l'administration à la suivante (« Article publié »…).",
    lifetime: "le temps d'afficher le message",
  },
] as const;
