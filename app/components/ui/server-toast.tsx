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
