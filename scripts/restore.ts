// `npm run restore -- <archive>`: restores a backup over the site (DATABASE_URL, else the embedded database
// of DATA_DIR; files to the site's storage). The archive is checked whole first (nothing changes if it is
// damaged, from a newer version, or encrypted with another key than BACKUP_KEY); a safety backup of the
// site as it is comes next (--sans-sauvegarde to skip it on a new machine), then files and tables. A name
// that is no file here is looked for where the backups are kept (the BACKUP_S3_* bucket, decision 0118).
// With BACKUP_KEY set, an archive not encrypted with it is refused unless --accepter-non-chiffree.
// The same door as the backups page (decision 0143): recorded in `backup_runs` as the command line's, and
// refused, exit 1, while another backup, check or restore runs (the nightly job's included).
import { parseArgs } from "node:util";
import type * as RestoreModule from "../app/server/backup/restore.server.ts";
import type * as ServiceModule from "../app/server/backup/service.server.ts";
import { runWithAppDatabase } from "./lib/app-database.ts";

const { values, positionals } = parseArgs({
  options: {
    "sans-sauvegarde": { type: "boolean" },
    // With BACKUP_KEY set, a plain archive is refused unless the operator accepts it knowingly (decision 0129).
    "accepter-non-chiffree": { type: "boolean" },
  },
  allowPositionals: true,
  strict: true,
});
const [archive] = positionals;
if (!archive || positionals.length > 1) {
  console.error("✖ Indiquez une sauvegarde : npm run restore -- chemin/vers/sauvegarde-….tar");
  process.exit(1);
}

await runWithAppDatabase("✖ Restauration impossible :", async (load) => {
  const { restoreFromCommandLine } = await load<typeof ServiceModule>(
    "app/server/backup/service.server.ts",
  );
  const { BackupRefusedError, UnencryptedArchiveError } = await load<typeof RestoreModule>(
    "app/server/backup/restore.server.ts",
  );
  try {
    const report = await restoreFromCommandLine(archive, {
      safety: values["sans-sauvegarde"] !== true,
      acceptUnencrypted: values["accepter-non-chiffree"] === true,
    });
    if (!report) {
      console.error(
        `✖ Aucune sauvegarde « ${archive} » ici ni là où sont gardées les sauvegardes.`,
      );
      process.exitCode = 1;
      return;
    }
    if (report.safetyBackup) {
      console.log(`✔ Sauvegarde de sécurité du site d'avant : ${report.safetyBackup}.`);
    }
    console.log(
      `✔ Restauré : ${report.tables} tables (${report.rows} lignes), ${report.files} fichiers.`,
    );
  } catch (error) {
    // A refusal (a damaged or foreign archive, another run under way: BackupBusyError) changed nothing.
    if (error instanceof BackupRefusedError) {
      console.error(`✖ ${error.message} Le site n'a pas été modifié.`);
      if (error instanceof UnencryptedArchiveError) {
        console.error(
          "  Si vous savez d'où elle vient, restaurez-la quand même avec --accepter-non-chiffree.",
        );
      }
      process.exitCode = 1;
      return;
    }
    throw error;
  }
});
