import type { ToastMessage } from "./toast";

// The form's zod schema is in ./newsletter-schema: the browser loads it only when someone submits.

/** The forms a person can consent on; stored with the subscription as proof of consent. */
export const newsletterSources = ["blog", "article"] as const;
export type NewsletterSource = (typeof newsletterSources)[number];

export type NewsletterOutcome = "subscribed" | "duplicate" | "invalid" | "rate_limited" | "error";

/** What the newsletter action answers; `email` is echoed back only when it was refused. */
export type NewsletterResult = {
  newsletter: { outcome: NewsletterOutcome; toast: ToastMessage; email?: string };
};

/** The toasts of SPEC §8. */
export const newsletterToasts = {
  subscribed: {
    type: "success",
    title: "Inscription réussie !",
    description: "Vous recevrez nos prochains articles par email.",
  },
  duplicate: {
    type: "info",
    title: "Déjà inscrit·e",
    description: "Cette adresse email est déjà abonnée à la newsletter.",
  },
  rate_limited: {
    type: "error",
    title: "Trop de tentatives",
    description: "Veuillez réessayer dans quelques minutes.",
  },
  error: {
    type: "error",
    title: "Erreur",
    description: "Une erreur est survenue. Veuillez réessayer.",
  },
} satisfies Record<Exclude<NewsletterOutcome, "invalid">, ToastMessage>;

export function invalidEmailToast(message: string): ToastMessage {
  return { type: "error", title: "Erreur", description: message };
}
