import { data } from "react-router";
import type { z } from "zod";
import { emailOnlySchema } from "~/lib/admin-schemas";
import { fieldErrors, validationToast, type FieldErrors, type FormAnswer } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";

/*
 * The one way a form's action answers without redirecting (decision 0060): `FormAnswer` with the
 * status code that says what happened. Success redirects with a toast (redirectWithToast).
 */

/** 400: the fields say what to correct; what was typed comes back. */
export function invalidForm(values: Record<string, string>, errors: FieldErrors) {
  return data<FormAnswer>({ status: "invalid", values, errors }, { status: 400 });
}

/** 5xx: the server failed; a toast says so and what was typed comes back. */
export function failedForm(values: Record<string, string>, toast: ToastMessage, status = 500) {
  return data<FormAnswer>({ status: "failed", values, toast }, { status });
}

/**
 * 400 for an admin button form whose intent or id does not hold (`parseIntent` refused it): a crafted
 * post, never a click. `unknownId` names the row ('Article inconnu').
 */
export function refusedIntent(reason: "intent" | "id", unknownId: string) {
  return data({ error: reason === "id" ? unknownId : "Action inconnue" }, { status: 400 });
}

/**
 * What a sign-in page's form (login, forgotten password, new password, invitation) answers with a 400: the
 * messages at the fields, SPEC's 'Erreur de validation' toast, and the typed address back (never a password).
 */
export function signInRefusal(error: z.ZodError, email?: string) {
  return {
    errors: fieldErrors(error),
    ...(email === undefined ? {} : { email }),
    toast: validationToast(error),
  };
}

/**
 * The address of a sign-in page's one-address form (forgotten password, invitation): checked, with what
 * was typed (300 characters at most) to give back, or the refusal to answer with a 400.
 */
export function readAddressForm(formData: FormData) {
  const submitted = formData.get("email");
  const typed = typeof submitted === "string" ? submitted.slice(0, 300) : "";
  const parsed = emailOnlySchema.safeParse({
    email: typeof submitted === "string" ? submitted : "",
  });
  return parsed.success
    ? { ok: true as const, typed, email: parsed.data.email }
    : { ok: false as const, typed, refusal: signInRefusal(parsed.error, typed) };
}
