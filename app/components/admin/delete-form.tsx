import { Trash2 } from "lucide-react";
import { useRef, useState, type ReactNode } from "react";
import { Form, useLocation, useNavigate } from "react-router";
import { ConfirmDialog } from "~/components/admin/dialog";
import { Button } from "~/components/ui/button";

/** The search parameter that opens the confirmation of one row's delete (how it works without JavaScript). */
export const CONFIRM_DELETE_PARAM = "supprimer";

type DeleteFormProps = {
  id: string;
  /** The question asked first (SPEC §5 "Deletes"). */
  confirmation: string;
  /** Text naming what is deleted, e.g. the article's title. */
  itemLabel?: ReactNode;
};

/**
 * A 'Supprimer' button for one row: it opens the site's confirmation dialog, whose form posts
 * `intent=delete`. Without JavaScript, the button loads the same page with `?supprimer=<id>`, which the server
 * renders with the dialog open.
 */
export function DeleteForm({ id, confirmation, itemLabel }: DeleteFormProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(location.search);
  const openFromUrl = params.get(CONFIRM_DELETE_PARAM) === id;
  const [openHere, setOpenHere] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLAnchorElement>(null);

  params.delete(CONFIRM_DELETE_PARAM);
  const withoutParam = `${location.pathname}${params.size > 0 ? `?${params}` : ""}`;
  params.set(CONFIRM_DELETE_PARAM, id);

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
          variant="ghost-destructive"
          size="sm"
          aria-haspopup="dialog"
          onClick={(event) => {
            event.preventDefault();
            setOpenHere(true);
          }}
        >
          <Trash2 aria-hidden="true" />
          Supprimer
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
          <input type="hidden" name="id" value={id} />
          <Button type="submit" name="intent" value="delete" variant="destructive">
            Supprimer
          </Button>
        </Form>
      </ConfirmDialog>
    </>
  );
}
