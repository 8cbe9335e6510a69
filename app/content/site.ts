/**
 * The business's facts, in one place. Values marked PLACEHOLDER are not known yet and must be replaced
 * before going live (the README lists every one of them under "Before going live").
 */
export const site = {
  /** PLACEHOLDER: the studio's brand name. */
  brand: "Studio Photo Exemple",
  tagline:
    "Votre studio photo en Limousin : un service complet qui prend soin de vous à chaque étape de l'expérience.",
  experience: "plus de 15 ans d'expérience",
  label: "Portraitiste de France",
  /** PLACEHOLDER */
  email: "contact@example.com",
  /** PLACEHOLDER: the external selfie-booth rental site. */
  selfieBoothUrl: "https://borne-selfie.example.com",
  social: {
    /** PLACEHOLDER */
    facebook: "https://www.facebook.com/studiophotoexemple",
    /** PLACEHOLDER */
    instagram: "https://www.instagram.com/studiophotoexemple",
    /** PLACEHOLDER */
    youtube: "https://www.youtube.com/@studiophotoexemple",
  },
  priceRange: "€€",
} as const;

export const socialLinks = [
  { name: "Facebook", href: site.social.facebook },
  { name: "Instagram", href: site.social.instagram },
  { name: "YouTube", href: site.social.youtube },
] as const;
