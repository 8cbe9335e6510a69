import { randomUUID } from "node:crypto";
import { PgBoss } from "pg-boss";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createConnection } from "../../app/server/db/client.server";
import { verifyJournal } from "../../app/server/payments/journal.server";
import { siteStripeEnv, startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import {
  PROCESS_TEST_TIMEOUT,
  type ServerProcess,
  startServerProcess,
} from "../support/server-process";
import { voucherOrderFields } from "../support/voucher-form";

// What must hold (decisions 0162, 0163, 0167): SIGKILL of the app process during a burst of voucher orders
// paid by card → after a restart and Stripe's retries, every order Stripe reports paid is paid exactly once,
// with one payment row in the journal and one voucher; no order is paid that Stripe did not take; every
// order whose answer (the 303 to the provider's page) was received is there; the journal's chain verifies;
// the orders never paid are released when their checkout's 30 minutes are over.
//
// The kill comes when KILL_AFTER orders were acknowledged, with orders still being posted and payments
// being made on the provider's page (whose webhooks the dead server cannot receive). The production
// process reads the real time (setClockForTests is for test processes only): the checkouts' 30 minutes are
// made to pass by moving their end into the past in the database, and the expiry job is sent at once
// rather than awaited from its schedule (every minute).

const ORDERS = 30;
const CONCURRENCY = 5;
const KILL_AFTER = 12;
/** One order in UNPAID_EVERY is left unpaid on the provider's page. */
const UNPAID_EVERY = 3;

let fake: FakeStripe;
let server: ServerProcess | undefined;
let database: ReturnType<typeof createConnection> | undefined;

beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: "sk_test_51VoucherBurstKilled000000000" });
  server = await startServerProcess(inject("adminDatabaseUrl"), {
    ...siteStripeEnv(fake),
    // Each buyer posts from an address of its own (X-Forwarded-For): 20 orders an hour per address.
    TRUST_PROXY: "loopback",
  });
  database = createConnection(server.databaseUrl, { max: 2 });
}, 180_000);

afterAll(async () => {
  await database?.pool.end();
  await server?.stop();
  await fake?.close();
});

function running(): ServerProcess {
  if (!server) throw new Error("server not started");
  return server;
}

function connection() {
  if (!database) throw new Error("no database");
  return database;
}

async function query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  return (await connection().pool.query<Row>(text, values)).rows;
}

type Outcome = { kind: "placed"; sessionId: string } | { kind: "network" | "refused" };

