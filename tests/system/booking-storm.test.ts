import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SLOT_TAKEN_MESSAGE, stormOfOverlappingBookings } from "../../scripts/bench/reservations";
import { startS3Server, type S3Server } from "../support/s3-server";
import { startServerProcess, type ServerProcess } from "../support/server-process";

// Decision 0121: overlapping bookings at neighbouring studios that share a photographer, posted at once to
// two app processes on one database. Each booking writes its studio's row and a travel margin at every
// other studio; taken in no fixed order, two of them waited for each other (deadlocks, retries giving up,
// the pool exhausted, 500s). How long the storm takes is the bench's (« réservations »), not this file's.

const VISITORS = 40;

let s3: S3Server | undefined;
let first: ServerProcess | undefined;
let second: ServerProcess | undefined;

beforeAll(async () => {
  // Two servers share one file store (decision 0119). Each visitor posts from its own address
  // (X-Forwarded-For): the per-visitor limit stays on.
  s3 = await startS3Server();
  const env = { ...s3.env, TRUST_PROXY: "loopback" };
  first = await startServerProcess(inject("adminDatabaseUrl"), env);
  second = await startServerProcess(inject("adminDatabaseUrl"), env, {
    sharedDatabaseUrl: first.databaseUrl,
  });
}, 180_000);

afterAll(async () => {
  // The second first: the first one's stop drops the database.
  await second?.stop();
  await first?.stop();
  await s3?.stop();
}, 60_000);

describe("a storm of overlapping bookings at three studios sharing a photographer", () => {
  it(
    "makes exactly one booking, and every other visitor reads that the time was just taken",
    { timeout: 180_000 },
    async () => {
      if (!first || !second) throw new Error("servers not started");
      const client = new pg.Client({ connectionString: first.databaseUrl });
      await client.connect();
      try {
        const storm = await stormOfOverlappingBookings({
          servers: [first, second],
          visitors: VISITORS,
          client,
        });
        expect(storm.unexpected).toEqual([]);
        expect(storm.outcomes).toEqual({
          booked: 1,
          taken: VISITORS - 1,
          other: 0,
          "5xx": 0,
          network: 0,
        });
        expect(storm.rows).toBe(1);
        expect(SLOT_TAKEN_MESSAGE).toBe("Ce créneau vient d'être réservé.");
      } finally {
        await client.end();
      }
    },
  );
});
