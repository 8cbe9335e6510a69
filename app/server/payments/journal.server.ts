import { createHash } from "node:crypto";
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import { isoDayInParis } from "~/lib/dates";
import type { JournalKind } from "~/lib/payments/model";
import { now } from "../clock.server";
import { db, type Database } from "../db/client.server";
import { moneyJournal } from "../db/schema";
import { defineJob } from "../jobs/queue.server";
import { log } from "../logger.server";

/*
 * The money journal (decision 0162): every euro in or out, append-only (the table's trigger refuses
 * UPDATE, DELETE and TRUNCATE), each row's hash chained to the previous one's so that a row changed, removed
 * or moved with the trigger off is found by verifyJournal; one closure row per Paris day with its totals.
 */

/** A transaction of ours. */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type JournalRecord = typeof moneyJournal.$inferSelect;

/** What a caller writes; the chain's fields and the time are the journal's. */
export type JournalEntry = {
  kind: Exclude<JournalKind, "closure">;
  orderId?: string | null;
  attemptId?: string | null;
  refundId?: string | null;
  voucherId?: string | null;
  /** Signed cents: money in positive, money out negative. */
  amountCents: number;
  method?: string | null;
  providerReference?: string | null;
  details?: Record<string, unknown>;
};

/** The previous hash of the first row. */
export const GENESIS_HASH = "0".repeat(64);

/** pg_advisory_xact_lock key of the journal's appends (the site's other locks are 7_319_004 to 008). */
const JOURNAL_LOCK = 7_319_009;

/** JSON with every object's keys sorted and no spaces: the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
}

type HashedContent = Pick<
  JournalRecord,
  | "kind"
  | "orderId"
  | "attemptId"
  | "refundId"
  | "voucherId"
  | "amountCents"
  | "method"
  | "providerReference"
  | "details"
  | "day"
  | "at"
>;

/** SHA-256 (hex) of the previous row's hash and this row's canonical content. */
export function journalHash(previousHash: string, row: HashedContent): string {
  const content = canonicalJson({
    kind: row.kind,
    orderId: row.orderId,
    attemptId: row.attemptId,
    refundId: row.refundId,
    voucherId: row.voucherId,
    amountCents: row.amountCents,
    method: row.method,
    providerReference: row.providerReference,
    details: row.details,
    day: row.day,
    at: row.at.toISOString(),
  });
  return createHash("sha256").update(previousHash).update(content).digest("hex");
}

/** Takes the journal's lock until `tx` ends and answers the hash the next row chains to. */
async function lockChainHead(tx: Tx): Promise<string> {
  await tx.execute(sql`select pg_advisory_xact_lock(${JOURNAL_LOCK})`);
  const [last] = await tx
    .select({ hash: moneyJournal.hash })
    .from(moneyJournal)
    .orderBy(desc(moneyJournal.seq))
    .limit(1);
  return last?.hash ?? GENESIS_HASH;
}

async function insertChained(tx: Tx, content: Omit<HashedContent, "at">): Promise<JournalRecord> {
  const previousHash = await lockChainHead(tx);
  // Read after the lock: rows appended one after the other are in time order too.
  const row = { ...content, at: now() };
  const [inserted] = await tx
    .insert(moneyJournal)
    .values({ ...row, previousHash, hash: journalHash(previousHash, row) })
    .returning();
  if (!inserted) throw new Error("money_journal: no row inserted");
  return inserted;
}

/**
 * Appends one row in `tx` (the transaction of the change it records), after every row committed before it:
 * appends are serialised by a lock held until `tx` ends.
 */
export function appendJournal(tx: Tx, entry: JournalEntry): Promise<JournalRecord> {
  return insertChained(tx, {
    kind: entry.kind,
    orderId: entry.orderId ?? null,
    attemptId: entry.attemptId ?? null,
    refundId: entry.refundId ?? null,
    voucherId: entry.voucherId ?? null,
    amountCents: entry.amountCents,
    method: entry.method ?? null,
    providerReference: entry.providerReference ?? null,
    details: entry.details ?? {},
    day: null,
  });
}

export type JournalCheck =
  | { ok: true; rows: number; lastHash: string }
  | {
      ok: false;
      /** The first row that does not verify. */
      seq: number;
      /**
       * `changed`: its content is not what its hash says; `chain_broken`: it does not follow the row before
       * it (a row before it removed, or rows moved); `closure_mismatch`: a closed day's rows are not those
       * its closure counted (a row of that day removed).
       */
      problem: "changed" | "chain_broken" | "closure_mismatch";
    };

const PAGE = 1000;

