import { Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";

type DeleteFormProps = {
  id: string;
  /** The browser confirmation asked first (SPEC §5 "Deletes"). */
  confirmation: string;
  /** Screen-reader text naming what is deleted, e.g. the article's title. */
  itemLabel?: ReactNode;
};

/** A 'Supprimer' button posting `intent=delete` for one row, after the browser's confirmation. */
export function DeleteForm({ id, confirmation, itemLabel }: DeleteFormProps) {
  return (
    <Form
      method="post"
      onSubmit={(event) => {
        if (!window.confirm(confirmation)) event.preventDefault();
      }}
    >
      <input type="hidden" name="id" value={id} />
      <Button type="submit" name="intent" value="delete" variant="ghost-destructive" size="sm">
        <Trash2 aria-hidden="true" />
        Supprimer
        {itemLabel ? <span className="sr-only"> « {itemLabel} »</span> : null}
      </Button>
    </Form>
  );
}
