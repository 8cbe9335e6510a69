import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Env } from "../env.server";
import { log } from "../logger.server";
import { s3SettingsOf } from "./storage.server";

/*
 * Every app server on one database must read and write the same files (decision 0119): a photo uploaded
 * through one server is served by the others, a gallery's pieces arrive at any of them. Each server says
 * which file store it uses in the `application_name` of one connection it keeps open for its whole life,
 * so `pg_stat_activity` lists exactly the live servers (a crashed one's connection closes with it). A
 * start whose store differs from a live server's is refused before anything is written.
 */

/** Prefix of the live servers' connection names: `studio app server: <kind> <store's fingerprint>`. */
export const APP_SERVER_APPLICATION_NAME = "studio app server:";
/** The name of the connection while it checks, not yet a server's: the others do not count it. */
const CHECKING_APPLICATION_NAME = "studio app server starting";
/** pg_advisory_xact_lock key: two servers starting at once check one after the other. */
const CLAIM_LOCK = 7_319_007;
/** After a lost connection, the next attempt to claim the store again. */
const RECLAIM_MS = 5_000;

export type FileStore = {
  kind: "local" | "s3";
  /** Same store, same fingerprint: a bucket and prefix, or one machine's folder. */
  fingerprint: string;
  /** What an operator recognises in the refusal. */
  label: string;
};

const fingerprintOf = (text: string) =>
  createHash("sha256").update(text).digest("hex").slice(0, 16);

/**
 * The file store of a configuration. The local disk is this machine's folder: two processes on one machine
 * and one DATA_DIR share it (one systemd unit per port, say); a folder of another machine is another store.
 */
export function fileStoreOf(config: Env): FileStore {
  const s3 = s3SettingsOf(config);
  if (s3) {
    const where = `${s3.endpoint ?? "aws"} ${s3.bucket} ${s3.prefix ?? ""}`;
    return {
      kind: "s3",
      fingerprint: fingerprintOf(where),
      label: `le bucket S3 « ${s3.bucket}${s3.prefix ? `/${s3.prefix}` : ""} »`,
    };
  }
  const folder = path.join(config.dataDir, "uploads");
  return {
    kind: "local",
    fingerprint: fingerprintOf(`${os.hostname()} ${folder}`),
    label: `le disque local (${folder} sur ${os.hostname()})`,
  };
}

const applicationNameOf = (store: FileStore) =>
  `${APP_SERVER_APPLICATION_NAME} ${store.kind} ${store.fingerprint}`;

/** Another live server uses other files: this one must not start. */
export class FileStoreConflictError extends Error {
  override name = "FileStoreConflictError";
}

function refusal(store: FileStore, others: string[]): FileStoreConflictError {
  const otherKinds = new Set(others.map((name) => name.split(" ")[3]));
  const theirs = otherKinds.has("local")
    ? "un autre serveur de l'application, qui garde ses fichiers sur son propre disque,"
    : "un autre serveur de l'application, qui garde ses fichiers dans un autre stockage S3,";
  return new FileStoreConflictError(
    `Ce serveur ne démarre pas : ${theirs} utilise déjà cette base de données, et ce serveur-ci ` +
      `utiliserait ${store.label}. Avec plusieurs serveurs, tous doivent partager le même stockage ` +
      `S3 (variables S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_ENDPOINT) : sans cela, une ` +
      `photo envoyée par l'un serait introuvable sur l'autre. Voir docs/deploy.md.`,
  );
}

/** Connects, checks that every live server uses `store`, and names the connection after it. */
async function claim(databaseUrl: string, store: FileStore): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: CHECKING_APPLICATION_NAME,
  });
  await client.connect();
  try {
    await client.query("begin");
    await client.query("select pg_advisory_xact_lock($1)", [CLAIM_LOCK]);
    const { rows } = await client.query<{ name: string }>(
      `select application_name as name from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and application_name like $1`,
      [`${APP_SERVER_APPLICATION_NAME} %`],
    );
    const others = rows.map((row) => row.name).filter((name) => name !== applicationNameOf(store));
    if (others.length > 0) throw refusal(store, others);
    // Session settings (kept after the commit): the name the others read, and a server that vanishes
    // without closing its connection (a machine switched off) is forgotten within minutes, not hours.
    await client.query("select set_config('application_name', $1, false)", [
      applicationNameOf(store),
    ]);
    await client.query("select set_config('tcp_keepalives_idle', '60', false)");
    await client.query("select set_config('tcp_keepalives_interval', '10', false)");
    await client.query("select set_config('tcp_keepalives_count', '3', false)");
    await client.query("commit");
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

export type FileStoreClaim = { release: () => Promise<void> };

/**
 * Claims `store` for this server on the database at `databaseUrl`; throws FileStoreConflictError when a
 * live server uses other files. The connection is kept (and claimed again if it is lost) until `release`.
 */
export async function claimFileStore(
  databaseUrl: string,
  store: FileStore,
): Promise<FileStoreClaim> {
  let client = await claim(databaseUrl, store);
  let released = false;
  let retry: NodeJS.Timeout | undefined;

  const watch = (current: pg.Client) => {
    let lost = false;
    const onLost = (error?: Error) => {
      if (released || lost) return;
      lost = true;
      log.warn("file_store_claim_lost", { error });
      void current.end().catch(() => undefined);
      retry = setTimeout(reclaim, RECLAIM_MS).unref();
    };
    current.on("error", onLost);
    current.on("end", () => onLost());
  };
  const reclaim = () => {
    claim(databaseUrl, store).then(
      (next) => {
        if (released) return void next.end().catch(() => undefined);
        client = next;
        watch(next);
        log.info("file_store_claimed_again");
      },
      (error: unknown) => {
        if (released) return;
        // A server that started while this one was unseen uses other files: both go on serving, the
        // operator has to act (the refusal says what). Otherwise the database is away: tried again.
        if (error instanceof FileStoreConflictError) log.error("file_store_conflict", { error });
        else log.warn("file_store_claim_failed", { error });
        retry = setTimeout(reclaim, RECLAIM_MS).unref();
      },
    );
  };
  watch(client);

  return {
    release: async () => {
      released = true;
      clearTimeout(retry);
      await client.end().catch(() => undefined);
    },
  };
}
