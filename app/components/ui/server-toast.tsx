import { useEffect } from "react";
import { toast as showToast } from "~/components/ui/toaster";
import type { ToastMessage } from "~/lib/toast";

/** Shows a toast that came from the server (action data or a flash cookie) once it reaches the page. */
export function useServerToast(toast: ToastMessage | null | undefined) {
  useEffect(() => {
    if (!toast) return;
    const show =
      toast.type === "error"
        ? showToast.error
        : toast.type === "info"
          ? showToast.info
          : showToast.success;
    show(toast.title, { description: toast.description });
  }, [toast]);
}
