import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { storageDrivers, type StorageUnderTest } from "../../../tests/support/storage-drivers";
import { createBackup } from "../backup/backup.server";
import { restoreBackup } from "../backup/restore.server";
import { db } from "../db/client.server";
import { moneyJournal } from "../db/schema";
import { appendJournal, verifyJournal } from "./journal.server";

// The money journal through a backup and a restore: its rows and chain come back whole, the rows written
// after the backup kept (decision 0207, amended), its trigger is on again, and the next append follows.

useAppDatabase();

let store: StorageUnderTest;
let directory: string;
beforeAll(async () => {
  const [local] = storageDrivers;
  if (!local) throw new Error("no local storage driver");
  store = await local.start();
  directory = await mkdtemp(path.join(os.tmpdir(), "journal-backup-"));
});
afterAll(async () => {
  await store.stop();
  await rm(directory, { recursive: true, force: true });
});

const append = (amountCents: number) =>
  db().transaction((tx) =>
    appendJournal(tx, { kind: "payment", amountCents, method: "cash", details: { note: "été" } }),
  );

describe("the money journal in a backup", () => {
  it("comes back whole from a restore, append-only again, its chain going on", async () => {
    for (const amount of [1_000, 2_000, 3_000]) await append(amount);
    const before = await db().select().from(moneyJournal).orderBy(moneyJournal.seq);
    const backup = await createBackup({ pool: db().$client, storage: store.storage, directory });
    const since = await append(4_000);

    await restoreBackup(backup.file, { pool: db().$client, storage: store.storage });
    expect(await db().select().from(moneyJournal).orderBy(moneyJournal.seq)).toEqual([
      ...before,
      since,
    ]);
    expect(await verifyJournal()).toMatchObject({ ok: true, rows: 4 });
    await expect(db().execute(sql`delete from money_journal`)).rejects.toMatchObject({
      cause: expect.objectContaining({ message: expect.stringMatching(/append-only/) }),
    });
    const next = await append(5_000);
    expect(next.previousHash).toBe(since.hash);
    expect(next.seq).toBeGreaterThan(since.seq);
    expect(await verifyJournal()).toMatchObject({ ok: true, rows: 5 });
  });
});