/** Walks the whole journal in order and reports the first row that does not verify. */
export async function verifyJournal(database: Database = db()): Promise<JournalCheck> {
  let previousHash = GENESIS_HASH;
  let after = 0;
  let rows = 0;
  const dayTotals = new Map<string, { count: number; totals: Record<string, number> }>();
  for (;;) {
    const page = await database
      .select()
      .from(moneyJournal)
      .where(gt(moneyJournal.seq, after))
      .orderBy(asc(moneyJournal.seq))
      .limit(PAGE);
    for (const row of page) {
      if (row.previousHash !== previousHash)
        return { ok: false, seq: row.seq, problem: "chain_broken" };
      if (journalHash(previousHash, row) !== row.hash) {
        return { ok: false, seq: row.seq, problem: "changed" };
      }
      if (row.kind === "closure" && row.day) {
        const counted = dayTotals.get(row.day) ?? { count: 0, totals: {} };
        const closed = row.details as { count?: unknown; totals?: unknown };
        if (
          closed.count !== counted.count ||
          canonicalJson(closed.totals) !== canonicalJson(counted.totals)
        ) {
          return { ok: false, seq: row.seq, problem: "closure_mismatch" };
        }
      } else {
        const day = isoDayInParis(row.at);
        const counted = dayTotals.get(day) ?? { count: 0, totals: {} };
        counted.count += 1;
        counted.totals[row.kind] = (counted.totals[row.kind] ?? 0) + row.amountCents;
        dayTotals.set(day, counted);
      }
      previousHash = row.hash;
      after = row.seq;
      rows += 1;
    }
    if (page.length < PAGE) return { ok: true, rows, lastHash: previousHash };
  }
}

export type ClosureDetails = {
  /** Rows of the day (closures aside). */
  count: number;
  /** The day's net cents by kind of row. */
  totals: Record<string, number>;
  /** The hash of the day's last row (the chain's head before the day if it had none). */
  lastHash: string;
};

/**
 * Closes a Paris day (`YYYY-MM-DD`, over): one closure row with its rows' count, totals by kind and last
 * hash. Closing it again answers the existing row and writes nothing.
 */
export async function closeDay(day: string, database: Database = db()): Promise<JournalRecord> {
  if (day >= isoDayInParis(now())) throw new Error(`La journée du ${day} n'est pas terminée.`);
  return database.transaction(async (tx) => {
    // The lock first: two closings of one day, one after the other, the second finds the first's row.
    await lockChainHead(tx);
    const [existing] = await tx
      .select()
      .from(moneyJournal)
      .where(and(eq(moneyJournal.kind, "closure"), eq(moneyJournal.day, day)));
    if (existing) return existing;
    const ofDay = sql`(${moneyJournal.at} at time zone 'Europe/Paris')::date = ${day}::date and ${moneyJournal.kind} <> 'closure'`;
    const totals = await tx
      .select({
        kind: moneyJournal.kind,
        count: sql<number>`count(*)::int`,
        sum: sql<number>`sum(${moneyJournal.amountCents})::bigint`,
      })
      .from(moneyJournal)
      .where(ofDay)
      .groupBy(moneyJournal.kind);
    const [last] = await tx
      .select({ hash: moneyJournal.hash })
      .from(moneyJournal)
      .where(sql`(${moneyJournal.at} at time zone 'Europe/Paris')::date <= ${day}::date`)
      .orderBy(desc(moneyJournal.seq))
      .limit(1);
    const details: ClosureDetails = {
      count: totals.reduce((sum, row) => sum + row.count, 0),
      totals: Object.fromEntries(totals.map((row) => [row.kind, Number(row.sum)])),
      lastHash: last?.hash ?? GENESIS_HASH,
    };
    return insertChained(tx, {
      kind: "closure",
      orderId: null,
      attemptId: null,
      refundId: null,
      voucherId: null,
      amountCents: 0,
      method: null,
      providerReference: null,
      details,
      day,
    });
  });
}

/**
 * Closes every day not closed yet up to yesterday (Paris): from the day after the last closure, or the
 * journal's first day. A night when no server ran is closed at the next run. Returns the days closed.
 */
export async function closePastDays(database: Database = db()): Promise<string[]> {
  const [lastClosure] = await database
    .select({ day: moneyJournal.day })
    .from(moneyJournal)
    .where(eq(moneyJournal.kind, "closure"))
    .orderBy(desc(moneyJournal.day))
    .limit(1);
  const [first] = await database
    .select({ at: moneyJournal.at })
    .from(moneyJournal)
    .orderBy(asc(moneyJournal.seq))
    .limit(1);
  if (!first) return [];
  const today = isoDayInParis(now());
  let day = lastClosure?.day ? nextDay(lastClosure.day) : isoDayInParis(first.at);
  const closed: string[] = [];
  while (day < today) {
    await closeDay(day, database);
    closed.push(day);
    day = nextDay(day);
  }
  if (closed.length > 0) log.info("money_journal_closed", { days: closed });
  return closed;
}

const nextDay = (day: string) => {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
};

/**
 * The queue `payments.journal-closure`: at 00:10 Paris time, the days past that no closure row closes yet
 * (yesterday, and any a stopped site missed). `singleton`, once across servers; `missed: once`.
 */
export const journalClosureJob = defineJob({
  name: "payments.journal-closure",
  policy: {
    retryLimit: 5,
    retryDelay: 5 * 60,
    policy: "singleton",
    expireInSeconds: 10 * 60,
    retentionSeconds: 24 * 60 * 60,
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  },
  schedule: { cron: "10 0 * * *", tz: "Europe/Paris", missed: "once" },
  handler: async () => {
    await closePastDays();
  },
});
