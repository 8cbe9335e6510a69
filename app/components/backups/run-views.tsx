import { CircleAlert, CircleCheck, RefreshCw } from "lucide-react";
import { useEffect } from "react";
import { Link, useRevalidator } from "react-router";
import { AdminSection } from "~/components/admin/admin-table";
import { formatLongDateTimeFr } from "~/lib/dates";
import { formatSize } from "~/lib/sizes";
import { POLL_INTERVAL_MS } from "~/lib/use-polled";
import type { BackupRunProgress, BackupRunReport } from "~/server/db/schema";

/*
 * The parts of /admin/sauvegardes and of a restore's page (decision 0118): a size as the owner reads it,
 * a run under way as a real progress bar with its words, and what a check or a restore found.
 */

/** A backup, a check or a restore as the pages show it (dates as ISO strings). */
export type RunView = {
  id: string;
  kind: "backup" | "check" | "restore";
  reason: "schedule" | "manual" | "safety";
  /** Who started it: an administrator's name (asked from the page), the command line, or neither (the night). */
  origin: "server" | "command-line";
  requestedBy: string | null;
  status: "queued" | "running" | "done" | "failed";
  file: string | null;
  progress: BackupRunProgress | null;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
  report: BackupRunReport | null;
};

/**
 * While work is under way: the page's data again every 2 s (only while the tab is in view). Without
 * JavaScript, the page's `<noscript>` refresh and its « Actualiser » link do it.
 */
export function useRefreshWhile(underWay: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!underWay) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState !== "hidden" && revalidator.state === "idle") {
        void revalidator.revalidate();
      }
    }, POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [underWay, revalidator]);
}

/** Reloads the page every 3 s without JavaScript (a `<noscript>` is inert when scripts run). */
export function RefreshWithoutScript() {
  return (
    <noscript>
      <meta httpEquiv="refresh" content="3" />
    </noscript>
  );
}

/** The « Actualiser » link: the page loaded again, as the refresh does. */
export function RefreshLink({ to }: { to: string }) {
  return (
    <Link
      to={to}
      className="inline-flex h-9 items-center gap-2 rounded-full border border-current px-4 text-sm font-semibold hover:bg-black/5"
    >
      <RefreshCw aria-hidden="true" className="size-4" />
      Actualiser
    </Link>
  );
}

/** A backup's date as its name on the page: « 27 novembre 2026 à 03:00 ». */
export const backupDate = (createdAt: string) => formatLongDateTimeFr(createdAt);

/**
 * Who started a run, in words: « ligne de commande » for `npm run backup` / `npm run restore` (decision
 * 0143), « demandée par … » for an administrator; null for the nightly backup.
 */
export function startedBy(run: Pick<RunView, "origin" | "requestedBy">): string | null {
  if (run.origin === "command-line") return "ligne de commande";
  return run.requestedBy ? `demandée par ${run.requestedBy}` : null;
}

/** A run's own words, with its step. */
function runTitle(run: RunView): string {
  const date = run.file ? backupDateOfFile(run.file) : null;
  switch (run.kind) {
    case "check":
      return `Vérification de la sauvegarde${date ? ` du ${date}` : ""}`;
    case "restore":
      return `Restauration de la sauvegarde${date ? ` du ${date}` : ""}`;
    default:
      return run.reason === "safety"
        ? "Sauvegarde de sécurité du site avant la restauration"
        : run.reason === "schedule"
          ? "Sauvegarde de la nuit"
          : "Sauvegarde demandée";
  }
}

/** The date a backup's file name says (`sauvegarde-2026-11-27-030000.tar`). */
export function backupDateOfFile(name: string): string | null {
  const match = /^sauvegarde-(\d{4})-(\d{2})-(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(name);
  if (!match) return null;
  const [, year, month, day, hours, minutes, seconds] = match;
  return backupDate(`${year}-${month}-${day}T${hours}:${minutes}:${seconds}Z`);
}

const RESTORE_STEPS = ["download", "check", "safety", "restore"] as const;

/** Where a run is, in words, and the bar's value and maximum. */
function stepOf(run: RunView): { text: string; value: number; max: number } {
  const progress = run.progress;
  if (run.status === "queued") return { text: "En attente de démarrage…", value: 0, max: 1 };
  if (!progress) return { text: "Démarrage…", value: 0, max: 1 };
  switch (progress.step) {
    case "tables":
      return {
        text: `Base de données : ${progress.done} sur ${progress.total} tables`,
        value: progress.done,
        max: Math.max(progress.total, 1),
      };
    case "files":
      return {
        text: `Photos et fichiers : ${progress.done} sur ${progress.total}`,
        value: progress.done,
        max: Math.max(progress.total, 1),
      };
    default: {
      const words = {
        download: "Téléchargement de l'archive depuis l'espace S3",
        check: "Vérification de l'archive entière",
        safety: "Sauvegarde de sécurité du site tel qu'il est",
        restore: "Remplacement des données du site",
      }[progress.step];
      const steps = run.kind === "restore" ? RESTORE_STEPS : (["download", "check"] as const);
      const index = steps.findIndex((step) => step === progress.step);
      return {
        text: `Étape ${index + 1} sur ${steps.length} : ${words}`,
        value: index,
        max: steps.length,
      };
    }
  }
}

/** A run waiting or under way: its title, a <progress> and the same in words. */
export function RunProgress({ run }: { run: RunView }) {
  const step = stepOf(run);
  const id = `progression-${run.id}`;
  const by = startedBy(run);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-3 text-sm">
        <p>
          <label htmlFor={id} className="font-semibold">
            {runTitle(run)}
          </label>
          {by ? <span className="text-muted-foreground"> ({by})</span> : null}
        </p>
        <span>{step.text}</span>
      </div>
      <progress
        id={id}
        max={step.max}
        value={step.value}
        className="h-3 w-full overflow-hidden rounded-full accent-gold-dark"
      >
        {step.text}
      </progress>
    </div>
  );
}

