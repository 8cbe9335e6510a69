import { Eye, History, X } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { formatLongDateTimeFr } from "~/lib/dates";
import type {
  Change,
  RevisionHistoryData,
  RevisionItem,
  ViewedRevision,
} from "~/lib/revision-changes";
import { ConfirmedActionForm } from "./confirmed-action-form";

/** The search parameter that opens the confirmation of a restore (how it works without JavaScript). */
export const CONFIRM_RESTORE_PARAM = "restaurer";

const linkClass =
  "inline-flex min-h-11 items-center gap-1 text-sm font-medium underline underline-offset-4";

/**
 * The history of a studio, a price list, the page photos, an article…: every saved version, newest first,
 * with who saved it, when and what it changed. An earlier version can be seen first (« Voir cette version »:
 * what bringing it back would change, and the page as it was), then brought back after a confirmation; the
 * form posts `intent=restore` with `revision=<id>` to the page's action. Links and forms: it works without
 * JavaScript.
 */
export function RevisionHistory({
  history,
  title = "Historique des modifications",
}: {
  history: RevisionHistoryData;
  title?: string;
}) {
  const headingId = useId();
  const { revisions, viewed, changedSince } = history;
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-border bg-white p-6">
      <h2 id={headingId} className="flex items-center gap-2 font-sans text-lg font-semibold">
        <History aria-hidden="true" className="size-5" />
        {title}
      </h2>
      {revisions.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">Aucune modification enregistrée.</p>
      ) : (
        <>
          {changedSince ? (
            <p className="mt-3 text-sm text-muted-foreground">
              Les changements enregistrés automatiquement depuis la dernière version ne sont pas
              encore dans l'historique : ils y entrent au prochain enregistrement.
            </p>
          ) : null}
          <ol className="mt-4 divide-y divide-border">
            {revisions.map((revision, index) => (
              <RevisionLine
                key={revision.id}
                revision={revision}
                online={index === 0 && !changedSince}
                viewed={viewed?.id === revision.id ? viewed : null}
              />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

function RevisionLine({
  revision,
  online,
  viewed,
}: {
  revision: RevisionItem;
  online: boolean;
  viewed: ViewedRevision | null;
}) {
  const when = formatLongDateTimeFr(revision.createdAt);
  return (
    <li id={`revision-${revision.id}`} className="py-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium">
            <time dateTime={revision.createdAt}>{when}</time> · {revision.authorName}
          </p>
          {revision.summary ? (
            <p className="text-sm text-muted-foreground">{revision.summary}</p>
          ) : null}
          {revision.changed ? (
            <p className="text-sm text-muted-foreground">Modifié : {revision.changed}</p>
          ) : null}
        </div>
        {online ? (
          <span className="text-sm text-muted-foreground">Version en ligne</span>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            {viewed ? null : (
              <Link
                to={{ search: `?version=${revision.id}`, hash: `version-${revision.id}` }}
                preventScrollReset
                className={linkClass}
              >
                <Eye aria-hidden="true" className="size-4" />
                Voir cette version<span className="sr-only"> du {when}</span>
              </Link>
            )}
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
          </div>
        )}
      </div>
      {viewed ? <VersionPanel viewed={viewed} when={when} /> : null}
    </li>
  );
}

/** An earlier version, seen before it is brought back: what would change, and the page as it was. */
function VersionPanel({ viewed, when }: { viewed: ViewedRevision; when: string }) {
  const headingId = useId();
  return (
    <section
      id={`version-${viewed.id}`}
      aria-labelledby={headingId}
      className="mt-3 rounded-lg border border-border bg-muted/40 p-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={headingId} className="font-sans text-base font-semibold">
          La version du {when}
        </h3>
        <Link
          to={{ search: "", hash: `revision-${viewed.id}` }}
          preventScrollReset
          className={linkClass}
        >
          <X aria-hidden="true" className="size-4" />
          Fermer<span className="sr-only"> la version du {when}</span>
        </Link>
      </div>
      {viewed.changes.length === 0 ? (
        <p className="mt-2 text-sm">Cette version est identique à la version actuelle.</p>
      ) : (
        <>
          <p className="mt-2 text-sm">
            La restaurer changerait {viewed.changes.length > 1 ? "ces éléments" : "cet élément"} :
          </p>
          <ul className="mt-2 space-y-3">
            {viewed.changes.map((change, index) => (
              <ChangeItem key={`${change.label}-${index}`} change={change} />
            ))}
          </ul>
        </>
      )}
      {viewed.previews.length > 0 ? (
        <ul className="mt-3 flex flex-wrap gap-x-4">
          {viewed.previews.map((preview) => (
            <li key={preview.href}>
              <a href={preview.href} target="_blank" rel="noopener" className={linkClass}>
                {preview.label}
                <span className="sr-only"> (nouvel onglet)</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ChangeItem({ change }: { change: Change }) {
  return (
    <li className="rounded-md bg-white p-3 text-sm">
      <p className="font-medium">{change.label || "Contenu"}</p>
      {change.kind === "reordered" ? (
        <p className="text-muted-foreground">Un autre ordre.</p>
      ) : change.kind === "added" ? (
        <p>
          <span className="text-muted-foreground">Revient : </span>
          <span className="whitespace-pre-wrap break-words">{change.after}</span>
        </p>
      ) : change.kind === "removed" ? (
        <p>
          <span className="text-muted-foreground">Disparaît : </span>
          <span className="whitespace-pre-wrap break-words">{change.before}</span>
        </p>
      ) : (
        <dl className="mt-1 grid gap-1 sm:grid-cols-[max-content_1fr] sm:gap-x-3">
          <dt className="text-muted-foreground">Actuellement</dt>
          <dd className="whitespace-pre-wrap break-words">{change.before}</dd>
          <dt className="text-muted-foreground">Cette version</dt>
          <dd className="whitespace-pre-wrap break-words">{change.after}</dd>
        </dl>
      )}
    </li>
  );
}
