import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { createHash as hashOf } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { prepareDatabase } from "../boot/database.server";
import { migrationsFolder } from "../db/migrate.server";
import { log } from "../logger.server";
import { contentTypeOf, isSiteFileKey } from "../storage/keys";
import type { Storage } from "../storage/types";
import { BackupRefusedError, UnencryptedArchiveError } from "./errors.server";
import { migrateTo, withScratchDatabase } from "./scratch.server";
import {
  BACKUP_FORMAT,
  type BackupHeader,
  type BackupManifest,
  countNewlines,
  HEADER_ENTRY,
  listTables,
  MANIFEST_ENTRY,
  migrationLevel,
  type MigrationLevel,
  qualified,
  Tally,
} from "./backup.server";
import { decryptStream, ENCRYPTED_MAGIC, isEncrypted, WrongKeyError } from "./encryption.server";
import {
  finishPendingSwitches,
  newStagingPrefix,
  recordSwitch,
  STAGING_ROOT,
  switchStagedFiles,
} from "./staged-files.server";
import { readTar, TarFormatError, type TarEntry } from "./tar.server";

/*
 * A restore never changes the site before the whole archive is known good: a first reading checks every
 * entry against the manifest (sizes, row counts, SHA-256, keys the site makes). Then the files are written
 * under a staging prefix (decision 0128: nothing live changes), then every table is replaced in ONE
 * transaction (emptied, loaded, counted and hashed again) which also records the staged files: a failure,
 * or the process killed, rolls it all back. Only once it is committed are the staged files moved to their
 * keys and the files the archive does not hold removed.
 */

export { BackupRefusedError, UnencryptedArchiveError };

/**
 * How an archive's encryption is judged: with `key` (BACKUP_KEY) set, only an archive encrypted with it is
 * read, unless `acceptUnencrypted` (the command line's --accepter-non-chiffree) says a plain one is
 * knowingly wanted (decision 0129).
 */
export type ArchiveKey = { key?: string; acceptUnencrypted?: boolean };

const DAMAGED = "Cette sauvegarde est abîmée ou incomplète : elle ne peut pas être restaurée.";

type Counted = { bytes: number; rows: number; sha256: string };

