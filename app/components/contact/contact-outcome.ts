import { HONEYPOT_FIELD } from "~/lib/contact-forms";
import { formValues, type FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";

/** The contact forms' messages (SPEC §8), shared by the action and by the page (a network failure). */
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

/** What the contact action answers; the form shows it at the fields, inline and (with JavaScript) as a toast. */
export type ContactFormResult =
  | { status: "sent"; toast: ToastMessage; submissionId: string }
  | {
      status: "invalid" | "rate-limited" | "failed";
      toast: ToastMessage;
      errors: FieldErrors;
      values: Record<string, string>;
    };

/** The answer the page gives itself when the request never got one (offline, connection cut). */
export function networkFailure(values: Record<string, string>): ContactFormResult {
  return { status: "failed", toast: contactToasts.failed, errors: {}, values };
}

/**
 * A contact page's `clientAction`: the server's answer as it is, or, when no answer came (offline,
 * connection cut), the generic failure, shown by the form like a server failure with what was typed kept.
 */
export async function contactClientAction<T>({
  request,
  serverAction,
}: {
  request: Request;
  serverAction: () => Promise<T>;
}): Promise<T | ContactFormResult> {
  const values = formValues(await request.clone().formData(), [HONEYPOT_FIELD]);
  try {
    return await serverAction();
  } catch {
    return networkFailure(values);
  }
}
