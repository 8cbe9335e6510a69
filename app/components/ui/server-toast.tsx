import { useEffect } from "react";
import { toast as showToast } from "~/components/ui/toaster";
import type { ToastMessage } from "~/lib/toast";

/**
 * Shows a toast that came from the server (action data or a flash cookie) once it reaches the page. With an
 * `id`, it takes the place of the toast shown under that id before (a form's earlier refusal) instead of
 * piling up under it.
 */
export function useServerToast(toast: ToastMessage | null | undefined, id?: string) {
  useEffect(() => {
    if (!toast) return;
    const show =
      toast.type === "error"
        ? showToast.error
        : toast.type === "info"
          ? showToast.info
          : showToast.success;
    show(toast.title, { description: toast.description, id });
  }, [toast, id]);
}

/** The part of an action's data that is a form's answer (`FormAnswer` and kin: it has a `status`). */
type FormAnswerOf<T> = Extract<NonNullable<T>, { status: unknown }>;

/**
 * A form page's answer from its action (values typed, errors, a toast), or undefined before one or for
 * another kind of data (a crafted post's `{ error }`); its toast is shown once it reaches the page.
 */
export function useFormAnswer<T>(actionData: T): {
  answer: FormAnswerOf<T> | undefined;
  toast: ToastMessage | undefined;
} {
  const answer =
    actionData !== null && typeof actionData === "object" && "status" in actionData
      ? (actionData as FormAnswerOf<T>)
      : undefined;
  const toast =
    answer && "toast" in answer ? (answer.toast as ToastMessage | undefined) : undefined;
  useServerToast(toast);
  return { answer, toast };
}
