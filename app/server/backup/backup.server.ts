import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { chmod, link, mkdir, open, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Transform, type Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { log } from "../logger.server";
import { isSiteFileKey } from "../storage/keys";
import type { Storage } from "../storage/types";
import { encryptStream } from "./encryption.server";
import { finishPendingSwitches, STAGING_ROOT } from "./staged-files.server";
import { TarWriter } from "./tar.server";

/*
 * A backup (decision 0117) is one tar archive: `sauvegarde.json` first (what it is, from which migration level),
 * then every table of the site's database as PostgreSQL's COPY text (gzipped, one entry a table, all from
 * one repeatable-read snapshot taken while the site keeps serving), then every stored file (local disk or
 * S3 alike, through the storage interface), then `manifest.json` with each table's row count and each
 * entry's SHA-256: what a restore checks before it changes anything. Nothing is held in memory: tables are
 * spooled to a file beside the archive (a tar entry needs its size first), S3 objects streamed through,
 * local files read into one reused buffer (bench « sauvegardes »: the server's RSS for 5 GB of photos).
 */

export const BACKUP_FORMAT = 1;
/** The schemas backed up: the site's tables and drizzle's record of the migrations applied. */
export const BACKUP_SCHEMAS = ["public", "drizzle"] as const;
/** Tables left out: the history of backups, the restore's pending file moves, the months of the e-mailed
 * download links (decision 0139) and of the accountant's e-mailed files (decision 0189): a restore must
 * not rewind them. */
export const NOT_BACKED_UP = [
  "public.backup_runs",
  "public.restore_file_switches",
  "public.backup_link_mails",
  "public.accountant_monthly_mails",
] as const;

export type TableManifest = {
  /** `schema.table`. */
  name: string;
  /** The columns copied, in order (generated columns are PostgreSQL's to compute again). */
  columns: string[];
  rows: number;
  /** SHA-256 of the COPY text, before compression. */
  sha256: string;
  entry: string;
};

export type FileManifest = {
  key: string;
  size: number;
  contentType: string;
  sha256: string;
  entry: string;
};

export type MigrationLevel = { count: number; last: string | null };

export type BackupHeader = {
  format: number;
  createdAt: string;
  migrations: MigrationLevel;
  storage: Storage["kind"];
};

export type BackupManifest = BackupHeader & { tables: TableManifest[]; files: FileManifest[] };

export const HEADER_ENTRY = "sauvegarde.json";
export const MANIFEST_ENTRY = "manifest.json";

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const qualified = (name: string) =>
  name
    .split(".")
    .map((part) => quoteIdent(part))
    .join(".");

/**
 * The tables backed up with their copied columns, parents before the tables that refer to them: a restore
 * loads them in the archive's order and every foreign key finds its row.
 */
export async function listTables(
  client: pg.ClientBase,
): Promise<Array<{ name: string; columns: string[] }>> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(
    `select n.nspname || '.' || c.relname as name,
            array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                          and a.attgenerated = ''
      where c.relkind in ('r', 'p') and n.nspname = any($1)
        and not (n.nspname || '.' || c.relname = any($2))
      group by n.nspname, c.relname
      order by 1`,
    [BACKUP_SCHEMAS, NOT_BACKED_UP],
  );
  const { rows: references } = await client.query<{ child: string; parent: string }>(
    `select cn.nspname || '.' || c.relname as child, pn.nspname || '.' || p.relname as parent
       from pg_constraint k
       join pg_class c on c.oid = k.conrelid join pg_namespace cn on cn.oid = c.relnamespace
       join pg_class p on p.oid = k.confrelid join pg_namespace pn on pn.oid = p.relnamespace
      where k.contype = 'f' and k.conrelid <> k.confrelid`,
  );
  const parents = new Map<string, string[]>();
  for (const { child, parent } of references) {
    parents.set(child, [...(parents.get(child) ?? []), parent]);
  }
  const ordered: Array<{ name: string; columns: string[] }> = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const byName = new Map(rows.map((row) => [row.name, row]));
  const place = (name: string) => {
    const table = byName.get(name);
    if (!table || placed.has(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const parent of parents.get(name) ?? []) place(parent);
    visiting.delete(name);
    placed.add(name);
    ordered.push(table);
  };
  for (const row of rows) place(row.name);
  return ordered;
}

/** How far the database's migrations went: how many, and the last one's hash. */
export async function migrationLevel(client: pg.ClientBase): Promise<MigrationLevel> {
  const exists = await client.query(`select to_regclass('drizzle.__drizzle_migrations') as t`);
  if (!exists.rows[0]?.t) return { count: 0, last: null };
  const { rows } = await client.query<{ count: string; last: string | null }>(
    `select count(*)::text as count,
            (select hash from drizzle.__drizzle_migrations order by created_at desc, id desc limit 1) as last
       from drizzle.__drizzle_migrations`,
  );
  return { count: Number(rows[0]?.count ?? 0), last: rows[0]?.last ?? null };
}

/**
 * The newlines of a chunk (COPY text: one a row). Found by Buffer's native search: a JavaScript loop over
 * every byte cost the server's event loop about 8 ns a byte, 40 s of CPU for 5 GB of photos.
 */
export function countNewlines(chunk: Buffer): number {
  let count = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) count += 1;
  return count;
}

