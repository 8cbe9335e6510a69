import { Download, RotateCcw, ShieldCheck } from "lucide-react";
import { Form, Link } from "react-router";
import {
  AdminSection,
  AdminTable,
  cellClass,
  stackedCellClass,
  stackedRowClass,
} from "~/components/admin/admin-table";
import { formatSize } from "~/lib/sizes";
import { cn } from "~/lib/utils";
import { StatusBadge } from "~/components/admin/status-badge";
import { Button } from "~/components/ui/button";
import { backupDate, RunReport, type RunView, startedBy } from "./run-views";

/** One backup of the list: its facts, its signed download link, its latest check. */
export type BackupRow = {
  name: string;
  size: number;
  createdAt: string;
  encrypted: boolean;
  downloadUrl: string;
  check: RunView | null;
  /** The backup run that wrote it, when still among the recent runs: who started it. */
  made: RunView | null;
};

/**
 * The backups of /admin/sauvegardes, newest first: date, size, « chiffrée », the latest check's result,
 * and « Télécharger », « Vérifier cette sauvegarde », « Restaurer » (each named with its date for
 * assistive technologies).
 */
export function BackupList({
  backups,
  listError,
  busy,
  restoreParam,
}: {
  backups: BackupRow[];
  listError: string | null;
  busy: boolean;
  /** The search parameter that opens a backup's restore confirmation. */
  restoreParam: string;
}) {
  return (
    <AdminSection id="liste-sauvegardes" title="Sauvegardes disponibles">
      {listError ? (
        <p role="alert" className="text-sm text-red-900">
          {listError}
        </p>
      ) : backups.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          Aucune sauvegarde pour l'instant : la première sera faite cette nuit, ou tout de suite
          avec « Sauvegarder maintenant ».
        </p>
      ) : (
        <AdminTable
          stackOnPhone
          columns={[
            { label: "Date" },
            { label: "Taille", numeric: true },
            { label: "Vérification" },
            { label: "Actions" },
          ]}
        >
          {backups.map((backup) => {
            const date = backupDate(backup.createdAt);
            const checking =
              backup.check?.status === "queued" || backup.check?.status === "running";
            return (
              <tr
                key={backup.name}
                className={cn("border-b border-border align-top last:border-0", stackedRowClass)}
              >
                <th
                  scope="row"
                  className={cellClass(false, cn("text-left font-semibold", stackedCellClass))}
                >
                  {date}
                  {backup.encrypted ? (
                    <span className="ml-2">
                      <StatusBadge tone="info">chiffrée</StatusBadge>
                    </span>
                  ) : null}
                  {backup.made && startedBy(backup.made) ? (
                    <span className="block text-xs font-normal text-muted-foreground">
                      {startedBy(backup.made)}
                    </span>
                  ) : null}
                </th>
                <td
                  className={cellClass(
                    true,
                    cn("whitespace-nowrap tabular-nums", stackedCellClass),
                  )}
                >
                  {formatSize(backup.size)}
                </td>
                <td className={cellClass(false, stackedCellClass)}>
                  {checking ? (
                    <p className="text-sm">Vérification en cours…</p>
                  ) : backup.check ? (
                    <RunReport run={backup.check} />
                  ) : (
                    <p className="text-sm text-muted-foreground">Pas encore vérifiée</p>
                  )}
                </td>
                <td className={cellClass(false, stackedCellClass)}>
                  <div className="flex flex-wrap gap-2">
                    <a
                      href={backup.downloadUrl}
                      download={backup.name}
                      className="inline-flex h-9 items-center gap-2 rounded-full border border-current px-4 text-sm font-semibold hover:bg-black/5"
                    >
                      <Download aria-hidden="true" className="size-4" />
                      Télécharger<span className="sr-only"> la sauvegarde du {date}</span>
                    </a>
                    <Form method="post">
                      <input type="hidden" name="sauvegarde" value={backup.name} />
                      <Button
                        type="submit"
                        name="intent"
                        value="check"
                        variant="outline"
                        size="sm"
                        disabled={busy || checking}
                      >
                        <ShieldCheck aria-hidden="true" />
                        Vérifier cette sauvegarde
                        <span className="sr-only"> du {date}</span>
                      </Button>
                    </Form>
                    <Link
                      to={`/admin/sauvegardes?${restoreParam}=${encodeURIComponent(backup.name)}`}
                      className="inline-flex h-9 items-center gap-2 rounded-full px-4 text-sm font-semibold text-destructive hover:bg-red-50"
                    >
                      <RotateCcw aria-hidden="true" className="size-4" />
                      Restaurer<span className="sr-only"> la sauvegarde du {date}</span>
                    </Link>
                  </div>
                </td>
              </tr>
            );
          })}
        </AdminTable>
      )}
    </AdminSection>
  );
}
