import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactBurst, newsletterBurst } from "../../scripts/bench/integrity.ts";
import {
  makeDataDir,
  removeDataDir,
  startServer,
  type BenchServer,
} from "../../scripts/bench/server.ts";
import { createTestDatabase, type TestDatabase } from "../support/database";

// The benchmark's integrity section (decision 0050) with smaller counts (the benchmark runs 500 sign-ups and 200 messages): concurrent posts of
// the real forms to the production server lose nothing, duplicate nothing and never answer 5xx.

let database: TestDatabase;
let dataDir: string;
let server: BenchServer;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await makeDataDir("integrity-test");
  server = await startServer({ dataDir, databaseUrl: database.url });
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
  if (dataDir) await removeDataDir(dataDir);
});

describe("integrity under concurrency", () => {
  it("keeps exactly one row and one confirmation e-mail per address when sign-ups of the same address race", async () => {
    const burst = await newsletterBurst(server, { unique: 48, repeats: 12 });
    expect(burst.problems).toEqual([]);
    // Double opt-in (decision record 0081): a repeat of a pending address is answered like the first
    // sign-up, and its confirmation e-mail is not queued twice.
    expect(burst.outcomes).toEqual({
      subscribed: 60,
      duplicate: 0,
      other: 0,
      "5xx": 0,
      network: 0,
    });
    expect(burst.rows).toBe(48);
    expect(burst.confirmations).toBe(48);
    expect(burst.doubleConfirmed).toBe(0);
  });

  it("stores every one of many contact messages sent at once", async () => {
    const burst = await contactBurst(server, 30);
    expect(burst.problems).toEqual([]);
    expect(burst.outcomes).toEqual({ sent: 30, other: 0, "5xx": 0, network: 0 });
    expect(burst.rows).toBe(30);
  });
});
