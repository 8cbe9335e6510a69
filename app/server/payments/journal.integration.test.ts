import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { setClockForTests } from "../clock.server";
import { db } from "../db/client.server";
import { moneyJournal } from "../db/schema";
import {
  appendJournal,
  closeDay,
  closePastDays,
  GENESIS_HASH,
  verifyJournal,
  type JournalRecord,
} from "./journal.server";

// The money journal on a real PostgreSQL: append-only whatever the statement, its hash chain kept linear by
// concurrent appends and checked row by row, and each Paris day closed once.

useAppDatabase();

afterEach(() => setClockForTests(null));

const append = (amountCents: number, details: Record<string, unknown> = {}) =>
  db().transaction((tx) =>
    appendJournal(tx, {
      kind: "payment",
      orderId: randomUUID(),
      attemptId: randomUUID(),
      amountCents,
      method: "card",
      providerReference: `pi_${amountCents}`,
      details: { source: "webhook", ...details },
    }),
  );

/** Runs `statement` as the journal's owner would, with its trigger off, then puts the trigger back. */
async function withTriggerOff(statement: ReturnType<typeof sql>) {
  await db().transaction(async (tx) => {
    await tx.execute(sql`alter table money_journal disable trigger money_journal_append_only`);
    await tx.execute(statement);
    await tx.execute(sql`alter table money_journal enable trigger money_journal_append_only`);
  });
}

async function restoreRow(row: JournalRecord) {
  await withTriggerOff(sql`
    insert into money_journal (seq, kind, order_id, attempt_id, refund_id, voucher_id, amount_cents, method,
      provider_reference, details, day, previous_hash, hash, at)
    overriding system value
    values (${row.seq}, ${row.kind}, ${row.orderId}, ${row.attemptId}, ${row.refundId}, ${row.voucherId},
      ${row.amountCents}, ${row.method}, ${row.providerReference}, ${JSON.stringify(row.details)}::jsonb,
      ${row.day}, ${row.previousHash}, ${row.hash}, ${row.at.toISOString()}::timestamptz)`);
}

