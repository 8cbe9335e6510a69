import { CircleAlert, ShieldCheck } from "lucide-react";
import { formatLongDateTimeFr } from "~/lib/dates";
import { formatSize } from "~/lib/sizes";

/** What the dashboard knows of the backups (service.server's BackupHealth, dates as ISO strings). */
export type BackupStatusData = {
  state: "ok" | "running" | "failed" | "missed" | "never";
  lastSuccess: { at: string; bytes: number | null } | null;
  /** `emailed`: false when it failed in a command line (decision 0143), which e-mails nobody. */
  lastFailure: { at: string; error: string | null; emailed: boolean } | null;
};

/**
 * The backups on the dashboard (decision 0118): one calm line while they run every night (or before the first
 * night), red when the last one failed or none came for more than a day, with what to do.
 */
export function BackupStatus({ status }: { status: BackupStatusData }) {
  const last = status.lastSuccess
    ? `Dernière sauvegarde réussie : le ${formatLongDateTimeFr(status.lastSuccess.at)}${
        status.lastSuccess.bytes ? ` (${formatSize(status.lastSuccess.bytes)})` : ""
      }.`
    : "Aucune sauvegarde réussie pour l'instant.";
  if (status.state === "never") {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <ShieldCheck aria-hidden="true" className="size-4" />
        Aucune sauvegarde pour l'instant : le site est sauvegardé automatiquement chaque nuit.
      </p>
    );
  }
  if (status.state === "ok" || status.state === "running") {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <ShieldCheck aria-hidden="true" className="size-4" />
        {status.state === "running" ? "Sauvegarde en cours. " : ""}
        {last}
      </p>
    );
  }
  const title =
    status.state === "failed"
      ? "La dernière sauvegarde a échoué"
      : "Aucune sauvegarde depuis plus d'un jour";
  return (
    <section
      aria-label="Sauvegardes"
      className="rounded-xl border border-red-300 bg-red-50 p-4 text-sm text-red-950"
    >
      <p className="flex items-center gap-2 font-semibold">
        <CircleAlert aria-hidden="true" className="size-5" />
        {title}
      </p>
      {status.state === "failed" && status.lastFailure ? (
        <p className="mt-1">
          Le {formatLongDateTimeFr(status.lastFailure.at)} :{" "}
          {status.lastFailure.error ?? "raison inconnue"}.
        </p>
      ) : null}
      <p className="mt-1">{last}</p>
      <p className="mt-1">
        {status.state === "failed" && status.lastFailure && !status.lastFailure.emailed
          ? "Elle avait été lancée en ligne de commande par la personne qui s'occupe de l'hébergement du site, qui en a vu le détail. La prochaine sauvegarde est tentée chaque nuit."
          : "Les administrateurs en ont reçu le détail par e-mail : transmettez-le à la personne qui s'occupe de l'hébergement du site. La prochaine sauvegarde est tentée chaque nuit."}
      </p>
    </section>
  );
}
