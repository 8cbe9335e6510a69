// Command-line tools that work on the site's data (admin:create, db:seed, backup, restore) share this: the
// app's server modules come from the production build (scripts/lib/app-loader.ts), and the database is
// DATABASE_URL, else the embedded PostgreSQL in DATA_DIR — the one the running site holds, or one started
// for the task.
import path from "node:path";
import type * as ClientModule from "../../app/server/db/client.server.ts";
import type * as EmbeddedModule from "../../app/server/db/embedded.server.ts";
import type * as DatabaseBootModule from "../../app/server/boot/database.server.ts";
import type * as EnvModule from "../../app/server/env.server.ts";
import { appModuleLoader, relaunchAsSmallProcess, type AppModuleLoader } from "./app-loader.ts";

/**
 * Runs `task` with the app's database connected (migrations applied), then closes everything and exits:
 * 0 when the task succeeded, 1 after printing `failureMessage` and the error.
 */
export async function runWithAppDatabase(
  failureMessage: string,
  task: (load: AppModuleLoader) => Promise<void>,
): Promise<never> {
  relaunchAsSmallProcess();
  const load = await appModuleLoader();
  let exitCode = 0;
  let stopEmbedded: (() => Promise<void>) | undefined;
  const client = await load<typeof ClientModule>("app/server/db/client.server.ts");
  try {
    const config = (await load<typeof EnvModule>("app/server/env.server.ts")).env();
    let url = config.DATABASE_URL;
    if (!url) {
      const embedded = await load<typeof EmbeddedModule>("app/server/db/embedded.server.ts");
      const directory = path.join(config.dataDir, "postgres");
      url = embedded.runningEmbeddedPostgresUrl(directory);
      if (!url) {
        const started = await embedded.startEmbeddedPostgres({ directory, holdDataFolder: true });
        stopEmbedded = started.stop;
        url = started.url;
      }
    }
    const database = client.connectDatabase(url);
    await (
      await load<typeof DatabaseBootModule>("app/server/boot/database.server.ts")
    ).prepareDatabase(database);
    await task(load);
  } catch (error) {
    console.error(failureMessage, error);
    exitCode = 1;
  } finally {
    await client.closeDatabase();
    await stopEmbedded?.();
  }
  // A task may set process.exitCode itself (a refusal it printed in its own words).
  process.exit(exitCode || Number(process.exitCode ?? 0));
}
