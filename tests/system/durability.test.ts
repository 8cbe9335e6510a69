import { afterEach, describe, expect, it } from "vitest";
import { crashDuringSignUps, type Victim } from "../../scripts/bench/durability.ts";
import { cleanUpCluster, makeDataDir, removeDataDir } from "../../scripts/bench/server.ts";

// The benchmark's durability section (decision 0050) with smaller counts (the benchmark runs 1,000 sign-ups): a SIGKILL of the Node server or of
// its embedded PostgreSQL in the middle of sign-ups loses no acknowledged sign-up, `npm start` (scripts/start.ts)
// comes back without manual repair, and the final stop leaves no database process behind.

const dataDirs: string[] = [];

afterEach(async () => {
  for (const dataDir of dataDirs.splice(0)) {
    await cleanUpCluster(dataDir);
    await removeDataDir(dataDir);
  }
});

describe.each<Victim>(["node", "postgres"])("SIGKILL of %s during sign-ups", (victim) => {
  it("keeps every acknowledged sign-up and restarts cleanly", { timeout: 240_000 }, async () => {
    const dataDir = await makeDataDir(`durability-test-${victim}`);
    dataDirs.push(dataDir);
    const result = await crashDuringSignUps({
      dataDir,
      victim,
      count: 100,
      concurrency: 8,
      killAfter: 50,
    });
    expect(result.restartError).toBeUndefined();
    expect(result.acknowledged).toBeGreaterThanOrEqual(50);
    expect(result.lost).toBe(0);
    expect(result.failedAnswers.duplicate).toBe(0);
    expect(result.restarted).toBe(true);
    expect(result.stopExitCode).toBe(0);
    expect(result.orphans).toBe(0);
    expect(result.lockFileLeft).toBe(false);
  });
});
