import type { ToastMessage } from "./toast";

// The form's zod schema is in ./newsletter-schema: the browser loads it only when someone submits.

/** Where a subscriber stands: waiting for the confirmation link, receiving the newsletter, or gone. */
export const SUBSCRIBER_STATUSES = ["pending", "active", "unsubscribed"] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/** The forms a person can consent on; stored with the subscription as proof of consent. */
export const newsletterSources = ["blog", "article"] as const;
export type NewsletterSource = (typeof newsletterSources)[number];

/**
 * The consent sentence the sign-up block shows under its button, stored word for word with each sign-up
 * (consent_text): what the person agreed to, as the CNIL expects the sender to be able to prove.
 */
export const NEWSLETTER_CONSENT_TEXT =
  "En vous inscrivant, vous acceptez de recevoir nos articles par email.";

export type NewsletterOutcome = "subscribed" | "duplicate" | "invalid" | "rate_limited" | "error";

/** What the newsletter action answers; `email` is echoed back only when it was refused. */
export type NewsletterResult = {
  newsletter: { outcome: NewsletterOutcome; toast: ToastMessage; email?: string };
};

/**
 * The toasts of SPEC §8, except a sign-up's: SPEC's 'Inscription réussie !' / 'Vous recevrez nos prochains
 * articles par email.' was written for a list without confirmation, and since the double opt-in (decision
 * record 0081) it promises articles that never come if the person does not confirm. The sign-up says the
 * step left, in the toast and in the block alike (decision record 0112).
 */
export const newsletterToasts = {
  subscribed: {
    type: "success",
    title: "Vérifiez votre boîte mail.",
    description:
      "Pour terminer votre inscription, ouvrez l'email que nous vous avons envoyé et cliquez sur «\u00a0Confirmer mon inscription\u00a0». Sans confirmation, vous ne recevrez rien.",
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