describe("the money journal", () => {
  it("refuses UPDATE, DELETE and TRUNCATE, whatever rows they would touch", async () => {
    const row = await append(2_500);
    const refusals = [
      sql`update money_journal set amount_cents = 1 where seq = ${row.seq}`,
      sql`update money_journal set details = '{}' where false`,
      sql`delete from money_journal where seq = ${row.seq}`,
      sql`delete from money_journal where false`,
      sql`truncate money_journal`,
    ];
    for (const statement of refusals) {
      await expect(db().execute(statement)).rejects.toMatchObject({
        cause: expect.objectContaining({ message: expect.stringMatching(/append-only/) }),
      });
    }
    const [kept] = await db().select().from(moneyJournal).where(eq(moneyJournal.seq, row.seq));
    expect(kept).toEqual(row);
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });

  it("chains each row to the one before it, and 20 appends at once stay one line", async () => {
    const before = await verifyJournal();
    if (!before.ok) throw new Error("journal broken before the test");
    const rows = await Promise.all(Array.from({ length: 20 }, (_, index) => append(100 + index)));
    const all = await db().select().from(moneyJournal).orderBy(moneyJournal.seq);
    // Every row follows exactly one row: no two appends read the same head.
    const previous = all.map((row) => row.previousHash);
    expect(new Set(previous).size).toBe(all.length);
    expect(all[0]?.previousHash).toBe(GENESIS_HASH);
    for (let index = 1; index < all.length; index++) {
      expect(all[index]?.previousHash).toBe(all[index - 1]?.hash);
    }
    expect(new Set(rows.map((row) => row.hash)).size).toBe(20);
    expect(await verifyJournal()).toEqual({
      ok: true,
      rows: before.rows + 20,
      lastHash: all.at(-1)?.hash,
    });
  });

  it("finds a row changed behind the trigger's back, and a row removed", async () => {
    const first = await append(1_000);
    const changed = await append(2_000);
    await append(3_000);
    expect(await verifyJournal()).toMatchObject({ ok: true });

    await withTriggerOff(
      sql`update money_journal set amount_cents = 20 where seq = ${changed.seq}`,
    );
    expect(await verifyJournal()).toEqual({ ok: false, seq: changed.seq, problem: "changed" });
    await withTriggerOff(
      sql`update money_journal set amount_cents = 2000 where seq = ${changed.seq}`,
    );
    expect(await verifyJournal()).toMatchObject({ ok: true });

    // The details too (a reference or a flag rewritten), and the time.
    await withTriggerOff(
      sql`update money_journal set details = '{"source":"owner"}' where seq = ${changed.seq}`,
    );
    expect(await verifyJournal()).toEqual({ ok: false, seq: changed.seq, problem: "changed" });
    await withTriggerOff(
      sql`update money_journal set details = ${JSON.stringify(changed.details)}::jsonb where seq = ${changed.seq}`,
    );

    await withTriggerOff(sql`delete from money_journal where seq = ${first.seq}`);
    expect(await verifyJournal()).toEqual({ ok: false, seq: changed.seq, problem: "chain_broken" });
    await restoreRow(first);
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });

  it("finds two rows swapped", async () => {
    const a = await append(4_000);
    const b = await append(5_000);
    // Each row keeps its own content and chain fields but takes the other's place.
    const both = sql`delete from money_journal where seq in (${a.seq}, ${b.seq})`;
    await withTriggerOff(both);
    await restoreRow({ ...a, seq: b.seq });
    await restoreRow({ ...b, seq: a.seq });
    expect(await verifyJournal()).toEqual({ ok: false, seq: a.seq, problem: "chain_broken" });
    await withTriggerOff(both);
    await restoreRow(a);
    await restoreRow(b);
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });
});

describe("the daily closure", () => {
  it("closes a Paris day once with its count, totals and last hash, however often it is asked", async () => {
    // 23:30 in Paris on 9 March 2027 (22:30 UTC), and 00:20 on the 10th (23:20 UTC on the 9th).
    setClockForTests(new Date("2027-03-09T22:30:00Z"));
    const late = await append(7_000);
    setClockForTests(new Date("2027-03-09T23:20:00Z"));
    const nextDay = await append(9_000);

    await expect(closeDay("2027-03-10")).rejects.toThrow(/n'est pas terminée/);
    const closures = await Promise.all(Array.from({ length: 5 }, () => closeDay("2027-03-09")));
    expect(new Set(closures.map((row) => row.seq)).size).toBe(1);
    const closure = closures[0];
    expect(closure).toMatchObject({
      kind: "closure",
      day: "2027-03-09",
      amountCents: 0,
      details: { count: 1, totals: { payment: 7_000 }, lastHash: late.hash },
    });
    expect(closure?.seq).toBeGreaterThan(nextDay.seq);
    expect(await closeDay("2027-03-09")).toEqual(closure);
    const rows = await db().select().from(moneyJournal).where(eq(moneyJournal.kind, "closure"));
    expect(rows.filter((row) => row.day === "2027-03-09")).toHaveLength(1);
    expect(await verifyJournal()).toMatchObject({ ok: true });

    // A day's row removed behind the trigger's back no longer matches its closure.
    await withTriggerOff(sql`delete from money_journal where seq = ${late.seq}`);
    const broken = await verifyJournal();
    expect(broken.ok).toBe(false);
    await restoreRow(late);
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });

  it("closes every past day not closed yet, and nothing the second time", async () => {
    setClockForTests(new Date("2027-03-12T09:00:00Z"));
    expect(await closePastDays()).toEqual(["2027-03-10", "2027-03-11"]);
    expect(await closePastDays()).toEqual([]);
    expect(await verifyJournal()).toMatchObject({ ok: true });
  });
});
