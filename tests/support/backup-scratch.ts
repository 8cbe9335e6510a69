import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createBackup } from "../../app/server/backup/backup.server";
import { restoreBackup } from "../../app/server/backup/restore.server";
import { db, type Database } from "../../app/server/db/client.server";
import { storageDrivers, type StorageUnderTest } from "./storage-drivers";

/**
 * A test file's backups: a local store and a scratch folder for the file (removed after it), and the two
 * calls its tests make on a database (the file's by default): back it up, restore an archive onto it.
 */
export function useBackupScratch(name: string) {
  let store: StorageUnderTest | undefined;
  let directory = "";
  beforeAll(async () => {
    const [local] = storageDrivers;
    if (!local) throw new Error("no local storage driver");
    store = await local.start();
    directory = await mkdtemp(path.join(os.tmpdir(), `${name}-`));
  });
  afterAll(async () => {
    await store?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });
  const storage = () => {
    if (!store) throw new Error("backup scratch not started");
    return store.storage;
  };
  return {
    backUp: (database: Database = db()) =>
      createBackup({ pool: database.$client, storage: storage(), directory }),
    restore: (file: string, database: Database = db()) =>
      restoreBackup(file, { pool: database.$client, storage: storage() }),
  };
}
