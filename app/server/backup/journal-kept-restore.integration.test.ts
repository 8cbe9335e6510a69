import { asc } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useBackupScratch } from "../../../tests/support/backup-scratch";
import { createTestDatabase, useAppDatabase } from "../../../tests/support/database";
import { db, type Database } from "../db/client.server";
import { moneyJournal } from "../db/schema";
import { appendJournal, verifyJournal } from "../payments/journal.server";
import { migrationLevel } from "./backup.server";
import { migrateTo, withScratchDatabase } from "./scratch.server";

// The money journal is never shortened by a restore (decision 0207, amended): the rows written after the
// backup record money that really moved (a payment received, a refund given), which the accountant may
// already have. Kept when the live journal continues the archive's; the archive's alone otherwise.

useAppDatabase();

const { backUp, restore } = useBackupScratch("journal-kept-restore");

const append = (amountCents: number, database: Database = db()) =>
  database.transaction((tx) =>
    appendJournal(tx, { kind: "payment", amountCents, method: "cash", details: {} }),
  );
const journalOf = (database: Database = db()) =>
  database.select().from(moneyJournal).orderBy(asc(moneyJournal.seq));

describe("the money journal across a restore", () => {
  it("keeps the rows written after the backup, its chain intact and going on", async () => {
    await append(1_000);
    const backup = await backUp();
    await append(2_000);
    await db().transaction((tx) =>
      appendJournal(tx, { kind: "refund", amountCents: -500, method: "cash", details: {} }),
    );
    const live = await journalOf();

    await restore(backup.file);
    expect(await journalOf()).toEqual(live);
    expect(await verifyJournal()).toMatchObject({ ok: true, rows: 3 });
    const next = await append(3_000);
    expect(next.previousHash).toBe(live.at(-1)?.hash);
    expect(await verifyJournal()).toMatchObject({ ok: true, rows: 4 });
  });

  it("keeps them the same way when the archive is of an older version (through a scratch database)", async () => {
    await append(1_000);
    const before = await journalOf();
    const live = await db().$client.connect();
    const level = await migrationLevel(live).finally(() => live.release());
    // The site one migration ago, its journal the live one as it was then.
    const old = await withScratchDatabase(db().$client, async (scratch) => {
      await migrateTo(scratch, level.count - 1);
      for (const row of before) {
        await scratch.$client.query(
          `insert into money_journal (seq, kind, order_id, amount_cents, method, details, day,
             previous_hash, hash, at) overriding system value
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            row.seq,
            row.kind,
            row.orderId,
            row.amountCents,
            row.method,
            row.details,
            row.day,
            row.previousHash,
            row.hash,
            row.at,
          ],
        );
      }
      return backUp(scratch);
    });
    expect(old.manifest.migrations.count).toBe(level.count - 1);
    await append(2_000);
    const after = await journalOf();

    await restore(old.file);
    expect(await journalOf()).toEqual(after);
    expect(await verifyJournal()).toMatchObject({ ok: true, rows: after.length });
  });

  it("is the archive's alone when the live journal does not continue it (another site's archive)", async () => {
    const other = await createTestDatabase();
    try {
      await append(7_000, other.db);
      await append(8_000, other.db);
      const backup = await backUp(other.db);
      const archived = await journalOf(other.db);
      await append(1_000);
      await append(2_000);

      await restore(backup.file);
      expect(await journalOf()).toEqual(archived);
      expect(await verifyJournal()).toMatchObject({ ok: true, rows: 2 });
    } finally {
      await other.close();
    }
  });

  it("is the archive's on a new machine (an empty database)", async () => {
    await append(1_000);
    const backup = await backUp();
    const archived = await journalOf();
    const fresh = await createTestDatabase();
    try {
      await restore(backup.file, fresh.db);
      expect(await journalOf(fresh.db)).toEqual(archived);
      expect(await verifyJournal(fresh.db)).toMatchObject({ ok: true, rows: archived.length });
    } finally {
      await fresh.close();
    }
  });
});
