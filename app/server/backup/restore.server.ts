import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { Storage } from "../storage/types";
import {
  BACKUP_FORMAT,
  type BackupHeader,
  type BackupManifest,
  HEADER_ENTRY,
  listTables,
  MANIFEST_ENTRY,
  migrationLevel,
  qualified,
  Tally,
} from "./backup.server";
import { decryptStream, ENCRYPTED_MAGIC, isEncrypted, WrongKeyError } from "./encryption.server";
import { readTar, TarFormatError, type TarEntry } from "./tar.server";

/*
 * A restore (issue 26) never changes the site before the whole archive is known good: a first reading
 * checks every entry against the manifest (sizes, row counts, SHA-256). Then the files are put back (new
 * keys beside the live ones: the site still serves as before), then every table is replaced in ONE
 * transaction (emptied, loaded, counted and hashed again): a failure, or the process killed, rolls it all
 * back. Only once it is committed are the files the archive does not hold removed.
 */

/** Refused: the owner's words for why (a damaged archive, another version…); nothing was changed. */
export class BackupRefusedError extends Error {
  override name = "BackupRefusedError";
}

const DAMAGED = "Cette sauvegarde est abîmée ou incomplète : elle ne peut pas être restaurée.";

type Counted = { bytes: number; rows: number; sha256: string };

async function tallyOf(chunks: AsyncIterable<Buffer>, { rows = false } = {}): Promise<Counted> {
  const hash = createHash("sha256");
  let bytes = 0;
  let lines = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    bytes += chunk.length;
    if (rows) for (const byte of chunk) if (byte === 10) lines += 1;
  }
  return { bytes, rows: lines, sha256: hash.digest("hex") };
}

async function jsonOf<T>(entry: TarEntry): Promise<T> {
  const parts: Buffer[] = [];
  for await (const chunk of entry.body) parts.push(chunk);
  return JSON.parse(Buffer.concat(parts).toString("utf8")) as T;
}

const ENCRYPTED_WITHOUT_KEY =
  "Cette sauvegarde est chiffrée : il faut sa clé (BACKUP_KEY) pour la lire.";
const WRONG_KEY =
  "La clé BACKUP_KEY n'ouvre pas cette sauvegarde : ce n'est pas la bonne clé, ou l'archive a été modifiée.";

/** The archive's bytes, opened with `key` when it is encrypted. */
async function archiveBytes(file: string, key: string | undefined): Promise<AsyncIterable<Buffer>> {
  const handle = await open(file);
  const start = Buffer.alloc(ENCRYPTED_MAGIC.length);
  try {
    await handle.read(start, 0, start.length, 0);
  } finally {
    await handle.close();
  }
  if (!isEncrypted(start)) return createReadStream(file);
  if (!key) throw new BackupRefusedError(ENCRYPTED_WITHOUT_KEY);
  const opened = decryptStream(key);
  pipeline(createReadStream(file), opened).catch((error: unknown) =>
    opened.destroy(error as Error),
  );
  return opened;
}

/** The entries of an archive file, its damage told in the owner's words. */
async function* entriesOf(file: string, key: string | undefined): AsyncGenerator<TarEntry> {
  try {
    yield* readTar(await archiveBytes(file, key));
  } catch (error) {
    throw refusalOf(error);
  }
}

/** An error reading an archive, as the owner is told it (others as they are). */
function refusalOf(error: unknown): unknown {
  if (error instanceof BackupRefusedError) return error;
  if (error instanceof WrongKeyError) return new BackupRefusedError(WRONG_KEY, { cause: error });
  if (
    error instanceof TarFormatError ||
    error instanceof SyntaxError ||
    (error as { code?: string }).code?.startsWith("Z_")
  ) {
    return new BackupRefusedError(DAMAGED, { cause: error });
  }
  return error;
}

/**
 * Reads the whole archive and checks it: its first entry says it is a backup of this site in a format this
 * version reads, each table and file has the size, rows and SHA-256 of the manifest, nothing is missing.
 * Returns the manifest.
 */
export async function verifyBackup(file: string, key?: string): Promise<BackupManifest> {
  let header: BackupHeader | undefined;
  let manifest: BackupManifest | undefined;
  const seen = new Map<string, Counted>();
  try {
    for await (const entry of entriesOf(file, key)) {
      if (!header) {
        if (entry.name !== HEADER_ENTRY) {
          throw new BackupRefusedError("Ce fichier n'est pas une sauvegarde du site.");
        }
        header = await jsonOf<BackupHeader>(entry);
        if (header.format > BACKUP_FORMAT) {
          throw new BackupRefusedError(
            "Cette sauvegarde vient d'une version plus récente du site : mettez le site à jour avant de la restaurer.",
          );
        }
      } else if (entry.name === MANIFEST_ENTRY) {
        manifest = await jsonOf<BackupManifest>(entry);
      } else if (entry.name.startsWith("base/")) {
        seen.set(entry.name, await tallyOf(gunzip(entry.body), { rows: true }));
      } else {
        seen.set(entry.name, await tallyOf(entry.body));
      }
    }
  } catch (error) {
    throw refusalOf(error);
  }
  if (!header) throw new BackupRefusedError("Ce fichier n'est pas une sauvegarde du site.");
  if (!manifest) throw new BackupRefusedError(DAMAGED);
  for (const table of manifest.tables) {
    const found = seen.get(table.entry);
    if (!found || found.rows !== table.rows || found.sha256 !== table.sha256) {
      throw new BackupRefusedError(DAMAGED);
    }
  }
  for (const item of manifest.files) {
    const found = seen.get(item.entry);
    if (!found || found.bytes !== item.size || found.sha256 !== item.sha256) {
      throw new BackupRefusedError(DAMAGED);
    }
  }
  return manifest;
}

