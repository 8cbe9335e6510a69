import path from "node:path";
import { env, type Env } from "~/server/env.server";
import { localStorage } from "./local.server";
import { checkBucket, s3Storage, type S3Settings } from "./s3.server";
import type { Storage } from "./types";

let chosen: Storage | undefined;

/** The S3 settings of a configuration; undefined when its store is the local disk. */
export function s3SettingsOf(config: Env): S3Settings | undefined {
  if (!config.S3_BUCKET || !config.S3_ACCESS_KEY_ID || !config.S3_SECRET_ACCESS_KEY)
    return undefined;
  return {
    endpoint: config.S3_ENDPOINT,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    // S3-compatible servers mostly want the bucket in the path; AWS itself takes both.
    forcePathStyle: config.S3_FORCE_PATH_STYLE ?? Boolean(config.S3_ENDPOINT),
    prefix: config.S3_PREFIX,
    temporaryDirectory: path.join(config.dataDir, "incoming-uploads"),
    timeoutMs: config.S3_TIMEOUT_SECONDS * 1000,
  };
}

/** The local disk's store of a data folder (DATA_DIR/uploads, parts of uploads beside it). */
export function localStorageOf(dataDir: string): Storage {
  return localStorage({
    root: path.join(dataDir, "uploads"),
    partsRoot: path.join(dataDir, "incoming-uploads", "parts"),
  });
}

/**
 * The site's storage, chosen once from the environment: an S3-compatible store when S3_BUCKET is set,
 * else the local disk (DATA_DIR/uploads). The S3 driver loads its SDK on first use (decision 0092).
 */
export function storage(): Storage {
  if (!chosen) {
    const settings = s3SettingsOf(env());
    chosen = settings ? s3Storage(settings) : localStorageOf(env().dataDir);
  }
  return chosen;
}

/**
 * At the server's start: with S3, asks the bucket once (HeadBucket), so that a wrong name, key or address
 * stops the start with a message that names the variables instead of failing at the first upload.
 */
export async function checkStorageAtStart(config: Env = env()): Promise<Storage["kind"]> {
  const settings = s3SettingsOf(config);
  if (!settings) return "local";
  try {
    await checkBucket(settings);
  } catch (error) {
    const reason = error instanceof Error ? `${error.name} : ${error.message}` : String(error);
    throw new Error(
      `Stockage S3 injoignable : le bucket « ${settings.bucket} » ne répond pas ` +
        `(${settings.endpoint ?? "AWS"}, région ${settings.region}). Vérifiez S3_ENDPOINT, S3_BUCKET, ` +
        `S3_REGION, S3_ACCESS_KEY_ID et S3_SECRET_ACCESS_KEY. (${reason})`,
      { cause: error },
    );
  }
  return "s3";
}

/** Tests that change DATA_DIR or the store between runs. */
export function resetStorageForTests(): void {
  chosen = undefined;
}

/**
 * Tests that run the same code against each store (`describe.each(storageDrivers)`): `storage()` answers
 * `store` until the next call (undefined: back to the environment's choice).
 */
export function useStorageForTests(store: Storage | undefined): void {
  chosen = store;
}