async function tallyOf(chunks: AsyncIterable<Buffer>, { rows = false } = {}): Promise<Counted> {
  const hash = createHash("sha256");
  let bytes = 0;
  let lines = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    bytes += chunk.length;
    if (rows) lines += countNewlines(chunk);
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

/** Whether an archive file is encrypted (its first bytes). */
export async function isEncryptedFile(file: string): Promise<boolean> {
  const handle = await open(file);
  const start = Buffer.alloc(ENCRYPTED_MAGIC.length);
  try {
    await handle.read(start, 0, start.length, 0);
  } finally {
    await handle.close();
  }
  return isEncrypted(start);
}

/** The archive's bytes, opened with `key` when it is encrypted. */
async function archiveBytes(file: string, key: string | undefined): Promise<AsyncIterable<Buffer>> {
  if (!(await isEncryptedFile(file))) return createReadStream(file);
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
export async function verifyBackup(
  file: string,
  key?: string,
  { acceptUnencrypted = false }: { acceptUnencrypted?: boolean } = {},
): Promise<BackupManifest> {
  // With a key, encryption is what says an archive is the site's own: a plain one could be anyone's.
  if (key && !acceptUnencrypted && !(await isEncryptedFile(file))) {
    throw new UnencryptedArchiveError();
  }
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
    // Only what the site itself makes: a crafted archive cannot bring a page or a script to the site's
    // origin, nor write outside the site's folders (decision 0128).
    if (!isSiteFileKey(item.key) || item.entry !== `fichiers/${item.key}`) {
      throw new BackupRefusedError(
        `Cette sauvegarde contient un fichier que le site ne crée jamais (« ${item.key.slice(0, 120)} ») : elle ne peut pas être restaurée.`,
      );
    }
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

export type RestoreTarget = ArchiveKey & {
  pool: pg.Pool;
  storage: Storage;
  /** The archive's manifest when the caller has just checked it whole (verifyBackup): not read twice. */
  verified?: BackupManifest;
};

const NEWER =
  "Cette sauvegarde vient d'une version plus récente du site : mettez le site à jour avant de la restaurer.";
const OTHER_HISTORY =
  "Cette sauvegarde ne vient pas de ce logiciel (ses migrations diffèrent) : elle ne peut pas être restaurée ici.";

/** The hash drizzle records for the site's migration number `count` (1-based), if there is one. */
async function migrationHash(count: number): Promise<string | null> {
  const folder = migrationsFolder();
  const journal = JSON.parse(
    await readFile(path.join(folder, "meta", "_journal.json"), "utf8"),
  ) as {
    entries: Array<{ tag: string }>;
  };
  const entry = journal.entries[count - 1];
  if (!entry) return null;
  const sql = await readFile(path.join(folder, `${entry.tag}.sql`), "utf8");
  return hashOf("sha256").update(sql).digest("hex");
}

/** Refuses an archive this version cannot bring back: newer, or of another history of migrations. */
async function checkLevel(manifest: BackupManifest, live: { count: number }) {
  if (manifest.migrations.count > live.count) throw new BackupRefusedError(NEWER);
  if (
    manifest.migrations.count > 0 &&
    (await migrationHash(manifest.migrations.count)) !== manifest.migrations.last
  ) {
    throw new BackupRefusedError(OTHER_HISTORY);
  }
}

/**
 * Restores `file` over the site: checked first (nothing changes if it is not good), then the files, then
 * every table in one transaction. An archive from an older version is first restored in a database of its
 * own at its level and brought up by the migrations after it, then copied over the site's tables.
 */
export async function restoreBackup(
  file: string,
  { pool, storage, key, acceptUnencrypted, verified }: RestoreTarget,
): Promise<RestoreReport> {
  const manifest = verified ?? (await verifyBackup(file, key, { acceptUnencrypted }));
  // What an earlier restore left: its committed files moved, its uncommitted ones swept away.
  await finishPendingSwitches(pool, storage, { sweep: true });
  const client = await pool.connect();
  try {
    const older = await checkRestorable(client, manifest);

    // The files under a staging prefix: until the tables commit, the site serves what it served.
    const staging = newStagingPrefix();
    try {
      const wanted = new Map(manifest.files.map((item) => [item.entry, item]));
      for await (const entry of entriesOf(file, key)) {
        const item = wanted.get(entry.name);
        if (!item) continue;
        await storage.put(`${staging}${item.key}`, Readable.from(entry.body), {
          contentType: contentTypeOf(item.key),
          contentLength: item.size,
        });
      }

      if (older) {
        await withScratchDatabase(pool, async (scratch) => {
          await migrateTo(scratch, manifest.migrations.count);
          await withClient(scratch.$client, (loading) =>
            inTransaction(loading, () => loadTables(loading, { file, key }, manifest)),
          );
          // Brought up to this version: its migrations, and what the site writes at start (the one
          // feature module that reads boot/: a restore is a start on older data, decision 0149).
          await prepareDatabase(scratch);
          await withClient(scratch.$client, (source) =>
            inTransaction(client, async () => {
              await copyTables(source, client);
              await recordSwitch(client, staging);
            }),
          );
        });
      } else {
        await inTransaction(client, async () => {
          await loadTables(client, { file, key }, manifest);
          await recordSwitch(client, staging);
        });
      }
    } catch (error) {
      // Nothing committed: the staged files go, the live ones were never touched.
      await storage.deletePrefix(staging).catch(() => undefined);
      throw error;
    }

    try {
      await switchStagedFiles(pool, storage, staging);
    } catch (error) {
      // Committed: the tables are the archive's, and the move is recorded. The next look at the backups
      // (every 5 minutes) finishes it; the restore itself succeeded.
      log.warn("restore_files_switch_deferred", { error, staging });
      return {
        tables: manifest.tables.length,
        rows: manifest.tables.reduce((sum, table) => sum + table.rows, 0),
        files: manifest.files.length,
        removedFiles: 0,
      };
    }
    const keep = new Set(manifest.files.map((item) => item.key));
    const extra: string[] = [];
    for await (const info of storage.list("")) {
      if (!keep.has(info.key) && !info.key.startsWith(STAGING_ROOT)) extra.push(info.key);
    }
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

/**
 * The checks a restore makes before anything costly (decision 0128): the archive's level (not newer, of
 * this software's migrations) and, at this version, the same tables as the site. Returns whether the
 * archive is of an older version (restored through a scratch database).
 */
async function checkRestorable(client: pg.ClientBase, manifest: BackupManifest): Promise<boolean> {
  const level = await migrationLevel(client);
  await checkLevel(manifest, level);
  const older = manifest.migrations.count < level.count;
  if (!older) {
    const tables = await listTables(client);
    const names = new Set(tables.map((table) => table.name));
    if (
      manifest.tables.length !== tables.length ||
      manifest.tables.some((table) => !names.has(table.name))
    ) {
      throw new BackupRefusedError(DAMAGED);
    }
  }
  return older;
}

/**
 * Everything that can refuse an archive without touching the site (decision 0128): every entry against
 * its manifest, the keys of its files, its version and its tables. Returns its manifest, for restoreBackup.
 */
export async function verifyRestorable(
  file: string,
  { pool, key, acceptUnencrypted }: ArchiveKey & { pool: pg.Pool },
): Promise<BackupManifest> {
  const manifest = await verifyBackup(file, key, { acceptUnencrypted });
  await withClient(pool, async (client) => {
    await checkRestorable(client, manifest);
  });
  return manifest;
}

/** `work` with a client of `pool`, released after. */
async function withClient(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<void>) {
  const client = await pool.connect();
  try {
    await work(client);
  } finally {
    client.release();
  }
}

/** `work` in one transaction of `client`: committed when it ends, rolled back when it throws. */
async function inTransaction(client: pg.ClientBase, work: () => Promise<void>): Promise<void> {
  await client.query("begin");
  try {
    await work();
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  }
}

/** What « Vérifier cette sauvegarde » found: the archive restored in a database of its own, then dropped. */
export type CheckReport = {
  createdAt: string;
  encrypted: boolean;
  tables: number;
  rows: number;
  files: number;
  bytes: number;
  /** Rows of the tables the owner knows, by table name (« public.blog_articles »…). */
  counts: Record<string, number>;
  /** The migration level the archive was taken at. */
  migrations: MigrationLevel;
};

/**
 * Restores the archive into a scratch database (never the site's) to prove it can be: every entry checked
 * against the manifest, every table loaded at the archive's level. The site is not touched.
 */
export async function checkBackup(
  file: string,
  { pool, key }: { pool: pg.Pool; key?: string },
): Promise<CheckReport> {
  const manifest = await verifyBackup(file, key);
  const live = await pool.connect();
  let level: MigrationLevel;
  try {
    level = await migrationLevel(live);
  } finally {
    live.release();
  }
  await checkLevel(manifest, level);
  await withScratchDatabase(pool, async (scratch) => {
    await migrateTo(scratch, manifest.migrations.count);
    await withClient(scratch.$client, (client) =>
      inTransaction(client, () => loadTables(client, { file, key }, manifest)),
    );
  });
  return {
    createdAt: manifest.createdAt,
    encrypted: await isEncryptedFile(file),
    tables: manifest.tables.length,
    rows: manifest.tables.reduce((sum, table) => sum + table.rows, 0),
    files: manifest.files.length,
    bytes: manifest.files.reduce((sum, item) => sum + item.size, 0),
    counts: Object.fromEntries(manifest.tables.map((table) => [table.name, table.rows])),
    migrations: manifest.migrations,
  };
}

/**
 * Every table of the site replaced by the same table of `source` (a scratch database at this version), in
 * the transaction open on `target`; parents first, triggers off, sequences and content version as for a
 * restore.
 */
async function copyTables(source: pg.ClientBase, target: pg.ClientBase) {
  const tables = await listTables(target);
  const liveVersion = await contentVersionOf(target);
  for (const table of tables)
    await target.query(`alter table ${qualified(table.name)} disable trigger user`);
  const handedOut = await numbersHandedOut(target);
  await setLiveRecordsAside(target);
  await target.query(`truncate ${tables.map((table) => qualified(table.name)).join(", ")}`);
  const keys = await dropBackwardKeys(
    target,
    tables.map((table) => table.name),
  );
  for (const table of tables) {
    const columns = table.columns.map((column) => `"${column.replaceAll('"', '""')}"`).join(", ");
    const out = source.query(
      copyTo(`copy (select ${columns} from ${qualified(table.name)}) to stdout`),
    );
    const into = target.query(copyFrom(`copy ${qualified(table.name)} (${columns}) from stdin`));
    await pipeline(out, into);
  }
  await addKeysBack(target, keys);
  await keepRecordsSince(target);
  await finishLoad(target, tables, liveVersion, handedOut);
}

async function contentVersionOf(client: pg.ClientBase): Promise<number> {
  const exists = await client.query(`select to_regclass('public.content_version') as t`);
  if (!exists.rows[0]?.t) return 0;
  const { rows } = await client.query<{ version: number }>(
    "select version from public.content_version",
  );
  return rows[0]?.version ?? 0;
}

/**
 * The numbers the site has handed out, read from the live tables before a restore empties them: each
 * invoice series' counter by year (decision 0177) and the next value of each sequence a column owns (the
 * money journal's `seq`…). A number handed out after the backup is on a customer's invoice, a credit note
 * or the accountant's files: the restored site must never hand it out again (decision 0207). Read once
 * the tables' triggers are off, whose lock already holds back every write to them until the restore ends.
 */
type NumbersHandedOut = {
  counters: Array<{ series: string; year: number; last: number }>;
  sequences: Map<string, number>;
};

async function numbersHandedOut(client: pg.ClientBase): Promise<NumbersHandedOut> {
  const exists = await client.query(`select to_regclass('public.invoice_counters') as t`);
  const counters = exists.rows[0]?.t
    ? (
        await client.query<{ series: string; year: number; last: number }>(
          "select series, year, last from public.invoice_counters",
        )
      ).rows
    : [];
  const sequences = new Map<string, number>();
  for (const row of await ownedSequences(client)) {
    const { rows } = await client.query<{ next: string }>(
      `select (case when is_called then last_value + 1 else last_value end)::text as next
         from ${row.sequence}`,
    );
    sequences.set(row.sequence, Number(rows[0]?.next ?? 1));
  }
  return { counters, sequences };
}

/*
 * The money journal is never shortened by a restore (decision 0207, amended): its rows written after the
 * backup record money that really moved (a payment received, a refund given), the accountant may already
 * have them, and the law asks such a record to be inalterable. Before the tables are emptied, the live
 * journal is set aside in a temporary table of the restore's transaction; once the archive's rows are in,
 * if the live journal continues the archive's (the archive's last row is, hash for hash, the live row of
 * the same `seq`; an empty archive journal is continued by any), the live rows after it are put back as
 * they were, their `seq`, times and hashes unchanged: the chain goes on. Otherwise (an archive of another
 * site, a journal that went another way) the archive's journal stands alone, as before.
 */

const LIVE_JOURNAL = "restore_live_journal";
const LIVE_INVOICES = "restore_live_invoices";

/**
 * The live journal's rows and invoices copied aside (until the transaction ends), when the site has them.
 */
async function setLiveRecordsAside(client: pg.ClientBase): Promise<void> {
  for (const [table, aside] of [
    ["money_journal", LIVE_JOURNAL],
    ["invoices", LIVE_INVOICES],
  ] as const) {
    const exists = await client.query(`select to_regclass('public.${table}') as t`);
    if (!exists.rows[0]?.t) continue;
    await client.query(
      `create temp table ${aside} on commit drop as select * from public.${table}`,
    );
  }
}

/** The journal's rows and the invoices issued after the backup, put back when the live site continues it. */
async function keepRecordsSince(client: pg.ClientBase): Promise<void> {
  await keepJournalSince(client);
  await keepInvoicesSince(client);
}

/*
 * Invoices and credit notes issued after the backup are legal records too (one continuous series, kept 10
 * years, decision 0177): kept the same way (decision 0207, amended) when the live site continues the
 * archive's (every invoice of the archive is a live one, same id and number). Their content is the
 * document the customer holds, unchanged; only their links to an order or a refund the restore erased (an
 * order placed since) are emptied, the keys asking for them. An order that was there before the backup
 * keeps its invoice: its payment reported again after the restore finds it and issues no other
 * (invoicePaidOrder answers the order's invoice). The counters already never go back (above).
 */
async function keepInvoicesSince(client: pg.ClientBase): Promise<number> {
  const aside = await client.query(`select to_regclass('pg_temp.${LIVE_INVOICES}') as t`);
  if (!aside.rows[0]?.t) return 0;
  const { rows: missing } = await client.query<{ count: number }>(
    `select count(*)::int as count from public.invoices a
      where not exists (select 1 from ${LIVE_INVOICES} l where l.id = a.id and l.number = a.number)`,
  );
  let kept = 0;
  if ((missing[0]?.count ?? 0) === 0) {
    await client.query(
      `update ${LIVE_INVOICES} l set order_id = null
        where order_id is not null and not exists (select 1 from public.orders o where o.id = l.order_id)`,
    );
    await client.query(
      `update ${LIVE_INVOICES} l set refund_id = null
        where refund_id is not null and not exists (select 1 from public.refunds r where r.id = l.refund_id)`,
    );
    const inserted = await client.query(
      `insert into public.invoices select * from ${LIVE_INVOICES} l
        where not exists (select 1 from public.invoices a where a.id = l.id)
        order by l.issued_at, l.number`,
    );
    kept = inserted.rowCount ?? 0;
  } else {
    log.warn("restore_invoices_not_continued", { archiveOnly: missing[0]?.count });
  }
  await client.query(`drop table ${LIVE_INVOICES}`);
  if (kept > 0) log.info("restore_invoices_kept", { invoices: kept });
  return kept;
}

/**
 * The live journal's rows after the archive's last one, put back after the archive's rows when the live
 * journal continues the archive's. Returns how many were kept.
 */
async function keepJournalSince(client: pg.ClientBase): Promise<number> {
  const aside = await client.query(`select to_regclass('pg_temp.${LIVE_JOURNAL}') as t`);
  if (!aside.rows[0]?.t) return 0;
  const { rows: last } = await client.query<{ seq: string; hash: string }>(
    "select seq::text as seq, hash from public.money_journal order by seq desc limit 1",
  );
  const archiveLast = last[0];
  let kept = 0;
  const continues =
    !archiveLast ||
    (
      await client.query(`select 1 from ${LIVE_JOURNAL} where seq = $1 and hash = $2`, [
        archiveLast.seq,
        archiveLast.hash,
      ])
    ).rows.length > 0;
  if (continues) {
    const inserted = await client.query(
      `insert into public.money_journal overriding system value
         select * from ${LIVE_JOURNAL} where seq > $1 order by seq`,
      [archiveLast?.seq ?? 0],
    );
    kept = inserted.rowCount ?? 0;
  }
  await client.query(`drop table ${LIVE_JOURNAL}`);
  if (kept > 0) log.info("restore_journal_rows_kept", { rows: kept });
  else if (!continues)
    log.warn("restore_journal_not_continued", { archiveLastSeq: archiveLast?.seq });
  return kept;
}

/**
 * After the tables are loaded: sequences past the restored values and the numbers the live site had
 * handed out, invoice counters never back, triggers back, caches left behind.
 */
async function finishLoad(
  client: pg.ClientBase,
  tables: ReadonlyArray<{ name: string }>,
  liveVersion: number,
  handedOut: NumbersHandedOut,
) {
  await resetSequences(client, handedOut.sequences);
  for (const counter of handedOut.counters) {
    await client.query(
      `insert into public.invoice_counters (series, year, last) values ($1, $2, $3)
         on conflict (series, year) do update set last = greatest(invoice_counters.last, excluded.last)`,
      [counter.series, counter.year, counter.last],
    );
  }
  for (const table of tables)
    await client.query(`alter table ${qualified(table.name)} enable trigger user`);
  // Pages cached under a number the restored one would reach again must not be served: past both.
  const exists = await client.query(`select to_regclass('public.content_version') as t`);
  if (exists.rows[0]?.t) {
    await client.query("update public.content_version set version = greatest(version, $1) + 1", [
      liveVersion,
    ]);
  }
}

/** Every table emptied and loaded from the archive (in the caller's transaction), checked as it loads. */
async function loadTables(
  client: pg.ClientBase,
  { file, key }: { file: string; key: string | undefined },
  manifest: BackupManifest,
) {
  const byEntry = new Map(manifest.tables.map((table) => [table.entry, table]));
  const all = manifest.tables.map((table) => qualified(table.name)).join(", ");
  const liveVersion = await contentVersionOf(client);
  // Triggers the site's writes keep (search words, content version) would fire on the loaded rows and
  // clash with the ones loaded after: off while loading, in this transaction only.
  for (const table of manifest.tables) {
    await client.query(`alter table ${qualified(table.name)} disable trigger user`);
  }
  const handedOut = await numbersHandedOut(client);
  await setLiveRecordsAside(client);
  await client.query(`truncate ${all}`);
  const keys = await dropBackwardKeys(
    client,
    manifest.tables.map((table) => table.name),
  );
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
  await addKeysBack(client, keys);
  await keepRecordsSince(client);
  await finishLoad(client, manifest.tables, liveVersion, handedOut);
}

type ForeignKey = { table: string; name: string; definition: string };

/**
 * The foreign keys no load order can satisfy, dropped in the loading transaction: a table that refers to one
 * loaded after it (a gallery and its cover photo refer to each other, so one of the two comes first) or to
 * itself. PostgreSQL checks each row as COPY writes it, and these keys are not deferrable. `addKeysBack`
 * adds them again once every row is in, which checks every row then: a broken reference still fails the
 * restore, and nothing is committed.
 */
async function dropBackwardKeys(
  client: pg.ClientBase,
  order: readonly string[],
): Promise<ForeignKey[]> {
  const position = new Map(order.map((name, index) => [name, index]));
  const { rows } = await client.query<ForeignKey & { parent: string }>(
    `select cn.nspname || '.' || c.relname as table, pn.nspname || '.' || p.relname as parent,
            k.conname as name, pg_get_constraintdef(k.oid) as definition
       from pg_constraint k
       join pg_class c on c.oid = k.conrelid join pg_namespace cn on cn.oid = c.relnamespace
       join pg_class p on p.oid = k.confrelid join pg_namespace pn on pn.oid = p.relnamespace
      where k.contype = 'f'`,
  );
  const backward = rows.filter((key) => {
    const child = position.get(key.table);
    const parent = position.get(key.parent);
    return child !== undefined && parent !== undefined && parent >= child;
  });
  for (const key of backward) {
    await client.query(
      `alter table ${qualified(key.table)} drop constraint ${constraintName(key)}`,
    );
  }
  return backward.map(({ table, name, definition }) => ({ table, name, definition }));
}

const constraintName = (key: ForeignKey) => `"${key.name.replaceAll('"', '""')}"`;

async function addKeysBack(client: pg.ClientBase, keys: readonly ForeignKey[]) {
  for (const key of keys) {
    await client.query(
      `alter table ${qualified(key.table)} add constraint ${constraintName(key)} ${key.definition}`,
    );
  }
}

/** The sequences a column of the site's tables owns (serial and identity columns). */
async function ownedSequences(client: pg.ClientBase) {
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
  return rows;
}

/**
 * Each sequence a column owns, set past the largest value restored, and never before the value the live
 * site would have given next (`liveNext`): a number handed out is not handed out again.
 */
async function resetSequences(client: pg.ClientBase, liveNext: ReadonlyMap<string, number>) {
  for (const row of await ownedSequences(client)) {
    await client.query(
      `select setval('${row.sequence}', greatest(coalesce((select max(${row.column}) from ${row.tableName}), 0) + 1, $1::bigint), false)`,
      [liveNext.get(row.sequence) ?? 1],
    );
  }
}