/** Counts rows and hashes the bytes flowing through (COPY text: one line a row). */
export class Tally extends Transform {
  readonly hash = createHash("sha256");
  rows = 0;
  override _transform(
    chunk: Buffer,
    _encoding: string,
    done: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.hash.update(chunk);
    this.rows += countNewlines(chunk);
    done(null, chunk);
  }
}

/** What `createBackup` made. */
export type BackupResult = { file: string; size: number; manifest: BackupManifest };

export type BackupSource = {
  /** The site's database: one client is taken for the snapshot. */
  pool: pg.Pool;
  storage: Storage;
  /** Where the archive is written (created if missing). */
  directory: string;
  /** BACKUP_KEY: the archive is encrypted with it (`.tar.enc`). */
  key?: string;
  now?: Date;
  /** Told after each table and each file. */
  onProgress?: (progress: BackupProgress) => void;
};

export type BackupProgress = { step: "tables" | "files"; done: number; total: number };

/**
 * The archive's file name: its date in UTC, sortable (« sauvegarde-2026-11-27-030000.tar »), and, for the
 * second backup of one second (the command beside the nightly job), « -2 » and so on.
 */
export function backupFileName(at: Date, encrypted = false, rank = 1): string {
  const iso = at.toISOString(); // 2026-11-27T03:00:00.000Z
  const stamp = `${iso.slice(0, 10)}-${iso.slice(11, 19).replaceAll(":", "")}`;
  const name = `sauvegarde-${stamp}${rank > 1 ? `-${rank}` : ""}.tar`;
  return encrypted ? `${name}.enc` : name;
}

/** Gives the finished archive its name, never over another backup's (link fails if the name is taken). */
async function nameArchive(partial: string, directory: string, now: Date, encrypted: boolean) {
  for (let rank = 1; ; rank += 1) {
    const file = path.join(directory, backupFileName(now, encrypted, rank));
    try {
      await link(partial, file);
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || rank >= 99) throw error;
    }
  }
}

/**
 * A backup holds password hashes, session tokens and every client's data: its folder and files are the
 * site's user's alone, like the secrets beside them (decision 0129).
 */
export const PRIVATE_FOLDER = 0o700;
export const PRIVATE_FILE = 0o600;

/** `directory` made (or, made earlier world-readable, closed) for the site's user alone. */
export async function privateFolder(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true, mode: PRIVATE_FOLDER });
  await chmod(directory, PRIVATE_FOLDER);
}

/**
 * Backs the site up into `directory`. The archive appears under its final name only once complete (a
 * `.partial` before): an interrupted backup leaves earlier ones as they were.
 */
