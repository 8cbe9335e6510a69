import { randomBytes } from "node:crypto";
import type pg from "pg";
import { contentTypeOf } from "../storage/keys";
import type { Storage } from "../storage/types";

/*
 * A restore's files wait under a staging prefix of the store, never served (decision 0128), until the
 * tables that name them are committed; then they are moved to their keys. The move is recorded in the
 * restore's own transaction (`restore_file_switches`), so a process killed after the commit leaves a record
 * that the next backup, restore or look at the backups finishes, and one killed before leaves only staged
 * files, which the next restore sweeps away.
 */

/** Where a restore's files wait: not a public prefix, not a gallery's. */
export const STAGING_ROOT = "restauration/";

/** A fresh staging prefix for one restore. */
export function newStagingPrefix(): string {
  return `${STAGING_ROOT}${randomBytes(8).toString("hex")}/`;
}

/**
 * Whether the database has the switches' table: one whose migrations predate it (a release's data being
 * prepared by the upgrade test) has none, and its restore moves the files after the commit unrecorded.
 */
async function switchesRecorded(queryable: pg.ClientBase | pg.Pool): Promise<boolean> {
  const { rows } = await queryable.query<{ present: boolean }>(
    "select to_regclass('public.restore_file_switches') is not null as present",
  );
  return rows[0]?.present === true;
}

/** Records, in the caller's transaction, that `prefix` holds the files of the tables it commits. */
export async function recordSwitch(client: pg.ClientBase, prefix: string): Promise<void> {
  if (!(await switchesRecorded(client))) return;
  await client.query("insert into restore_file_switches (prefix) values ($1)", [prefix]);
}

/** Moves every file staged under `prefix` to its key (the type its key implies), then forgets it. */
export async function switchStagedFiles(
  pool: pg.Pool,
  storage: Storage,
  prefix: string,
): Promise<number> {
  let moved = 0;
  for await (const staged of storage.list(prefix)) {
    const object = await storage.get(staged.key);
    if (!object) continue;
    const key = staged.key.slice(prefix.length);
    await storage.put(key, object.body, {
      contentType: contentTypeOf(key),
      contentLength: object.size,
    });
    moved += 1;
  }
  await storage.deletePrefix(prefix);
  if (await switchesRecorded(pool)) {
    await pool.query("delete from restore_file_switches where prefix = $1", [prefix]);
  }
  return moved;
}

/**
 * Finishes the moves a killed restore left after its commit; with `sweep`, also removes what a restore
 * killed before its commit staged (only a restore asks it: one runs at a time, so no staging is in use).
 */
export async function finishPendingSwitches(
  pool: pg.Pool,
  storage: Storage,
  { sweep = false }: { sweep?: boolean } = {},
): Promise<void> {
  if (!(await switchesRecorded(pool))) return;
  const { rows } = await pool.query<{ prefix: string }>(
    "select prefix from restore_file_switches order by created_at",
  );
  for (const { prefix } of rows) await switchStagedFiles(pool, storage, prefix);
  if (!sweep) return;
  const left = new Set<string>();
  for await (const staged of storage.list(STAGING_ROOT)) {
    left.add(staged.key.slice(0, staged.key.indexOf("/", STAGING_ROOT.length) + 1));
  }
  for (const prefix of left) await storage.deletePrefix(prefix);
}