/** A gzipped entry's bytes, uncompressed, as they come. */
function gunzip(body: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  const unzipped = createGunzip();
  // An error reading the archive ends the unzipped stream with it (a bare pipe would leave it waiting).
  pipeline(Readable.from(body), unzipped).catch((error: unknown) =>
    unzipped.destroy(error as Error),
  );
  return unzipped;
}

export type RestoreReport = { tables: number; rows: number; files: number; removedFiles: number };

export type RestoreTarget = { pool: pg.Pool; storage: Storage; key?: string };

/**
 * Restores `file` over the site: checked first (nothing changes if it is not good), then the files, then
 * every table in one transaction. The archive must come from the database's own migration level (an older
 * one is brought up by its migrations in a database of its own: see restoreOlder, to come).
 */
export async function restoreBackup(
  file: string,
  { pool, storage, key }: RestoreTarget,
): Promise<RestoreReport> {
  const manifest = await verifyBackup(file, key);
  const client = await pool.connect();
  try {
    const level = await migrationLevel(client);
    if (manifest.migrations.count > level.count) {
      throw new BackupRefusedError(
        "Cette sauvegarde vient d'une version plus récente du site : mettez le site à jour avant de la restaurer.",
      );
    }
    if (manifest.migrations.count < level.count || manifest.migrations.last !== level.last) {
      throw new BackupRefusedError(
        "Cette sauvegarde vient d'une version plus ancienne du site : sa restauration n'est pas encore possible depuis cette version.",
      );
    }
    const tables = await listTables(client);
    const names = new Set(tables.map((table) => table.name));
    if (
      manifest.tables.length !== tables.length ||
      manifest.tables.some((table) => !names.has(table.name))
    ) {
      throw new BackupRefusedError(DAMAGED);
    }

    // The files first, beside the live ones: until the tables switch, the site shows what it showed.
    const wanted = new Map(manifest.files.map((item) => [item.entry, item]));
    for await (const entry of entriesOf(file, key)) {
      const item = wanted.get(entry.name);
      if (!item) continue;
      await storage.put(item.key, Readable.from(entry.body), {
        contentType: item.contentType,
        contentLength: item.size,
      });
    }

    await loadTables(client, { file, key }, manifest);

    const keep = new Set(manifest.files.map((item) => item.key));
    const extra: string[] = [];
    for await (const info of storage.list("")) if (!keep.has(info.key)) extra.push(info.key);
    for (let at = 0; at < extra.length; at += 500) await storage.delete(extra.slice(at, at + 500));
    return {
      tables: manifest.tables.length,
      rows: manifest.tables.reduce((sum, table) => sum + table.rows, 0),
      files: manifest.files.length,
      removedFiles: extra.length,
    };
  } finally {
    client.release();
  }
}

/** Every table emptied and loaded from the archive in one transaction, checked before it commits. */
async function loadTables(
  client: pg.PoolClient,
  { file, key }: { file: string; key: string | undefined },
  manifest: BackupManifest,
) {
  const byEntry = new Map(manifest.tables.map((table) => [table.entry, table]));
  const all = manifest.tables.map((table) => qualified(table.name)).join(", ");
  await client.query("begin");
  try {
    const { rows } = await client.query<{ version: number }>(
      "select version from public.content_version",
    );
    const liveVersion = rows[0]?.version ?? 0;
    // Triggers the site's writes keep (search words, content version) would fire on the loaded rows and
    // clash with the ones loaded after: off while loading, for this transaction only.
    for (const table of manifest.tables) {
      await client.query(`alter table ${qualified(table.name)} disable trigger user`);
    }
    await client.query(`truncate ${all}`);
    let loaded = 0;
    for await (const entry of entriesOf(file, key)) {
      const table = byEntry.get(entry.name);
      if (!table) {
        if (entry.name.startsWith("fichiers/")) break;
        continue;
      }
      const columns = table.columns.map((column) => `"${column.replaceAll('"', '""')}"`).join(", ");
      const tally = new Tally();
      const copy = client.query(copyFrom(`copy ${qualified(table.name)} (${columns}) from stdin`));
      await pipeline(Readable.from(entry.body), createGunzip(), tally, copy);
      if (tally.rows !== table.rows || tally.hash.digest("hex") !== table.sha256) {
        throw new BackupRefusedError(DAMAGED);
      }
      loaded += 1;
    }
    if (loaded !== manifest.tables.length) throw new BackupRefusedError(DAMAGED);
    await resetSequences(client);
    for (const table of manifest.tables) {
      await client.query(`alter table ${qualified(table.name)} enable trigger user`);
    }
    // Pages cached under a number the restored one would reach again must not be served: past both.
    await client.query("update public.content_version set version = greatest(version, $1) + 1", [
      liveVersion,
    ]);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  }
}

/** Each sequence a column owns, set past the largest value restored. */
async function resetSequences(client: pg.ClientBase) {
  const { rows } = await client.query<{ sequence: string; tableName: string; column: string }>(
    `select quote_ident(sn.nspname) || '.' || quote_ident(s.relname) as sequence,
            quote_ident(tn.nspname) || '.' || quote_ident(t.relname) as "tableName",
            quote_ident(a.attname) as column
       from pg_class s
       join pg_namespace sn on sn.oid = s.relnamespace
       join pg_depend d on d.objid = s.oid and d.deptype in ('a', 'i')
       join pg_class t on t.oid = d.refobjid
       join pg_namespace tn on tn.oid = t.relnamespace
       join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
      where s.relkind = 'S' and tn.nspname in ('public', 'drizzle')`,
  );
  for (const row of rows) {
    await client.query(
      `select setval('${row.sequence}', coalesce((select max(${row.column}) from ${row.tableName}), 0) + 1, false)`,
    );
  }
}
