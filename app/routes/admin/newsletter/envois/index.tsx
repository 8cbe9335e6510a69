import { ExternalLink, RefreshCw } from "lucide-react";
import { useEffect } from "react";
import { Link, useLocation, useRevalidator } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { AdminSection, AdminTable, cellClass } from "~/components/admin/admin-table";
import { MailNotConfigured } from "~/components/admin/mail-not-configured";
import { usePolled } from "~/lib/use-polled";

export { loader } from "./index.server";

/** Where the sending stands, as the loader and the `/progression` address give it. */
type ProgressView = Route.ComponentProps["loaderData"]["progress"];

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Envoi : ${loaderData?.subject ?? "newsletter"} - Administration` },
];

/**
 * The sending's figures, kept up to date while it is under way (usePolled), and the page's data loaded again
 * once it is done (the failed addresses, the end time). Without JavaScript the figures are those of the
 * page's loading (the « Actualiser » link reloads it).
 */
function useLiveProgress(initial: ProgressView, progressUrl: string): ProgressView {
  const live = usePolled(initial, progressUrl, (value) => value.status === "sending");

  const revalidator = useRevalidator();
  const finishedSinceLoading = initial.status === "sending" && live.status === "done";
  useEffect(() => {
    if (finishedSinceLoading && revalidator.state === "idle") void revalidator.revalidate();
  }, [finishedSinceLoading, revalidator]);

  return live;
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border border-border px-4 py-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

export default function NewsletterSending({ loaderData }: Route.ComponentProps) {
  const { id, subject, article, failures, retryingError, mailConfigured } = loaderData;
  const { pathname } = useLocation();
  const progress = useLiveProgress(
    loaderData.progress,
    `/admin/newsletter/envois/${id}/progression`,
  );
  const done = progress.status === "done";

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Envoi de la newsletter"
        summary={
          <>
            « {subject} » · commencé le {progress.startedOn}
          </>
        }
        actions={
          done ? null : (
            // Reloads the figures (what a page without JavaScript has).
            <Link
              to={pathname}
              className="inline-flex h-9 items-center gap-2 rounded-md border border-current px-4 text-sm font-medium hover:bg-black/5"
            >
              <RefreshCw aria-hidden="true" className="size-4" />
              Actualiser
            </Link>
          )
        }
      />

      {!done && !mailConfigured ? (
        <MailNotConfigured>
          Les e-mails de cet envoi attendent dans la file : ils partiront dès que{" "}
          <code className="font-mono">SMTP_URL</code> sera défini et le site redémarré.
        </MailNotConfigured>
      ) : null}

      <section
        aria-labelledby="progression-titre"
        className="space-y-4 rounded-xl border border-border bg-white p-5"
      >
        <h2 id="progression-titre" className="font-sans text-lg font-semibold">
          Progression
        </h2>
        <div className="space-y-2">
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <label htmlFor="progression-envoi" className="font-semibold">
              Progression de l'envoi
            </label>
            <span className="tabular-nums">
              {progress.percent} % ({progress.processed} sur {progress.total})
            </span>
          </div>
          <progress
            id="progression-envoi"
            max={Math.max(progress.total, 1)}
            value={progress.total > 0 ? progress.processed : 1}
            className="h-3 w-full overflow-hidden rounded-full accent-gold-dark"
          >
            {progress.percent} %
          </progress>
        </div>
        <dl className="grid gap-3 sm:grid-cols-4">
          <Figure label="Envoyés" value={progress.sent} />
          <Figure label="En échec" value={progress.failed} />
          <Figure label="En attente" value={progress.pending} />
          <Figure label="Non envoyés (désinscrits entre-temps)" value={progress.skipped} />
        </dl>
        <p role="status" className="font-semibold">
          {done && progress.finishedOn
            ? `Terminé le ${progress.finishedOn}`
            : "Envoi en cours : les e-mails partent à la cadence configurée."}
        </p>
        {!done && retryingError ? (
          <p className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950">
            Dernière erreur, un nouvel essai est prévu : {retryingError}
          </p>
        ) : null}
        {article ? (
          <p className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
            <Link
              to={`/admin/articles/${article.id}/modifier`}
              className="underline underline-offset-4"
            >
              Modifier l'article
            </Link>
            {article.published ? (
              <a
                href={`/blog/${article.slug}`}
                className="inline-flex items-center gap-1.5 underline underline-offset-4"
              >
                <ExternalLink aria-hidden="true" className="size-4" />
                Voir l'article sur le site
              </a>
            ) : null}
          </p>
        ) : null}
      </section>

      {failures.length > 0 ? (
        <AdminSection id="echecs-titre" title="Adresses en échec">
          {loaderData.progress.failed > failures.length ? (
            <p className="pb-3 text-sm text-muted-foreground">
              Les {failures.length} premières sur {loaderData.progress.failed}.
            </p>
          ) : null}
          <AdminTable columns={[{ label: "Adresse" }, { label: "Erreur" }]}>
            {failures.map((failure) => (
              <tr key={failure.id}>
                <td className={cellClass(false, "break-all")}>
                  {failure.email ?? (
                    <span className="text-muted-foreground">Abonné supprimé depuis</span>
                  )}
                </td>
                <td className={cellClass()}>{failure.error}</td>
              </tr>
            ))}
          </AdminTable>
        </AdminSection>
      ) : null}
    </div>
  );
}