export async function createBackup({
  pool,
  storage,
  directory,
  key,
  now = new Date(),
  onProgress = () => undefined,
}: BackupSource): Promise<BackupResult> {
  // A restore killed after its commit left files to move: the backup holds them where the tables say.
  await finishPendingSwitches(pool, storage);
  await privateFolder(directory);
  const work = path.join(directory, `.partial-${randomUUID()}`);
  await mkdir(work, { mode: PRIVATE_FOLDER });
  try {
    const partial = path.join(work, "archive");
    const out = createWriteStream(partial, { mode: PRIVATE_FILE });
    // Unencrypted, the tar goes straight to its file: a piece of a stored file is written before its
    // buffer is filled again (TarWriter.addPieces); the encryption copies what it is given.
    const encryption = key ? encryptStream(key) : null;
    const sealed: Writable = encryption ?? out;
    const written = encryption ? pipeline(encryption, out) : finished(out);
    const tar = new TarWriter(sealed);
    let manifest: BackupManifest;
    try {
      manifest = await writeArchive(tar, { pool, storage, work, now, onProgress });
    } catch (error) {
      sealed.destroy();
      await written.catch(() => undefined);
      throw error;
    }
    sealed.end();
    await written;
    const file = await nameArchive(partial, directory, now, Boolean(key));
    return { file, size: (await stat(file)).size, manifest };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function writeArchive(
  tar: TarWriter,
  {
    pool,
    storage,
    work,
    now,
    onProgress,
  }: {
    pool: pg.Pool;
    storage: Storage;
    work: string;
    now: Date;
    onProgress: (progress: BackupProgress) => void;
  },
): Promise<BackupManifest> {
  const client = await pool.connect();
  const tables: TableManifest[] = [];
  let header: BackupHeader;
  try {
    // One snapshot for every table: the rows agree with each other whatever the site writes meanwhile.
    await client.query("begin isolation level repeatable read read only");
    header = {
      format: BACKUP_FORMAT,
      createdAt: now.toISOString(),
      migrations: await migrationLevel(client),
      storage: storage.kind,
    };
    await tar.add(HEADER_ENTRY, ...jsonEntry(header));
    const all = await listTables(client);
    for (const table of all) {
      const spool = path.join(work, `${table.name}.copy.gz`);
      const tally = new Tally();
      const columns = table.columns.map(quoteIdent).join(", ");
      const copy = client.query(
        copyTo(`copy (select ${columns} from ${qualified(table.name)}) to stdout`),
      );
      await pipeline(copy, tally, createGzip(), createWriteStream(spool, { mode: PRIVATE_FILE }));
      const entry = `base/${table.name}.copy.gz`;
      await tar.add(entry, (await stat(spool)).size, createReadStream(spool));
      await rm(spool);
      tables.push({
        name: table.name,
        columns: table.columns,
        rows: tally.rows,
        sha256: tally.hash.digest("hex"),
        entry,
      });
      onProgress({ step: "tables", done: tables.length, total: all.length });
    }
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  const files: FileManifest[] = [];
  const keys: string[] = [];
  for await (const info of storage.list("")) {
    // Only the files the site makes (decision 0128): a restore refuses any other, so one stray file put
    // in the store by hand would make every backup unrestorable; a restore's staged files are not the
    // site's either.
    if (isSiteFileKey(info.key)) keys.push(info.key);
    else if (!info.key.startsWith(STAGING_ROOT)) log.warn("backup_file_skipped", { key: info.key });
  }
  const buffer = Buffer.allocUnsafe(FILE_PIECE);
  for (const [index, key] of keys.entries()) {
    onProgress({ step: "files", done: index, total: keys.length });
    const entry = `fichiers/${key}`;
    const file =
      storage.kind === "local"
        ? await addLocalFile(tar, storage, key, entry, buffer)
        : await addStoredFile(tar, storage, key, entry);
    // Deleted since it was listed: not part of the site any more.
    if (file) files.push(file);
  }
  const manifest: BackupManifest = { ...header, tables, files };
  await tar.add(MANIFEST_ENTRY, ...jsonEntry(manifest));
  await tar.finish();
  return manifest;
}

/** Pieces of a stored file read into one buffer (1 MiB): the backup's memory whatever the files' size. */
const FILE_PIECE = 1 << 20;

/** A file of an S3 store, streamed from the bucket; null when it was deleted since it was listed. */
async function addStoredFile(
  tar: TarWriter,
  storage: Storage,
  key: string,
  entry: string,
): Promise<FileManifest | null> {
  const object = await storage.get(key);
  if (!object) return null;
  const tally = new Tally();
  await tar.add(entry, object.size, object.body.pipe(tally), object.lastModified.getTime());
  return {
    key,
    size: object.size,
    contentType: object.contentType,
    sha256: tally.hash.digest("hex"),
    entry,
  };
}

/**
 * A file of the local store read into `buffer`, reused piece after piece (TarWriter.addPieces): a read
 * stream's fresh buffer per piece stayed until the garbage collector ran, which an idle server does
 * seldom: +77 MiB for a backup of 5 GB of photos at night. Null when it was deleted since it was listed.
 */
async function addLocalFile(
  tar: TarWriter,
  storage: Storage,
  key: string,
  entry: string,
  buffer: Buffer,
): Promise<FileManifest | null> {
  const object = await storage.head(key);
  if (!object) return null;
  let started = false;
  try {
    return await storage.withLocalFile(key, async (file) => {
      const handle = await open(file);
      started = true;
      try {
        const { size } = await handle.stat();
        const hash = createHash("sha256");
        await tar.addPieces(entry, size, object.lastModified.getTime(), async (write) => {
          for (let position = 0; position < size;) {
            const { bytesRead } = await handle.read(
              buffer,
              0,
              Math.min(buffer.length, size - position),
              position,
            );
            if (bytesRead === 0) break;
            const piece = buffer.subarray(0, bytesRead);
            hash.update(piece);
            await write(piece);
            position += bytesRead;
          }
        });
        return { key, size, contentType: object.contentType, sha256: hash.digest("hex"), entry };
      } finally {
        await handle.close();
      }
    });
  } catch (error) {
    // Deleted between the listing and its opening: nothing of it was written.
    if (!started && !(await storage.head(key))) return null;
    throw error;
  }
}

function jsonEntry(value: unknown): [number, Buffer] {
  const body = Buffer.from(`${JSON.stringify(value, null, 2)}\n`, "utf8");
  return [body.length, body];
}
