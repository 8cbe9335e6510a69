import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../tests/support/database";
import { db } from "./db/client.server";
import {
  consumeRateLimit,
  purgeExpiredRateLimits,
  resetRateLimit,
  storedRateLimitKey,
} from "./rate-limit.server";
import { rateLimits } from "./db/schema";

useAppDatabase();

describe("consumeRateLimit", () => {
  it("allows `limit` attempts per window, then refuses with the time to wait", async () => {
    const rule = { limit: 3, windowSeconds: 600 };
    const results = [];
    for (let attempt = 0; attempt < 5; attempt++) results.push(await consumeRateLimit("t:a", rule));
    expect(results.map((result) => result.allowed)).toEqual([true, true, true, false, false]);
    expect(results[4]?.retryAfterSeconds).toBeGreaterThan(500);
    expect(results[4]?.retryAfterSeconds).toBeLessThanOrEqual(600);
  });

  it("counts concurrent attempts exactly", async () => {
    const rule = { limit: 10, windowSeconds: 600 };
    const results = await Promise.all(
      Array.from({ length: 25 }, () => consumeRateLimit("t:concurrent", rule)),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
  });

  it("starts a new window once the old one has expired, and can be reset", async () => {
    const rule = { limit: 1, windowSeconds: 1 };
    expect((await consumeRateLimit("t:b", rule)).allowed).toBe(true);
    expect((await consumeRateLimit("t:b", rule)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await consumeRateLimit("t:b", rule)).allowed).toBe(true);
    await resetRateLimit("t:b");
    expect((await consumeRateLimit("t:b", rule)).allowed).toBe(true);
  });

  it("forgets expired windows, and keeps the running ones", async () => {
    await consumeRateLimit("t:expired", { limit: 5, windowSeconds: 1 });
    await consumeRateLimit("t:running", { limit: 5, windowSeconds: 600 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await purgeExpiredRateLimits();
    const keys = (await db().select({ key: rateLimits.key }).from(rateLimits)).map(
      (row) => row.key,
    );
    expect(keys).toContain("t:running");
    expect(keys).not.toContain("t:expired");
  });

  it("counts keys built from anything a client sends: 10,000 characters, NUL bytes", async () => {
    const rule = { limit: 2, windowSeconds: 600 };
    const long = `admin-login:email:${"a".repeat(9_988)}@example.org`;
    const otherLong = `admin-login:email:${"a".repeat(9_987)}b@example.org`;
    const withNul = "admin-login:email:owner\u0000@example.org";
    for (const key of [long, otherLong, withNul]) {
      expect((await consumeRateLimit(key, rule)).allowed).toBe(true);
      expect((await consumeRateLimit(key, rule)).allowed).toBe(true);
      expect((await consumeRateLimit(key, rule)).allowed).toBe(false);
    }
    await resetRateLimit(long);
    expect((await consumeRateLimit(long, rule)).allowed).toBe(true);
    expect((await consumeRateLimit(otherLong, rule)).allowed).toBe(false);
    const keys = (await db().select({ key: rateLimits.key }).from(rateLimits)).map(
      (row) => row.key,
    );
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(300);
    expect(keys).toContain(storedRateLimitKey(long));
  });
});
