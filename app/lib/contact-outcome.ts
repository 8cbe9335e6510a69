import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";

/** The contact forms' messages (SPEC §8), shared by the action and by the form (a network failure, said by the light script). */
export const contactToasts = {
  sent: {
    type: "success",
    title: "Message envoyé !",
    description: "Merci pour votre message, nous reviendrons vers vous dès que possible.",
  },
  /** Shown in the form's summary, never as a toast: the fields say what to correct. */
  invalid: {
    type: "error",
    title: "Le message n'est pas encore parti",
    description: "Veuillez corriger les champs indiqués.",
  },
  /** Real failures only: the server failed (5xx) or the network did. */
  failed: {
    type: "error",
    title: "Erreur",
    description: "Une erreur est survenue. Veuillez réessayer.",
  },
  rateLimited: {
    type: "error",
    title: "Trop de tentatives",
    description: "Veuillez réessayer dans quelques minutes.",
  },
} satisfies Record<string, ToastMessage>;

/** What the contact action answers; the form shows it at the fields and under the form. */
export type ContactFormResult =
  | { status: "sent"; toast: ToastMessage; submissionId: string }
  | {
      status: "invalid" | "rate-limited" | "failed";
      toast: ToastMessage;
      errors: FieldErrors;
      values: Record<string, string>;
    };
