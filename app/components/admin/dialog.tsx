import { X } from "lucide-react";
import { AlertDialog as AlertDialogPrimitive, Dialog as DialogPrimitive } from "radix-ui";
import { useId, type ReactNode } from "react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";

type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
};

/** A modal dialog (Radix: focus trapped, Escape closes, focus returns to the opener). */
export function Dialog({ open, onOpenChange, title, description, children }: DialogProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <DialogPrimitive.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90dvh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl">
          <DialogPrimitive.Title className="font-serif text-xl font-bold">
            {title}
          </DialogPrimitive.Title>
          {description ? (
            <DialogPrimitive.Description className="mt-1 text-sm text-muted-foreground">
              {description}
            </DialogPrimitive.Description>
          ) : (
            <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
          )}
          <div className="mt-5">{children}</div>
          <DialogPrimitive.Close
            className="absolute top-3 right-3 rounded-md p-2 text-muted-foreground hover:bg-muted"
            aria-label="Fermer"
          >
            <X aria-hidden="true" className="size-4" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The question asked, the dialog's name (e.g. SPEC §5's 'Êtes-vous sûr de vouloir supprimer cet article ?'). */
  title: string;
  /** What the question is about, e.g. the article's title. */
  description?: ReactNode;
  /** Where 'Annuler' leads without JavaScript; with it, 'Annuler' only closes. */
  cancelHref: string;
  /** Moves focus to 'Annuler' on opening (Radix would focus its own Cancel, which is a button). */
  cancelRef: React.RefObject<HTMLAnchorElement | null>;
  /** Where focus goes back on closing. */
  returnFocusTo: React.RefObject<HTMLElement | null>;
  /** The confirming control, e.g. a form posting the action. */
  children: ReactNode;
};

/**
 * A question that must be answered before a destructive action (Radix AlertDialog: focus trapped, Escape
 * cancels, the page behind is inert). Rendered in place rather than in a portal, so that the server can send it
 * already open and the confirmation works without JavaScript too.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  cancelHref,
  cancelRef,
  returnFocusTo,
  children,
}: ConfirmDialogProps) {
  // Named here, not by Radix: its labelling attributes are missing from the server's HTML (used without JS).
  const titleId = useId();
  const descriptionId = useId();
  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
      <AlertDialogPrimitive.Content
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 text-left shadow-xl"
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          cancelRef.current?.focus();
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        <AlertDialogPrimitive.Title id={titleId} className="font-sans text-lg font-semibold">
          {title}
        </AlertDialogPrimitive.Title>
        <AlertDialogPrimitive.Description
          id={descriptionId}
          className={description ? "mt-2 text-sm break-words text-muted-foreground" : "sr-only"}
        >
          {description ?? title}
        </AlertDialogPrimitive.Description>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <Link
            ref={cancelRef}
            to={cancelHref}
            replace
            preventScrollReset
            className={buttonVariants({ variant: "outline" })}
            onClick={(event) => {
              event.preventDefault();
              onOpenChange(false);
            }}
          >
            Annuler
          </Link>
          {children}
        </div>
      </AlertDialogPrimitive.Content>
    </AlertDialogPrimitive.Root>
  );
}
