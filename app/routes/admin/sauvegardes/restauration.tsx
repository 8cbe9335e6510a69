import { Link } from "react-router";
import type { Route } from "./+types/restauration";
import {
  backupDateOfFile,
  RefreshLink,
  RefreshWithoutScript,
  RunProgress,
  RunReport,
  useRefreshWhile,
} from "~/components/backups/run-views";
import { useServerToast } from "~/components/ui/server-toast";

export { loader } from "./restauration.server";

/*
 * A restore asked from /admin/sauvegardes, followed until it ends (decision 0118). Outside the admin
 * layout on purpose: the restore replaces the accounts and their sessions, so the owner's own session may
 * be gone when it ends; this page then sends her to the login page with the reason, instead of a bare
 * redirect. Nothing else is told to someone signed out (the address holds the run's random id).
 */

export const meta: Route.MetaFunction = () => [
  { title: "Restauration - Administration" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function Restauration({ loaderData }: Route.ComponentProps) {
  const { run, toast } = loaderData;
  useServerToast(toast);
  const underWay = run.status === "queued" || run.status === "running";
  useRefreshWhile(underWay);
  const date = run.file ? (backupDateOfFile(run.file) ?? run.file) : "";

  return (
    <main id="contenu" className="min-h-dvh bg-muted px-4 py-10">
      <div className="mx-auto max-w-3xl space-y-6 rounded-xl border border-border bg-white p-6">
        <h1 className="text-3xl font-bold">Restauration de la sauvegarde du {date}</h1>
        {underWay ? (
          <>
            <RefreshWithoutScript />
            <p className="text-sm">
              La restauration se fait sur le serveur : vous pouvez laisser cette page ouverte, elle
              se met à jour toute seule. Le site peut répondre plus lentement pendant quelques
              instants.
            </p>
            <div aria-live="polite">
              <RunProgress run={run} />
            </div>
            <RefreshLink to={`/admin/sauvegardes/restauration/${run.id}`} />
          </>
        ) : (
          <div role="status" className="space-y-4">
            <h2 className="font-sans text-lg font-semibold">
              {run.status === "done"
                ? "Restauration terminée"
                : "La restauration n'a pas été faite"}
            </h2>
            <RunReport run={run} />
          </div>
        )}
        <p>
          <Link to="/admin/sauvegardes" className="underline underline-offset-4">
            Retour aux sauvegardes
          </Link>
        </p>
      </div>
    </main>
  );
}
