import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { db, type Database } from "./db/client.server";

export type RateLimitRule = {
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
};

export type RateLimitResult = { allowed: boolean; retryAfterSeconds: number };

/** Longest key stored as written; the column is varchar(300). */
const MAX_PLAIN_KEY_LENGTH = 200;

/**
 * The key as stored: as written when short and printable, otherwise its first characters (for whoever
 * reads the table) and the SHA-256 of the whole key. A key is built from what a client sends (an e-mail
 * typed at sign-in, an address): 10,000 characters or a NUL byte must count like any other attempt, not
 * overflow the column or make PostgreSQL refuse the text.
 */
export function storedRateLimitKey(key: string): string {
  // eslint-disable-next-line no-control-regex
  if (key.length <= MAX_PLAIN_KEY_LENGTH && !/[\u0000-\u001F\u007F]/.test(key)) return key;
  const digest = createHash("sha256").update(key).digest("hex");
  // eslint-disable-next-line no-control-regex
  const readable = key.slice(0, 100).replace(/[\u0000-\u001F\u007F]/g, "");
  return `${readable}…sha256:${digest}`;
}

/**
 * Counts one attempt for `key` in a fixed window kept in PostgreSQL, so that every app process shares the
 * same counters. One round trip; the window restarts once it has expired.
 */
export async function consumeRateLimit(key: string, rule: RateLimitRule): Promise<RateLimitResult> {
  const result = await db().execute<{ count: number; retry_after: number }>(sql`
    insert into rate_limits (key, count, reset_at)
    values (${storedRateLimitKey(key)}, 1, now() + make_interval(secs => ${rule.windowSeconds}))
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now()
        then now() + make_interval(secs => ${rule.windowSeconds}) else rate_limits.reset_at end
    returning count, ceil(extract(epoch from reset_at - now()))::int as retry_after
  `);
  const row = result.rows[0];
  const count = Number(row?.count ?? 0);
  return {
    allowed: count <= rule.limit,
    retryAfterSeconds: Math.max(1, Number(row?.retry_after ?? 1)),
  };
}

/**
 * Whether `key` has already used its window's allowance, without counting anything: for limits that count
 * only what succeeded (a booking made), checked before and counted after (consumeRateLimit).
 */
export async function rateLimitReached(key: string, rule: RateLimitRule): Promise<boolean> {
  const result = await db().execute<{ count: number }>(sql`
    select count from rate_limits where key = ${storedRateLimitKey(key)} and reset_at > now()`);
  return Number(result.rows[0]?.count ?? 0) >= rule.limit;
}

/**
 * Takes back one attempt that consumeRateLimit counted up front and that turned out not to count (for
 * limits counted before the work, so that requests arriving together cannot all pass the check first).
 */
export async function giveBackRateLimit(key: string): Promise<void> {
  await db().execute(sql`
    update rate_limits set count = count - 1
    where key = ${storedRateLimitKey(key)} and reset_at > now() and count > 0`);
}

/** Forgets the attempts for `key` (e.g. after a successful sign-in). */
export async function resetRateLimit(key: string): Promise<void> {
  await db().execute(sql`delete from rate_limits where key = ${storedRateLimitKey(key)}`);
}

/**
 * Removes expired windows, in the nightly personal-data purge (boot/personal-data-purge.server): their
 * keys hold client addresses, which need no keeping once the window is over. Returns how many.
 */
export async function purgeExpiredRateLimits(database: Database = db()): Promise<number> {
  const deleted = await database.execute(sql`delete from rate_limits where reset_at < now()`);
  return deleted.rowCount ?? 0;
}
