import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useBackupScratch } from "../../../tests/support/backup-scratch";
import { useAppDatabase } from "../../../tests/support/database";
import { db } from "../db/client.server";
import { moneyJournal } from "../db/schema";
import { appendJournal, verifyJournal } from "./journal.server";

// The money journal through a backup and a restore: its rows and chain come back whole, the rows written
// after the backup kept (decision 0207, amended), its trigger is on again, and the next append follows.

useAppDatabase();

const { backUp, restore } = useBackupScratch("journal-backup");

const append = (amountCents: number) =>
  db().transaction((tx) =>
    appendJournal(tx, { kind: "payment", amountCents, method: "cash", details: { note: "été" } }),
  );

describe("the money journal in a backup", () => {
  it("comes back whole from a restore, append-only again, its chain going on", async () => {
    for (const amount of [1_000, 2_000, 3_000]) await append(amount);
    const before = await db().select().from(moneyJournal).orderBy(moneyJournal.seq);
    const backup = await backUp();
    const since = await append(4_000);

    await restore(backup.file);
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
