import { sql } from "drizzle-orm";
import { createServer } from "node:net";
import type { JobWithMetadata } from "pg-boss";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { db } from "../db/client.server";
import { RETRIES_FOR_A_DAY } from "../jobs/queue.server";
import { defineMailKind, mailJobHandler, type MailJob } from "./outbox.server";

/*
 * An e-mail queued `once` (a form's key, an event's id): a second request within the window after the
 * first queues nothing, wherever the clock's hour turns between the two, and requests at once queue one.
 */

useAppDatabase({ jobs: true });

const queueTest = defineMailKind<{ n: number }>("test-once", {
  failureKind: "admin",
  compose: async () => null,
});

const jobsOf = async (key: string) =>
  (
    await db().execute<{ count: number }>(
      sql`select count(*)::int as count from pgboss.job where name = 'mail' and singleton_key = ${key}`,
    )
  ).rows[0]?.count;

/** The key's jobs made as if queued `minutes` ago, in the clock's previous hour. */
const queuedAgo = (key: string, minutes: number) =>
  db().execute(sql`update pgboss.job
    set created_on = now() - make_interval(mins => ${minutes}),
      singleton_on = date_trunc('hour', now()) - interval '1 hour'
    where name = 'mail' and singleton_key = ${key}`);

describe("an e-mail queued once", () => {
  it("is queued once for requests within the hour after the first, even across the clock's hour", async () => {
    const key = `form-${Date.now()}`;
    expect(await queueTest({ n: 1 }, { once: key })).not.toBeNull();
    expect(await queueTest({ n: 2 }, { once: key })).toBeNull();
    // The first was queued at 00:59, this one comes at 01:00: still within its hour.
    await queuedAgo(key, 1);
    expect(await queueTest({ n: 3 }, { once: key })).toBeNull();
    expect(await jobsOf(key)).toBe(1);
    // An hour and more after the first, the key is free again.
    await queuedAgo(key, 61);
    expect(await queueTest({ n: 4 }, { once: key })).not.toBeNull();
    expect(await jobsOf(key)).toBe(2);
  });

  it("queues one of several requests made at once", async () => {
    const key = `event-${Date.now()}`;
    const queued = await Promise.all(
      Array.from({ length: 6 }, (_, n) => queueTest({ n }, { once: key })),
    );
    expect(queued.filter((id) => id !== null)).toHaveLength(1);
    expect(await jobsOf(key)).toBe(1);
  });
});

describe("an e-mail given up", () => {
  it("calls its kind's afterGivenUp only on its last try, after recording the failure", async () => {
    // A port nothing listens on: the mail server never answers, a failure retried until the last try.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const givenUp: string[] = [];
    const kind = defineMailKind<{ n: number }>("test-given-up", {
      failureKind: "admin",
      compose: async () => ({ to: "given-up@example.test", subject: "Essai", text: "Essai" }),
      afterGivenUp: async (_data, mail) => {
        givenUp.push(mail.to);
      },
    });
    const handler = mailJobHandler({ url: `smtp://127.0.0.1:${port}`, ratePerMinute: 6000 }, [
      kind,
    ]);
    const job = (retryCount: number) =>
      ({
        data: { kind: kind.kind, n: 1 },
        retryCount,
        retryLimit: 3,
      }) as unknown as JobWithMetadata<MailJob & { n: number }>;
    await expect(handler([job(1)])).rejects.toThrow();
    expect(givenUp).toEqual([]);
    // Given up, its job ends (its failure recorded: the order's history reads it).
    expect(await handler([job(3)])).toEqual({ outcome: "given_up" });
    expect(givenUp).toEqual(["given-up@example.test"]);
  });

  it("runs its kind's afterGivenUp again, not the e-mail, when it threw at the e-mail's last try", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const givenUp: string[] = [];
    let steps = 0;
    const kind = defineMailKind<{ n: number }>("test-given-up-blip", {
      failureKind: "admin",
      compose: async () => ({ to: "blip@example.test", subject: "Essai", text: "Essai" }),
      afterGivenUp: async (_data, mail, error) => {
        steps += 1;
        // The database unreachable at that moment (a voucher's buyer not told).
        if (steps === 1) throw new Error("Connexion à la base perdue");
        givenUp.push(`${mail.to} : ${error}`);
      },
    });
    const handler = mailJobHandler({ url: `smtp://127.0.0.1:${port}`, ratePerMinute: 6000 }, [
      kind,
    ]);
    // Queued as every e-mail is: its job as the queue holds it.
    const id = await kind({ n: 2 });
    const retryLimit = (
      await db().execute<{ retry_limit: number }>(
        sql`select retry_limit from pgboss.job where id = ${id}::uuid`,
      )
    ).rows[0]?.retry_limit;
    if (retryLimit === undefined) throw new Error("E-mail non mis en file");
    const job = (retryCount: number) =>
      ({
        id,
        data: { kind: kind.kind, n: 2 },
        retryCount,
        retryLimit,
      }) as unknown as JobWithMetadata<MailJob & { n: number }>;
    // The e-mail's last try (about a day of them): given up, its step throws.
    const lastTry = RETRIES_FOR_A_DAY.retryLimit;
    await expect(handler([job(lastTry)])).rejects.toThrow("Connexion à la base perdue");
    // Its job has a try left (pg-boss retries while retryCount < retryLimit), which runs the step again
    // and ends, the e-mail neither sent nor recorded again.
    expect(lastTry).toBeLessThan(retryLimit);
    expect(await handler([job(lastTry + 1)])).toEqual({ outcome: "given_up" });
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0]).toMatch(/^blip@example\.test : /);
    const failures = await db().execute<{ final: boolean }>(
      sql`select final from mail_failures where job_id = ${id}::uuid`,
    );
    expect(failures.rows).toEqual([{ final: true }]);
  });
});
