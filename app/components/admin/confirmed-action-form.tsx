import { useRef, useState, type ReactNode } from "react";
import { Form, useLocation, useNavigate } from "react-router";
import { ConfirmDialog } from "~/components/admin/dialog";
import { Button } from "~/components/ui/button";

type ConfirmedActionFormProps = {
  /** The row the action is for: posted as `id` (or `idField`) with the intent. */
  id: string;
  idField?: string;
  /** The posted `intent` ("delete", "restore"…). */
  intent: string;
  /** The search parameter that opens this confirmation without JavaScript (`?supprimer=<id>`). */
  param: string;
  /** The question asked first. */
  confirmation: string;
  /** Text naming what the action is for, e.g. the article's title. */
  itemLabel?: ReactNode;
  /** The button's content (icon and words), the same on the row and in the dialog. */
  label: ReactNode;
  variant: "destructive" | "default";
  /** Fields posted with the confirmation, shown in the dialog above its button (« Rendu par »…). */
  children?: ReactNode;
};

/**
 * A button for one row whose action must be confirmed (delete, restore an earlier version): it opens the
 * site's confirmation dialog, whose form posts `intent`. Without JavaScript, the button loads the same page
 * with `?{param}=<id>`, which the server renders with the dialog open.
 */
export function ConfirmedActionForm({
  id,
  idField = "id",
  intent,
  param,
  confirmation,
  itemLabel,
  label,
  variant,
  children,
}: ConfirmedActionFormProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(location.search);
  const openFromUrl = params.get(param) === id;
  const [openHere, setOpenHere] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLAnchorElement>(null);

  params.delete(param);
  const withoutParam = `${location.pathname}${params.size > 0 ? `?${params}` : ""}`;
  params.set(param, id);

  const onOpenChange = (open: boolean) => {
    setOpenHere(open);
    if (!open && openFromUrl)
      void navigate(withoutParam, { replace: true, preventScrollReset: true });
  };

  return (
    <>
      {/* Without JavaScript this form reloads the page with the dialog open; with it, the button opens it. */}
      <form method="get" action={location.pathname}>
        {[...params].map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Button
          ref={trigger}
          type="submit"
          variant={variant === "destructive" ? "ghost-destructive" : "outline"}
          size="sm"
          aria-haspopup="dialog"
          onClick={(event) => {
            event.preventDefault();
            setOpenHere(true);
          }}
        >
          {label}
          {itemLabel ? <span className="sr-only"> « {itemLabel} »</span> : null}
        </Button>
      </form>
      <ConfirmDialog
        open={openHere || openFromUrl}
        onOpenChange={onOpenChange}
        title={confirmation}
        description={itemLabel ? <>« {itemLabel} »</> : undefined}
        cancelHref={withoutParam}
        cancelRef={cancel}
        returnFocusTo={trigger}
      >
        <Form method="post" action={withoutParam} onSubmit={() => setOpenHere(false)}>
          <input type="hidden" name={idField} value={id} />
          {children ? <div className="mb-4">{children}</div> : null}
          <Button type="submit" name="intent" value={intent} variant={variant}>
            {label}
          </Button>
        </Form>
      </ConfirmDialog>
    </>
  );
}
