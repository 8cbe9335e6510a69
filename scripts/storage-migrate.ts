// `npm run storage:migrate -- [--dry-run] [--delete-local]`: copies the files of the local disk
// (DATA_DIR/uploads: blog images, media library, client galleries) into the S3 bucket of the S3_*
// variables (decision 0100). Idempotent and resumable: an object already in the bucket with the same size
// is skipped (files are never rewritten under the same name), so it can run while the site runs, be
// stopped and run again. --dry-run only counts. --delete-local removes the local files, only after a pass
// without errors and once each object has been checked again in the bucket.
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import type * as EnvModule from "../app/server/env.server.ts";
import type * as KeysModule from "../app/server/storage/keys.ts";
import type * as S3Module from "../app/server/storage/s3.server.ts";
import type * as StorageModule from "../app/server/storage/storage.server.ts";
import { appModuleLoader, relaunchAsSmallProcess } from "./lib/app-loader.ts";

/** Files copied at a time: enough to hide the store's latency, little for a small server. */
const CONCURRENCY = 4;

const { values } = parseArgs({
  options: { "dry-run": { type: "boolean" }, "delete-local": { type: "boolean" } },
  strict: true,
});
const dryRun = values["dry-run"] === true;
const deleteLocal = values["delete-local"] === true;
if (dryRun && deleteLocal) {
  console.error("✖ --dry-run et --delete-local ne vont pas ensemble.");
  process.exit(1);
}

relaunchAsSmallProcess();
const load = await appModuleLoader();

let exitCode = 0;
try {
  exitCode = await migrate();
} catch (error) {
  console.error("✖ Migration interrompue :", error instanceof Error ? error.message : error);
  exitCode = 1;
}
process.exit(exitCode);

async function migrate(): Promise<number> {
  const { parseEnv, EnvError } = await load<typeof EnvModule>("app/server/env.server.ts");
  const { checkKey, contentTypeOf } = await load<typeof KeysModule>("app/server/storage/keys.ts");
  const { s3Storage } = await load<typeof S3Module>("app/server/storage/s3.server.ts");
  const { s3SettingsOf, checkStorageAtStart } = await load<typeof StorageModule>(
    "app/server/storage/storage.server.ts",
  );

  let config;
  try {
    config = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(`✖ ${error.message}`);
      return 1;
    }
    throw error;
  }
  const settings = s3SettingsOf(config);
  if (!settings) {
    console.error(
      "✖ Aucun stockage S3 configuré : définissez S3_BUCKET, S3_ACCESS_KEY_ID et S3_SECRET_ACCESS_KEY " +
        "(et S3_ENDPOINT hors AWS), puis relancez.",
    );
    return 1;
  }
  await checkStorageAtStart(config);
  const bucket = s3Storage(settings);
  const uploads = path.join(config.dataDir, "uploads");
  console.log(
    `${dryRun ? "Simulation : " : ""}${uploads} → bucket « ${settings.bucket} »` +
      `${settings.prefix ? ` (préfixe ${settings.prefix})` : ""}`,
  );

  const files = await localFiles(uploads);
  const keys: { key: string; file: string; size: number }[] = [];
  const ignored: string[] = [];
  for (const file of files) {
    const key = path.relative(uploads, file.path).split(path.sep).join("/");
    try {
      keys.push({ key: checkKey(key), file: file.path, size: file.size });
    } catch {
      ignored.push(key);
    }
  }

  let copied = 0;
  let present = 0;
  const errors: string[] = [];
  await inParallel(keys, async ({ key, file, size }) => {
    try {
      const found = await bucket.head(key);
      if (found && found.size === size) {
        present += 1;
        return;
      }
      if (!dryRun) {
        await bucket.put(key, createReadStream(file), {
          contentType: contentTypeOf(key),
          contentLength: size,
        });
      }
      copied += 1;
    } catch (error) {
      errors.push(`${key} : ${error instanceof Error ? error.message : String(error)}`);
    }
  });

  for (const error of errors) console.error(`✖ ${error}`);
  for (const key of ignored) {
    console.warn(
      `! ${key} : nom de fichier qu'aucune adresse du site ne sert, laissé sur le disque`,
    );
  }
  console.log(
    dryRun
      ? `${copied} à copier, ${present} déjà présents, ${errors.length} erreurs`
      : `${copied} copiés, ${present} déjà présents, ${errors.length} erreurs`,
  );
  if (errors.length > 0) {
    if (deleteLocal) console.error("✖ Fichiers locaux conservés : relancez après les erreurs.");
    return 1;
  }

  if (deleteLocal) {
    // Each object is asked again; a file goes only when the bucket holds all of its bytes.
    let deleted = 0;
    const kept: string[] = [];
    await inParallel(keys, async ({ key, file, size }) => {
      const found = await bucket.head(key).catch(() => null);
      if (found?.size === size) {
        await fs.rm(file, { force: true });
        deleted += 1;
      } else {
        kept.push(key);
      }
    });
    for (const key of kept)
      console.error(`✖ ${key} : absent ou incomplet dans le bucket, conservé`);
    console.log(`${deleted} fichiers locaux supprimés`);
    if (kept.length > 0) return 1;
  }
  return 0;
}

/** Every file under `directory` (none when it does not exist), skipping writes in progress (`*.tmp-*`). */
async function localFiles(directory: string): Promise<{ path: string; size: number }[]> {
  let entries;
  try {
    entries = await fs.readdir(directory, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files = entries
    .filter((entry) => entry.isFile() && !entry.name.includes(".tmp-"))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  return Promise.all(files.map(async (file) => ({ path: file, size: (await fs.stat(file)).size })));
}

async function inParallel<T>(items: T[], run: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await run(item);
      }
    }),
  );
}
