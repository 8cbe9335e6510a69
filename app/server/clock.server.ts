/**
 * The time the server's code reads where a test must make time pass without waiting for it (decision
 * 0146): the real time, unless a test in this process set it. pg-boss's timers and PostgreSQL's `now()`
 * keep the real time.
 */

let setByTest: Date | undefined;

/** Now: the real time, or the time a test set. */
export function now(): Date {
  return setByTest ? new Date(setByTest) : new Date();
}

/**
 * Sets the time `now()` answers until called again (`null`: the real time again). Only for tests: Vitest
 * runs them with VITEST set, and a server or a script that called it would stop at once.
 */
export function setClockForTests(at: Date | null): void {
  if (!process.env.VITEST) throw new Error("setClockForTests is for tests only");
  setByTest = at ? new Date(at) : undefined;
}
