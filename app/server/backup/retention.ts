/*
 * Which backups to keep (decision 0117): the last of each of the latest `daily` days, `weekly` weeks (Monday
 * first) and `monthly` months, in Paris time — 7 + 4 + 6 by default, about six months back with a few
 * archives. A backup is kept when any rule keeps it; the newest is always kept, and so is every backup of
 * the 24 hours before it (a « Sauvegarder maintenant » in the afternoon never deletes last night's).
 */

export type Retention = { daily: number; weekly: number; monthly: number };

export const DEFAULT_RETENTION: Retention = { daily: 7, weekly: 4, monthly: 6 };

/** Every backup this close to the newest is kept, whatever the rules. */
const RECENT_MS = 24 * 60 * 60 * 1000;

const parisParts = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Paris",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** « 2026-11-27 », the Paris day of an instant. */
function parisDay(at: Date): string {
  return parisParts.format(at);
}

/** The Monday of the Paris week of an instant (« 2026-11-23 »). */
function parisWeek(at: Date): string {
  const day = parisDay(at);
  const noon = new Date(`${day}T12:00:00Z`);
  const sinceMonday = (noon.getUTCDay() + 6) % 7;
  return new Date(noon.getTime() - sinceMonday * 86_400_000).toISOString().slice(0, 10);
}

const parisMonth = (at: Date) => parisDay(at).slice(0, 7);

/** The backups (by their time) to keep; the others may be deleted. */
export function backupsToKeep(
  times: readonly Date[],
  retention: Retention = DEFAULT_RETENTION,
): Set<number> {
  const newestFirst = times
    .map((time, index) => ({ time, index }))
    .sort((a, b) => b.time.getTime() - a.time.getTime());
  const kept = new Set<number>();
  const rules: Array<[number, (at: Date) => string]> = [
    [retention.daily, parisDay],
    [retention.weekly, parisWeek],
    [retention.monthly, parisMonth],
  ];
  for (const [count, periodOf] of rules) {
    const periods = new Set<string>();
    for (const { time, index } of newestFirst) {
      const period = periodOf(time);
      if (periods.has(period)) continue;
      if (periods.size >= count) break;
      periods.add(period);
      kept.add(index);
    }
  }
  const newest = newestFirst[0];
  if (newest) {
    for (const { time, index } of newestFirst) {
      if (newest.time.getTime() - time.getTime() < RECENT_MS) kept.add(index);
    }
  }
  return kept;
}
