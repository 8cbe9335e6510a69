import { sql } from "drizzle-orm";
import { db } from "../db/client.server";
import type { Executor } from "../jobs/queue.server";

/**
 * The catch-up's lock: the invoices' space (issue.server.ts's series take `F` and `A` in it), and a key no
 * series' letter is. Two app servers may run the catch-up of held invoices at once (the owner completing
 * her identity on one, the reconciliation job on the other), each with the lists it read when it began:
 * one issuing a held use's invoice (the use's row, the series `F`, then the voucher's order's row) while
 * the other credits that order's refund (its row, then `F`) waited for each other, and PostgreSQL aborted
 * one (40P01). Every step of the catch-up takes this lock first (decision 0177, amended 2026-12-02): two
 * catch-ups take their steps one after the other, and a step finds what the other's issued.
 */
const CATCH_UP_LOCK = sql`select pg_advisory_xact_lock(${0x0f_ac_01}::int, 0)`;

/** One step of the catch-up of held invoices, in its own transaction, under the catch-up's lock. */
export function catchUpStep<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
  return db().transaction(async (tx) => {
    await tx.execute(CATCH_UP_LOCK);
    return work(tx);
  });
}
