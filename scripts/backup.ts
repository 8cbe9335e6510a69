// `npm run backup`: backs the site up now into DATA_DIR/backups (encrypted with BACKUP_KEY when set), then
// deletes the backups the retention no longer keeps. The site may be running: its database is read from
// one snapshot while it serves.
import type * as ServiceModule from "../app/server/backup/service.server.ts";
import { formatSize } from "../app/lib/sizes.ts";
import { runWithAppDatabase } from "./lib/app-database.ts";

await runWithAppDatabase("✖ Sauvegarde impossible :", async (load) => {
  const { backUpNow, destinationOf } = await load<typeof ServiceModule>(
    "app/server/backup/service.server.ts",
  );
  const result = await backUpNow();
  const where = destinationOf().description;
  console.log(
    `✔ Sauvegarde ${result.name} : ${result.manifest.tables.length} tables, ${result.manifest.files.length} fichiers, ${formatSize(result.size)} (${where.kind === "s3" ? `bucket ${where.bucket}${where.prefix ? `, ${where.prefix}` : ""}` : where.directory}).`,
  );
});
