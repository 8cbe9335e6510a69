// `npm run backup`: backs the site up now into DATA_DIR/backups (encrypted with BACKUP_KEY when set), then
// deletes the backups the retention no longer keeps. The site may be running: its database is read from
// one snapshot while it serves. The same door as the backups page (decision 0143): recorded in
// `backup_runs` as the command line's (the page and the health count it), and refused, exit 1, while
// another backup, check or restore runs (the page's, the nightly job's, another command line's).
import type * as ServiceModule from "../app/server/backup/service.server.ts";
import { formatSize } from "../app/lib/sizes.ts";
import { runWithAppDatabase } from "./lib/app-database.ts";

await runWithAppDatabase("✖ Sauvegarde impossible :", async (load) => {
  const { BackupBusyError, backUpFromCommandLine, destinationOf } = await load<
    typeof ServiceModule
  >("app/server/backup/service.server.ts");
  let result;
  try {
    result = await backUpFromCommandLine();
  } catch (error) {
    if (!(error instanceof BackupBusyError)) throw error;
    console.error(`✖ ${error.message}`);
    process.exitCode = 1;
    return;
  }
  const where = destinationOf().description;
  console.log(
    `✔ Sauvegarde ${result.name} : ${result.manifest.tables.length} tables, ${result.manifest.files.length} fichiers, ${formatSize(result.size)} (${where.kind === "s3" ? `bucket ${where.bucket}${where.prefix ? `, ${where.prefix}` : ""}` : where.directory}).`,
  );
});
