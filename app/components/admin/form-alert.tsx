import type { ToastMessage } from "~/lib/toast";
import { cn } from "~/lib/utils";

/** The outcome of a form, written in the page too (toasts need JavaScript; this does not). */
export function FormAlert({
  message,
  className,
}: {
  message: ToastMessage | null | undefined;
  className?: string;
}) {
  if (!message) return null;
  return (
    <div
      role={message.type === "error" ? "alert" : "status"}
      className={cn(
        "rounded-md border px-4 py-3 text-sm",
        message.type === "error"
          ? "border-red-200 bg-red-50 text-red-900"
          : "border-emerald-200 bg-emerald-50 text-emerald-900",
        className,
      )}
    >
      <p className="font-semibold">{message.title}</p>
      {message.description ? <p className="mt-0.5">{message.description}</p> : null}
    </div>
  );
}
