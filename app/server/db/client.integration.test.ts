import type pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { databaseIsHealthy, db } from "./client.server";

// The process's pool and what /healthz says of it (Caddy takes a server out of its rotation on a 503).

useAppDatabase();

let held: pg.PoolClient[] = [];
afterEach(() => {
  for (const client of held) client.release();
  held = [];
});

describe("databaseIsHealthy", () => {
  it("says healthy while every connection of the pool is busy with the site's requests", async () => {
    // A burst of bookings holds all five, each waiting on its studio's lock: the server is busy, not ill.
    const pool = db().$client;
    held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
    expect(pool.idleCount).toBe(0);
    // A bound long enough that only a wait for the busy pool can exceed it (they are never released).
    expect(await databaseIsHealthy(10_000)).toBe(true);
  });
});
