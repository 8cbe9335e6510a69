import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { localStorage } from "../../app/server/storage/local.server";
import { s3Storage } from "../../app/server/storage/s3.server";
import { useStorageForTests } from "../../app/server/storage/storage.server";
import type { Storage } from "../../app/server/storage/types";
import { startS3Server, type S3Env } from "./s3-server";

export type StorageUnderTest = {
  storage: Storage;
  /**
   * The variables that give a server process this same store: DATA_DIR's uploads for the local disk (the
   * caller's DATA_DIR must be `dataDir`), the S3_* variables for S3.
   */
  env: Partial<S3Env>;
  /** A folder of its own for the rest of the test's files (DATA_DIR when the store is the local disk). */
  dataDir: string;
  stop: () => Promise<void>;
};

export type StorageDriver = { kind: Storage["kind"]; start: () => Promise<StorageUnderTest> };

/**
 * The two stores every storage-dependent integration test runs against (`describe.each(storageDrivers)`):
 * the local disk in a temporary DATA_DIR, and a real S3-compatible server (s3rver in a child process).
 */
export const storageDrivers: StorageDriver[] = [
  {
    kind: "local",
    async start() {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), "storage-local-"));
      return {
        storage: localStorage({
          root: path.join(dataDir, "uploads"),
          partsRoot: path.join(dataDir, "incoming-uploads", "parts"),
        }),
        env: {},
        dataDir,
        stop: () => rm(dataDir, { recursive: true, force: true }),
      };
    },
  },
  {
    kind: "s3",
    async start() {
      const server = await startS3Server();
      const dataDir = await mkdtemp(path.join(os.tmpdir(), "storage-s3-"));
      return {
        storage: s3Storage({
          endpoint: server.env.S3_ENDPOINT,
          bucket: server.env.S3_BUCKET,
          region: server.env.S3_REGION,
          accessKeyId: server.env.S3_ACCESS_KEY_ID,
          secretAccessKey: server.env.S3_SECRET_ACCESS_KEY,
          forcePathStyle: true,
          temporaryDirectory: path.join(dataDir, "incoming-uploads"),
        }),
        env: server.env,
        dataDir,
        async stop() {
          await server.stop();
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];

/**
 * In a `describe.each(storageDrivers)` block: starts the driver's store before the block's tests, points the
 * app's `storage()` at it, and stops it afterwards. The store itself, for what a test reads beside the app.
 */
export function useStorageDriver(driver: StorageDriver): () => StorageUnderTest {
  let store: StorageUnderTest | undefined;
  beforeAll(async () => {
    store = await driver.start();
    useStorageForTests(store.storage);
  });
  afterAll(async () => {
    useStorageForTests(undefined);
    await store?.stop();
  });
  return () => {
    if (!store) throw new Error("the store starts before the tests");
    return store;
  };
}
