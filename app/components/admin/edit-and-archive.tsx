import { Pencil } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { ConfirmedActionForm } from "~/components/admin/confirmed-action-form";
import { Button } from "~/components/ui/button";

/**
 * The actions of an item the owner takes off the site without deleting it (a studio retired, a session
 * type archived): « Modifier », and either taking it off (after a confirmation) or putting it back (one
 * click: nothing is lost). Each button names its item for a screen reader.
 */
export function EditAndArchiveActions({
  id,
  name,
  editTo,
  archived,
  archive,
  restore,
  children,
}: {
  id: string;
  name: string;
  editTo: string;
  archived: boolean;
  archive: { intent: string; param: string; confirmation: string; label: ReactNode };
  restore: { intent: string; label: ReactNode };
  /** Actions before « Modifier » (the studios' order). */
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      {children}
      <Button asChild variant="ghost" size="sm">
        <Link to={editTo}>
          <Pencil aria-hidden="true" />
          Modifier<span className="sr-only"> « {name} »</span>
        </Link>
      </Button>
      {archived ? (
        <Form method="post">
          <input type="hidden" name="id" value={id} />
          <Button type="submit" name="intent" value={restore.intent} variant="outline" size="sm">
            {restore.label}
            <span className="sr-only"> « {name} »</span>
          </Button>
        </Form>
      ) : (
        <ConfirmedActionForm
          id={id}
          intent={archive.intent}
          param={archive.param}
          confirmation={archive.confirmation}
          itemLabel={name}
          variant="destructive"
          label={archive.label}
        />
      )}
    </div>
  );
}