/** The owner's names of the tables she knows, for a report's figures. */
const KNOWN_TABLES: Array<[string, string]> = [
  ["public.blog_articles", "articles"],
  ["public.media", "photos de la médiathèque"],
  ["public.blog_newsletter_subscribers", "abonnés"],
  ["public.galleries", "galeries clients"],
  ["public.gallery_photos", "photos de galeries"],
  ["public.bookings", "réservations"],
  ["public.contact_messages", "messages"],
];

/** What a check or a restore found, in sentences. */
export function RunReport({ run }: { run: RunView }) {
  const when = run.finishedAt ? formatLongDateTimeFr(run.finishedAt) : null;
  if (run.status === "failed") {
    return (
      <p className="flex items-start gap-2 text-sm text-red-900">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          {run.kind === "restore" ? "Restauration refusée ou échouée" : "Vérification échouée"}
          {when ? ` le ${when}` : ""}
          {startedBy(run) ? ` (${startedBy(run)})` : ""} : {run.error ?? "raison inconnue"}. Le site
          n'a pas été modifié.
        </span>
      </p>
    );
  }
  const report = run.report;
  if (run.status !== "done" || !report) return null;
  const figures = KNOWN_TABLES.flatMap(([table, label]) =>
    report.counts[table] === undefined ? [] : [`${report.counts[table]} ${label}`],
  );
  return (
    <div className="space-y-1 text-sm">
      <p className="flex items-start gap-2 text-emerald-900">
        <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          {run.kind === "restore"
            ? `Restaurée${when ? ` le ${when}` : ""}${startedBy(run) ? ` (${startedBy(run)})` : ""}.`
            : `Vérifiée${when ? ` le ${when}` : ""} : elle se restaure entièrement, sans problème.`}
        </span>
      </p>
      <p>
        {report.tables} tables ({report.rows.toLocaleString("fr-FR")} lignes),{" "}
        {report.files === 0
          ? "aucun fichier déposé depuis l'administration"
          : `${report.files} fichiers déposés depuis l'administration (${formatSize(report.bytes)})`}
        {report.migrations ? `, version de la base ${report.migrations.count}` : ""}
        {report.encrypted ? ", chiffrée" : ""}.
      </p>
      {figures.length > 0 ? <p>Dont : {figures.join(", ")}.</p> : null}
      {figures.length > 0 ? (
        <p className="text-muted-foreground">
          Les fichiers comptés sont ceux que vous avez déposés depuis l'administration (photos de la
          médiathèque, des galeries et des articles). Les photos de la médiathèque livrées avec le
          site (celles de sa première mise en ligne) sont comptées parmi ses photos, mais leurs
          fichiers font partie du logiciel : ils ne sont pas dans la sauvegarde, et n'ont pas besoin
          d'y être.
        </p>
      ) : null}
      {report.safetyBackup ? (
        <p>
          Le site d'avant la restauration est gardé dans la sauvegarde du{" "}
          {backupDateOfFile(report.safetyBackup) ?? report.safetyBackup}.
        </p>
      ) : null}
    </div>
  );
}

/** The page's « En cours »: every run waiting or under way, refreshed until none is left. */
export function UnderWay({ runs, refreshTo }: { runs: RunView[]; refreshTo: string }) {
  return (
    <AdminSection id="en-cours" title="En cours">
      <RefreshWithoutScript />
      <div className="space-y-4" aria-live="polite">
        {runs.map((run) => (
          <RunProgress key={run.id} run={run} />
        ))}
        <RefreshLink to={refreshTo} />
      </div>
    </AdminSection>
  );
}
