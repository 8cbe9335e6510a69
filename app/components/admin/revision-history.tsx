import { History } from "lucide-react";
import { useId } from "react";
import { formatLongDateTimeFr } from "~/lib/dates";
import { ConfirmedActionForm } from "./confirmed-action-form";

/** The search parameter that opens the confirmation of a restore (how it works without JavaScript). */
export const CONFIRM_RESTORE_PARAM = "restaurer";

export type RevisionItem = {
  id: string;
  authorName: string;
  /** ISO date-time of the save. */
  createdAt: string;
  summary: string;
};

/**
 * The history of a studio, a price list, the page photos…: every saved version, newest first, with who
 * saved it and when. Each earlier version can be brought back (after a confirmation); the form posts
 * `intent=restore` with `revision=<id>` to the page's action.
 */
export function RevisionHistory({
  revisions,
  title = "Historique des modifications",
}: {
  revisions: RevisionItem[];
  title?: string;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-border bg-white p-6">
      <h2 id={headingId} className="flex items-center gap-2 font-sans text-lg font-semibold">
        <History aria-hidden="true" className="size-5" />
        {title}
      </h2>
      {revisions.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">Aucune modification enregistrée.</p>
      ) : (
        <ol className="mt-4 divide-y divide-border">
          {revisions.map((revision, index) => {
            const when = formatLongDateTimeFr(revision.createdAt);
            return (
              <li key={revision.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-medium">
                    <time dateTime={revision.createdAt}>{when}</time> · {revision.authorName}
                  </p>
                  {revision.summary ? (
                    <p className="text-sm text-muted-foreground">{revision.summary}</p>
                  ) : null}
                </div>
                {index === 0 ? (
                  <span className="text-sm text-muted-foreground">Version en ligne</span>
                ) : (
                  <ConfirmedActionForm
                    id={revision.id}
                    idField="revision"
                    intent="restore"
                    param={CONFIRM_RESTORE_PARAM}
                    confirmation="Remettre en ligne cette version ?"
                    itemLabel={`Version du ${when}`}
                    variant="default"
                    label="Restaurer cette version"
                  />
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