/** Posts the order form as a browser without JavaScript would: an amount of 100 € paid by card. */
async function placeOrder(index: number): Promise<Outcome> {
  const { baseUrl } = running();
  try {
    const response = await fetch(`${baseUrl}/bons-cadeaux`, {
      method: "POST",
      redirect: "manual",
      headers: {
        Origin: baseUrl,
        "X-Forwarded-For": `198.51.100.${index + 1}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(
        voucherOrderFields({ acheteurEmail: `rafale-${index}@example.test`, cle: randomUUID() }),
      ),
    });
    await response.arrayBuffer();
    const location = response.headers.get("location") ?? "";
    if (response.status !== 303 || !location.startsWith(fake.pageOrigin)) {
      return { kind: "refused" };
    }
    return { kind: "placed", sessionId: new URL(location).pathname.split("/").at(-1) ?? "" };
  } catch {
    return { kind: "network" };
  }
}

/** Waits until no job of `queue` is waiting, retried or running. */
async function queueSettled(queue: string) {
  await expect
    .poll(
      async () =>
        (
          await query<{ count: number }>(
            "select count(*)::int as count from pgboss.job where name = $1 and state in ('created', 'retry', 'active')",
            [queue],
          )
        )[0]?.count,
      { timeout: PROCESS_TEST_TIMEOUT, interval: 250 },
    )
    .toBe(0);
}

describe("voucher orders paid by card survive a SIGKILL of their app process", () => {
  it(
    "pays each order Stripe took exactly once, loses none acknowledged, and releases the unpaid ones",
    { timeout: PROCESS_TEST_TIMEOUT },
    async ({ annotate }) => {
      await query(
        `update site_documents set data = data || '{"vouchersOnSale": true, "card": true}'::jsonb
         where key = 'payments'`,
      );
      await expect
        .poll(async () => (await fetch(`${running().baseUrl}/bons-cadeaux`)).status, {
          timeout: 30_000,
        })
        .toBe(200);
      // The site registered its webhook in the (fake) Stripe account at start.
      await expect.poll(() => fake.webhookEndpoints().length, { timeout: 30_000 }).toBe(1);

      const acknowledged = new Map<number, string>();
      const paidOnThePage = new Set<string>();
      const outcomes: Record<string, number> = {};
      let killed: Promise<unknown> | undefined;
      let killedWhile = 0;
      let next = 0;
      const deadline = Date.now() + 120_000;
      const buyer = async () => {
        while (next < ORDERS && Date.now() < deadline) {
          const index = next++;
          const outcome = await placeOrder(index);
          outcomes[outcome.kind] = (outcomes[outcome.kind] ?? 0) + 1;
          if (outcome.kind !== "placed") continue;
          acknowledged.set(index, outcome.sessionId);
          if (acknowledged.size === KILL_AFTER && !killed) {
            killedWhile = ORDERS - next;
            killed = running().kill("SIGKILL");
          }
          // The buyer pays on the provider's page (which also works while the site is down): Stripe
          // then has the money and sends its event, which a dead site does not receive.
          if (index % UNPAID_EVERY !== UNPAID_EVERY - 1) {
            await fake.pay(outcome.sessionId);
            paidOnThePage.add(outcome.sessionId);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, buyer));
      expect(killed, "the server was killed during the burst").toBeDefined();
      await killed;
      // Only a dead server refuses: no order was refused for itself.
      expect(outcomes.refused ?? 0).toBe(0);
      expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);
      const undelivered = fake
        .events("checkout.session.completed")
        .filter(
          (event) =>
            !fake
              .deliveries()
              .some((delivery) => delivery.eventId === event.id && delivery.status === 200),
        ).length;

      const restartMs = await running().restart();
      const restartedAt = Date.now();
      // Events the dead process was applying: their jobs are still marked active.
      const heldByTheDead = (
        await query<{ count: number }>(
          "select count(*)::int as count from pgboss.job where name = 'payments.apply-event' and state = 'active'",
        )
      )[0]?.count;
      // Stripe retries what was not acknowledged; a retry of what was is possible too (an answer lost):
      // every payment's event is delivered again.
      for (const event of fake.events("checkout.session.completed")) {
        const deliveries = await fake.deliver(event.id);
        expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
      }

      const paidSessions = fake.sessions().filter((session) => session.payment_status === "paid");
      const paidOrderIds = paidSessions.map((session) => session.metadata.order_id ?? "");
      expect(paidSessions.map((session) => session.id).sort()).toEqual([...paidOnThePage].sort());
      const paidCount = async () =>
        (
          await query<{ count: number }>(
            "select count(*)::int as count from orders where id = any($1::uuid[]) and status = 'paid'",
            [paidOrderIds],
          )
        )[0]?.count;
      // An event whose job died with the process is applied again once pg-boss notices the missing
      // heartbeat (about 20 s), not when the job expires (5 minutes; decision 0173): Stripe's retry of it
      // is a duplicate and queues nothing.
      await expect.poll(paidCount, { timeout: 150_000, interval: 250 }).toBe(paidSessions.length);
      const paidAfterMs = Date.now() - restartedAt;
      await queueSettled("payments.apply-event");

      // No acknowledged order lost: each one's checkout is stored.
      const stored = await query<{ reference: string }>(
        "select provider_reference as reference from payment_attempts where provider = 'stripe' and provider_reference is not null",
      );
      const storedReferences = new Set(stored.map((row) => row.reference));
      expect([...acknowledged.values()].filter((id) => !storedReferences.has(id))).toEqual([]);

      // Paid exactly when Stripe took the money, once: one payment row, one voucher issued and active.
      const perOrder = await query<{
        id: string;
        status: string;
        payments: number;
        issues: number;
        vouchers: number;
        active: number;
        succeeded: number;
        duplicates: number;
        paid_mails: number;
      }>(
        `select o.id, o.status,
           (select count(*)::int from money_journal j where j.order_id = o.id and j.kind = 'payment') as payments,
           (select count(*)::int from money_journal j where j.order_id = o.id and j.kind = 'voucher_issue') as issues,
           (select count(*)::int from vouchers v where v.order_id = o.id) as vouchers,
           (select count(*)::int from vouchers v where v.order_id = o.id and v.status = 'active' and v.code is not null) as active,
           (select count(*)::int from payment_attempts a where a.order_id = o.id and a.status = 'succeeded') as succeeded,
           (select count(*)::int from payment_attempts a where a.order_id = o.id and a.duplicate) as duplicates,
           (select count(*)::int from pgboss.job m where m.name = 'mail' and m.data->>'orderId' = o.id::text
              and m.data->>'kind' = 'payment-buyer' and m.data->>'event' = 'paid') as paid_mails
         from orders o`,
      );
      const paidSet = new Set(paidOrderIds);
      expect(
        perOrder
          .filter((order) => order.status === "paid")
          .map((order) => order.id)
          .sort(),
      ).toEqual([...paidSet].sort());
      for (const order of perOrder) {
        const paid = paidSet.has(order.id);
        expect(order, order.id).toMatchObject({
          payments: paid ? 1 : 0,
          issues: paid ? 1 : 0,
          vouchers: 1,
          active: paid ? 1 : 0,
          succeeded: paid ? 1 : 0,
          duplicates: 0,
          paid_mails: paid ? 1 : 0,
        });
      }
      expect(await verifyJournal(connection().db)).toMatchObject({ ok: true });

      // The checkouts never paid: their 30 minutes pass (see above), the expiry job releases their orders.
      const unpaid = perOrder.filter((order) => !paidSet.has(order.id)).map((order) => order.id);
      expect(unpaid.length).toBeGreaterThan(0);
      await query(
        `update payment_attempts set expires_at = now() - interval '1 minute'
         where order_id = any($1::uuid[]) and status = 'open'`,
        [unpaid],
      );
      await query(
        "update orders set pay_by = now() - interval '1 minute' where id = any($1::uuid[])",
        [unpaid],
      );
      const boss = new PgBoss({
        connectionString: running().databaseUrl,
        supervise: false,
        schedule: false,
        migrate: false,
      });
      await boss.start();
      try {
        await boss.send("payments.expiry", {});
      } finally {
        await boss.stop({ graceful: false });
      }
      const released = async () =>
        (
          await query<{ count: number }>(
            `select count(*)::int as count from orders o join vouchers v on v.order_id = o.id
             where o.id = any($1::uuid[]) and o.status = 'expired' and v.status = 'cancelled'`,
            [unpaid],
          )
        )[0]?.count;
      await expect
        .poll(released, { timeout: PROCESS_TEST_TIMEOUT, interval: 250 })
        .toBe(unpaid.length);
      // Each buyer told once that the order lapsed.
      const lapsedMails = await query<{ order_id: string }>(
        `select data->>'orderId' as order_id from pgboss.job where name = 'mail'
         and data->>'kind' = 'payment-buyer' and data->>'event' = 'expired'`,
      );
      expect(lapsedMails.map((mail) => mail.order_id).sort()).toEqual([...unpaid].sort());
      // Their checkouts closed at the provider; their `expired` events change nothing paid.
      await queueSettled("payments.apply-event");
      expect(
        fake
          .sessions()
          .filter((session) => session.status === "open" && storedReferences.has(session.id)),
      ).toEqual([]);
      expect(await paidCount()).toBe(paidSessions.length);
      const payments = await query<{ count: number }>(
        "select count(*)::int as count from money_journal where kind = 'payment'",
      );
      expect(payments[0]?.count).toBe(paidSessions.length);
      expect(await verifyJournal(connection().db)).toMatchObject({ ok: true });

      const figures = `SIGKILL after ${KILL_AFTER} acknowledged orders, ${killedWhile} not yet posted; ${acknowledged.size} acknowledged, ${perOrder.length} stored, ${paidSessions.length} paid at Stripe (${undelivered} events undelivered before the restart, ${heldByTheDead} being applied at the kill), all paid ${(paidAfterMs / 1000).toFixed(1)} s after the restart, ${unpaid.length} released; restart ${(restartMs / 1000).toFixed(1)} s`;
      process.stdout.write(`${figures}\n`);
      await annotate(figures);
    },
  );
});
