import { parisWallTimeOf, parisWallTimeToInstant } from "../dates";

/*
 * A request's answer deadline is never in the night (decision 0125): the owner answers in her working day,
 * and a client never reads « réponse au plus tard le mardi à 3 h 54 ».
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The night, in Paris: after 20 h and before 8 h. */
const EVENING = 20 * HOUR;
const MORNING = 8 * HOUR;

/**
 * The deadline itself when it falls between 8 h and 20 h in Paris; else 8 h the next morning (the same
 * morning after midnight), never later than `latest` (the session's start).
 */
export function daytimeDeadline(deadline: Date, latest: Date): Date {
  const wall = parisWallTimeOf(deadline.getTime());
  const sinceMidnight = ((wall % DAY) + DAY) % DAY;
  if (sinceMidnight >= MORNING && sinceMidnight <= EVENING) return deadline;
  const midnight = wall - sinceMidnight;
  const morning = parisWallTimeToInstant(midnight + (sinceMidnight > EVENING ? DAY : 0) + MORNING);
  return morning.getTime() < latest.getTime() ? morning : latest;
}
