import { useState, type FormEvent } from "react";
import type { z } from "zod";
import { useFormErrors } from "~/components/ui/field";
import { toast } from "~/components/ui/toaster";
import { fieldErrors, formValues, validationToast, type FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";

/**
 * The sign-in pages' forms (login, forgotten password, new password, invitation): the browser checks the
 * fields with the action's own schema before sending, and a refusal shows like the server's (messages at
 * the fields, focus on the first, 'Erreur de validation' toast); what the server answers takes over after.
 */
export function useSignInForm(serverErrors: FieldErrors | undefined) {
  const form = useFormErrors(serverErrors);
  const [clientAlert, setClientAlert] = useState<ToastMessage | null>(null);
  /** The form's `onSubmit`: sends it when `schema` accepts its fields, else shows why. */
  const checkWith = (schema: z.ZodType) => (event: FormEvent<HTMLFormElement>) => {
    const parsed = schema.safeParse(formValues(new FormData(event.currentTarget)));
    if (parsed.success) {
      form.setClientErrors(null);
      setClientAlert(null);
      return;
    }
    event.preventDefault();
    const message = validationToast(parsed.error);
    form.setClientErrors(fieldErrors(parsed.error));
    setClientAlert(message);
    toast.error(message.title, { description: message.description });
  };
  return { ...form, clientAlert, checkWith };
}
