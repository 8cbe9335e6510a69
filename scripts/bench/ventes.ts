// Section « ventes » (decision 0174): the gift voucher shop on the production build, with the fake Stripe of
// the tests (tests/support/fake-stripe.ts, 127.0.0.1 only) as the card provider. `/bons-cadeaux` as a light
// page (its JavaScript, Lighthouse mobile); the order form posted for transfer and card orders; 1,000
// `checkout.session.completed` events signed and delivered by the fake to the site's webhook and applied
// by its job; and the redemption races of the admin's « Utiliser », on two app processes.
import { randomBytes } from "node:crypto";
import { chromium } from "playwright-core";
import type pg from "pg";
import { startFakeStripe, type FakeStripe } from "../../tests/support/fake-stripe.ts";
import { CHROMIUM_ARGS, chromiumPath } from "../lib/chromium.ts";
import type { Context } from "./context.ts";
import { createAdmin } from "./gallery.ts";
import { clientAddress, request, type HttpResponse } from "./http.ts";
import { LIGHTHOUSE_COLUMNS, launchLighthouseChrome, measureLighthouse } from "./lighthouse.ts";
import { pageBudgets, type MeasuredPage } from "./page-list.ts";
import { check, metric, percentile, type Cell, type SectionResult } from "./report.ts";
import { offerBooking } from "./reservations.ts";
import {
  cleanUpCluster,
  connect,
  makeDataDir,
  removeDataDir,
  sleep,
  startServer,
  type BenchServer,
} from "./server.ts";
import {
  orderDestination,
  toastKind,
  voucherOrderFields,
  type VoucherOffer,
} from "./shop-answers.ts";
import { kib, measurePageWeight } from "./weight.ts";

/** The budgets of the issue that brought the shop (decision 0174). */
export const SALES_BUDGETS = {
  /** An order's POST of /bons-cadeaux answered (its 303), at the 95th percentile. */
  orderP95Ms: 30,
  /** A webhook event from its insertion in the inbox to its application by the job, 95th percentile. */
  eventP95Ms: 20,
};

const PAGE: MeasuredPage = {
  name: "bons cadeaux",
  path: "/bons-cadeaux",
  kind: "light",
  lighthouse: true,
};

/** 100 € amount vouchers: the amounts' race uses 7 € 50 times (14 fit, never more). */
const AMOUNT_EUROS = 100;
const PARTIAL_USE_EUROS = 7;

/** How long the site may take to apply one event before the bench gives up on it. */
const EVENT_TIMEOUT_MS = 10_000;

type Counts = {
  /** Orders measured per method (transfer and card, interleaved), after `warm` of each. */
  orders: number;
  warm: number;
  /** Card orders paid through the webhook (the measured card orders included). */
  events: number;
  racers: number;
  /** Partial uses of 1 € one after the other: a redemption's own time. */
  sequentialUses: number;
  lighthouseRuns: number;
  /** The whole webhook phase stops at this, whatever is left. */
  eventsDeadlineMs: number;
};

const FULL: Counts = {
  orders: 300,
  warm: 10,
  events: 1_000,
  racers: 50,
  sequentialUses: 100,
  lighthouseRuns: 3,
  eventsDeadlineMs: 10 * 60_000,
};
const QUICK: Counts = {
  orders: 30,
  warm: 5,
  events: 100,
  racers: 50,
  sequentialUses: 20,
  lighthouseRuns: 1,
  eventsDeadlineMs: 3 * 60_000,
};

/** Posts a form as a browser without JavaScript does, from its own client address. */
function postForm(
  baseUrl: string,
  path: string,
  fields: Record<string, string>,
  options: { client: number; cookie?: string },
): Promise<HttpResponse> {
  return request(`${baseUrl}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: baseUrl,
      accept: "text/html",
      "x-forwarded-for": clientAddress(options.client),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Waits (bounded) until `condition` holds; false when the time is over. */
async function waitFor(
  condition: () => Promise<boolean> | boolean,
  timeoutMs: number,
  intervalMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(intervalMs);
  }
  return condition();
}

/**
 * The shop as the owner turns it on: vouchers on sale by transfer and card (the fake's test key comes from
 * the environment), her bank details, and the first gift session sold at 120 € for a session type offered
 * at Brive. Plain SQL, as her settings form stores it: the content version's trigger tells the servers.
 */
async function openTheShop(client: pg.Client): Promise<{ sessionTypeId: string }> {
  const { typeId } = await offerBooking(client, "brive");
  await client.query(`update site_documents set data = data || $1::jsonb where key = 'payments'`, [
    JSON.stringify({
      vouchersOnSale: true,
      transfer: true,
      card: true,
      studio: false,
      transferHolder: "Studio du banc",
      transferIban: "FR7630006000011234567890189",
      amountPresets: [50, AMOUNT_EUROS, 150],
    }),
  ]);
  const updated = await client.query(
    `update site_documents
       set data = jsonb_set(data, '{sessions,0}', (data -> 'sessions' -> 0)
         || jsonb_build_object('price', jsonb_build_object('kind', 'fixed', 'euros', 120), 'sessionType', $1::text))
     where key = 'giftSessions' and jsonb_array_length(data -> 'sessions') > 0`,
    [typeId],
  );
  if (updated.rowCount !== 1) throw new Error("Aucune séance à offrir à lier");
  return { sessionTypeId: typeId };
}

type OrderTiming = { method: "transfer" | "card"; ms: number };

/** The inbox's figures of the events applied, from the rows' timestamps (decision 0174). */
type EventFigures = {
  delivered: number;
  answered200: number;
  applied: number;
  notApplied: number;
  outcomes: Record<string, number>;
  errors: number;
  /** received_at → processed_at, per event, in ms. */
  insertionToApplication: number[];
  /** received_at → the job's started_on: the queue's pick-up. */
  pickUp: number[];
  /** The job's started_on → processed_at: applying it. */
  application: number[];
  /** The webhook's answer as the fake timed it (signature, inbox row and job, its 200). */
  deliveryMs: number[];
  journalPayments: number;
  vouchersIssued: number;
  stoppedByDeadline: boolean;
};

type RaceFigures = {
  racers: number;
  succeeded: number;
  refused: number;
  fiveHundreds: number;
  other: { status: number; detail: string }[];
  usesInDatabase: number;
  usedCents: number;
  balanceCents: number;
  valueCents: number;
  journalCents: number;
  answers: number[];
};

/** Places one order; the answer must lead to a checkout (card) or to the order's page (transfer). */
async function placeOrder(
  server: BenchServer,
  fake: FakeStripe,
  offer: VoucherOffer,
  method: "card" | "transfer",
  n: number,
  run: string,
): Promise<{ ms: number; sessionId: string | null }> {
  const answer = await postForm(
    server.baseUrl,
    PAGE.path,
    voucherOrderFields(offer, method, n, run),
    {
      client: 1_000 + n,
    },
  );
  const location = answer.headers.location;
  const destination = orderDestination(
    Array.isArray(location) ? location[0] : location,
    fake.pageOrigin,
  );
  const expected = method === "card" ? "checkout" : "order-page";
  if (answer.status !== 303 || destination?.to !== expected) {
    throw new Error(
      `Commande ${method} ${n} : ${answer.status} ${String(location)} ${answer.body.slice(0, 300)}`,
    );
  }
  return { ms: answer.ms, sessionId: destination.to === "checkout" ? destination.sessionId : null };
}

/** The inbox row of a checkout's event, once applied (processed_at set), within the time given. */
async function waitUntilApplied(client: pg.Client, sessionId: string): Promise<boolean> {
  const deadline = Date.now() + EVENT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const row = await client.query<{ done: boolean }>(
      `select processed_at is not null as done from provider_events
       where provider = 'stripe' and payment ->> 'providerReference' = $1`,
      [sessionId],
    );
    if (row.rows[0]?.done) return true;
    await sleep(2);
  }
  return false;
}

/**
 * Pays each checkout on the fake (its « Payer »): the fake signs `checkout.session.completed` and posts it
 * to the webhook the site registered; the next payment waits until the site's job applied this one, so
 * each event's time is its own, not a queue's behind it.
 */
async function payAndApply(
  context: Context,
  client: pg.Client,
  fake: FakeStripe,
  sessionIds: string[],
  deadlineMs: number,
): Promise<EventFigures> {
  const deadline = Date.now() + deadlineMs;
  const deliveryMs: number[] = [];
  let answered200 = 0;
  let delivered = 0;
  let notApplied = 0;
  let stoppedByDeadline = false;
  for (const [index, sessionId] of sessionIds.entries()) {
    if (Date.now() > deadline) {
      stoppedByDeadline = true;
      break;
    }
    const before = fake.deliveries().length;
    const started = performance.now();
    await fake.pay(sessionId);
    deliveryMs.push(performance.now() - started);
    delivered += 1;
    const deliveries = fake.deliveries().slice(before);
    if (deliveries.length === 1 && deliveries[0]?.status === 200) answered200 += 1;
    if (!(await waitUntilApplied(client, sessionId))) notApplied += 1;
    if ((index + 1) % 100 === 0) context.log(`ventes: ${index + 1} événements appliqués`);
  }
  const rows = await client.query<{
    outcome: string | null;
    error: string | null;
    total: number | null;
    pick_up: number | null;
    apply: number | null;
  }>(
    `select e.outcome, e.error,
       extract(epoch from (e.processed_at - e.received_at)) * 1000 as total,
       extract(epoch from (j.started_on - e.received_at)) * 1000 as pick_up,
       extract(epoch from (e.processed_at - j.started_on)) * 1000 as apply
     from provider_events e
     left join pgboss.job j on j.name = 'payments.apply-event' and j.data ->> 'eventRowId' = e.id::text
     where e.provider = 'stripe' and e.type = 'checkout.session.completed'
       and e.payment ->> 'providerReference' = any($1::text[])`,
    [sessionIds.slice(0, delivered)],
  );
  const outcomes: Record<string, number> = {};
  const numbers = (pick: (row: (typeof rows.rows)[number]) => number | null) =>
    rows.rows
      .map(pick)
      .filter((value): value is number => value !== null)
      .map(Number);
  for (const row of rows.rows) {
    const key = row.outcome ?? "not processed";
    outcomes[key] = (outcomes[key] ?? 0) + 1;
  }
  const journal = await client.query<{ count: number }>(
    `select count(*)::int as count from money_journal m
     join payment_attempts a on a.id = m.attempt_id
     where m.kind = 'payment' and a.provider_reference = any($1::text[])`,
    [sessionIds.slice(0, delivered)],
  );
  const issued = await client.query<{ count: number }>(
    `select count(*)::int as count from vouchers v
     join payment_attempts a on a.order_id = v.order_id
     where v.status = 'active' and v.code is not null and a.provider_reference = any($1::text[])`,
    [sessionIds.slice(0, delivered)],
  );
  return {
    delivered,
    answered200,
    applied: rows.rows.filter((row) => row.total !== null).length,
    notApplied,
    outcomes,
    errors: rows.rows.filter((row) => row.error !== null).length,
    insertionToApplication: numbers((row) => row.total),
    pickUp: numbers((row) => row.pick_up),
    application: numbers((row) => row.apply),
    deliveryMs,
    journalPayments: journal.rows[0]?.count ?? 0,
    vouchersIssued: issued.rows[0]?.count ?? 0,
    stoppedByDeadline,
  };
}

/** The voucher a paid checkout issued. */
async function voucherOf(
  client: pg.Client,
  sessionId: string,
): Promise<{ id: string; valueCents: number }> {
  const row = await client.query<{ id: string; value_cents: number }>(
    `select v.id, v.value_cents from vouchers v join payment_attempts a on a.order_id = v.order_id
     where a.provider_reference = $1 and v.status = 'active' and v.code is not null`,
    [sessionId],
  );
  const voucher = row.rows[0];
  if (!voucher) throw new Error(`Aucun bon actif pour ${sessionId}`);
  return { id: voucher.id, valueCents: voucher.value_cents };
}

/** The voucher's uses, its balance and its journal after a race. */
async function voucherAfter(client: pg.Client, voucherId: string) {
  const uses = await client.query<{ count: number; cents: number }>(
    `select count(*)::int as count, coalesce(sum(amount_cents), 0)::int as cents from voucher_uses
     where voucher_id = $1 and cancelled_at is null`,
    [voucherId],
  );
  const voucher = await client.query<{ balance_cents: number; value_cents: number }>(
    "select balance_cents, value_cents from vouchers where id = $1",
    [voucherId],
  );
  const journal = await client.query<{ cents: number }>(
    `select coalesce(-sum(amount_cents), 0)::int as cents from money_journal
     where voucher_id = $1 and kind = 'voucher_redemption'`,
    [voucherId],
  );
  return {
    usesInDatabase: uses.rows[0]?.count ?? -1,
    usedCents: uses.rows[0]?.cents ?? -1,
    balanceCents: voucher.rows[0]?.balance_cents ?? -1,
    valueCents: voucher.rows[0]?.value_cents ?? -1,
    journalCents: journal.rows[0]?.cents ?? -1,
  };
}

/**
 * `racers` posts of the admin's « Utiliser » for one voucher at once, alternately to each server, by the
 * signed-in owner: a session voucher's (`use-session`) or `euros` of an amount's (`use-amount`). A use is
 * told by its redirect's success toast; a refusal by an error toast (a session) or a 409 (an amount).
 */
async function race(
  servers: BenchServer[],
  cookie: string,
  client: pg.Client,
  voucherId: string,
  use: { intent: "use-session" } | { intent: "use-amount"; euros: number },
  racers: number,
): Promise<RaceFigures> {
  const fields = {
    intent: use.intent,
    id: voucherId,
    ...(use.intent === "use-amount" ? { amount: String(use.euros) } : {}),
  };
  const answers = await Promise.all(
    Array.from({ length: racers }, (_, index) => {
      const server = servers[index % servers.length] ?? servers[0];
      if (!server) throw new Error("Aucun serveur");
      return postForm(server.baseUrl, "/admin/bons-cadeaux", fields, {
        client: 5_000 + index,
        cookie,
      }).catch((error: unknown): HttpResponse => ({
        status: 0,
        headers: {},
        body: String(error),
        ms: Number.NaN,
      }));
    }),
  );
  let succeeded = 0;
  let refused = 0;
  let fiveHundreds = 0;
  const other: RaceFigures["other"] = [];
  for (const answer of answers) {
    const toast = toastKind(answer.headers["set-cookie"]);
    if (answer.status >= 500) fiveHundreds += 1;
    else if ((answer.status === 302 || answer.status === 303) && toast === "success")
      succeeded += 1;
    else if ((answer.status === 302 || answer.status === 303) && toast === "error") refused += 1;
    else if (answer.status === 409 && use.intent === "use-amount") refused += 1;
    else other.push({ status: answer.status, detail: answer.body.slice(0, 200) });
  }
  return {
    racers,
    succeeded,
    refused,
    fiveHundreds,
    other,
    ...(await voucherAfter(client, voucherId)),
    answers: answers.map((answer) => answer.ms).filter((ms) => !Number.isNaN(ms)),
  };
}

const ms = (values: number[], p: number) => percentile(values, p);

export async function salesSection(context: Context): Promise<Partial<SectionResult>> {
  const counts = context.quick ? QUICK : FULL;
  const run = randomBytes(3).toString("hex");
  const fake = await startFakeStripe();
  const dataDir = await makeDataDir("ventes");
  const env = {
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_API_URL: fake.apiUrl,
    STRIPE_CHECKOUT_ORIGIN: fake.pageOrigin,
    // One secret for both processes: the owner's session cookie opens on either.
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    PHOTO_WORKERS: "0",
  };
  const servers: BenchServer[] = [];
  const notes: string[] = [];
  try {
    const server = await startServer({ dataDir, env });
    servers.push(server);
    const client = await connect(server.databaseUrl);
    try {
      const { sessionTypeId } = await openTheShop(client);
      const open = await waitFor(
        async () => (await request(`${server.baseUrl}${PAGE.path}`)).status === 200,
        30_000,
      );
      if (!open) throw new Error(`${PAGE.path} ne s'ouvre pas`);
      // The site registers its webhook endpoint with the (fake) provider at start, from the key.
      if (!(await waitFor(() => fake.webhookEndpoints().length === 1, 30_000))) {
        throw new Error("Le site n'a pas enregistré son webhook auprès du faux Stripe");
      }

      context.log(`ventes: ${PAGE.path}, poids (mobile) et Lighthouse`);
      const browser = await chromium.launch({
        executablePath: chromiumPath(),
        args: CHROMIUM_ARGS,
      });
      const weight = await measurePageWeight(browser, server.baseUrl, PAGE.path).finally(() =>
        browser.close(),
      );
      const chrome = await launchLighthouseChrome();
      const lighthouse = await measureLighthouse(
        context,
        chrome.port,
        server.baseUrl,
        PAGE,
        counts.lighthouseRuns,
      ).finally(() => chrome.kill());
      notes.push(...lighthouse.notes);

      context.log(
        `ventes: ${counts.orders} commandes par virement et ${counts.orders} par carte, l'une après l'autre`,
      );
      const amount: VoucherOffer = { kind: "amount", euros: AMOUNT_EUROS };
      const cardSessions: string[] = [];
      let n = 0;
      for (let warm = 0; warm < counts.warm; warm += 1) {
        await placeOrder(server, fake, amount, "transfer", n++, run);
        const card = await placeOrder(server, fake, amount, "card", n++, run);
        if (card.sessionId) cardSessions.push(card.sessionId);
      }
      // The page itself, asked the same way: what the machine gives a light page at this moment.
      const pageTimes: number[] = [];
      for (let index = 0; index < counts.orders; index += 1) {
        const page = await request(`${server.baseUrl}${PAGE.path}`, {
          headers: { accept: "text/html" },
        });
        if (page.status !== 200) throw new Error(`${PAGE.path} : ${page.status}`);
        pageTimes.push(page.ms);
      }
      const orders: OrderTiming[] = [];
      for (let index = 0; index < counts.orders; index += 1) {
        const transfer = await placeOrder(server, fake, amount, "transfer", n++, run);
        orders.push({ method: "transfer", ms: transfer.ms });
        const card = await placeOrder(server, fake, amount, "card", n++, run);
        orders.push({ method: "card", ms: card.ms });
        if (card.sessionId) cardSessions.push(card.sessionId);
      }
      context.log(`ventes: ${counts.events - cardSessions.length} commandes par carte de plus`);
      for (let more = counts.events - cardSessions.length; more > 0; more -= 1) {
        const card = await placeOrder(server, fake, amount, "card", n++, run);
        if (card.sessionId) cardSessions.push(card.sessionId);
      }
      // One session voucher for the sessions' race, in the same walk.
      const sessionOrder = await placeOrder(
        server,
        fake,
        { kind: "session", sessionTypeId },
        "card",
        n++,
        run,
      );
      await client.query("analyze");

      context.log(`ventes: ${cardSessions.length} paiements par carte, un webhook signé chacun`);
      const events = await payAndApply(
        context,
        client,
        fake,
        cardSessions,
        counts.eventsDeadlineMs,
      );
      if (!sessionOrder.sessionId) throw new Error("La commande de séance n'a pas de paiement");
      await fake.pay(sessionOrder.sessionId);
      if (!(await waitUntilApplied(client, sessionOrder.sessionId))) {
        throw new Error("Le bon de séance n'a pas été émis");
      }

      context.log("ventes: second processus, connexion de la propriétaire, courses aux bons");
      servers.push(await startServer({ dataDir, databaseUrl: server.databaseUrl, env }));
      const cookie = await createAdmin(server, "banc-ventes@example.com");
      // Each process shows the owner's list once first, as she sees it before « Utiliser »: the races
      // measure the uses, not a process's first load of the route.
      for (const each of servers) {
        const list = await request(`${each.baseUrl}/admin/bons-cadeaux`, {
          headers: { cookie, accept: "text/html" },
        });
        if (list.status !== 200) throw new Error(`/admin/bons-cadeaux : ${list.status}`);
      }
      const sessionVoucher = await voucherOf(client, sessionOrder.sessionId);
      const [raceAmountSession, sequentialSession] = cardSessions;
      if (!raceAmountSession || !sequentialSession) throw new Error("Pas assez de bons payés");
      const amountVoucher = await voucherOf(client, raceAmountSession);
      const sessionRace = await race(
        servers,
        cookie,
        client,
        sessionVoucher.id,
        { intent: "use-session" },
        counts.racers,
      );
      const amountRace = await race(
        servers,
        cookie,
        client,
        amountVoucher.id,
        { intent: "use-amount", euros: PARTIAL_USE_EUROS },
        counts.racers,
      );
      // A redemption's own time: partial uses of 1 € one after the other, on one process.
      const sequentialVoucher = await voucherOf(client, sequentialSession);
      const sequential: number[] = [];
      for (let index = 0; index < counts.sequentialUses; index += 1) {
        const answer = await postForm(
          server.baseUrl,
          "/admin/bons-cadeaux",
          { intent: "use-amount", id: sequentialVoucher.id, amount: "1" },
          { client: 9_000, cookie },
        );
        if (answer.status !== 303 && answer.status !== 302) {
          throw new Error(`Utilisation ${index + 1} : ${answer.status}`);
        }
        if (toastKind(answer.headers["set-cookie"]) !== "success") {
          throw new Error(`Utilisation ${index + 1} refusée`);
        }
        sequential.push(answer.ms);
      }

      return result({
        counts,
        weight,
        lighthouseRow: lighthouse.row,
        lighthouseRuns: lighthouse.runs,
        orders,
        pageTimes,
        events,
        sessionRace,
        amountRace,
        amountVoucherCents: amountVoucher.valueCents,
        sequential,
        notes,
      });
    } finally {
      await client.end();
    }
  } finally {
    // The second process first: the first one owns the embedded cluster.
    for (const server of [...servers].reverse()) await server.stop();
    await cleanUpCluster(dataDir);
    await removeDataDir(dataDir);
    await fake.close();
  }
}

function result({
  counts,
  weight,
  lighthouseRow,
  lighthouseRuns,
  orders,
  pageTimes,
  events,
  sessionRace,
  amountRace,
  amountVoucherCents,
  sequential,
  notes,
}: {
  counts: Counts;
  weight: Awaited<ReturnType<typeof measurePageWeight>>;
  lighthouseRow: Cell[];
  lighthouseRuns: unknown;
  orders: OrderTiming[];
  pageTimes: number[];
  events: EventFigures;
  sessionRace: RaceFigures;
  amountRace: RaceFigures;
  amountVoucherCents: number;
  sequential: number[];
  notes: string[];
}): Partial<SectionResult> {
  const of = (method: OrderTiming["method"]) =>
    orders.filter((order) => order.method === method).map((order) => order.ms);
  const orderRow = (label: string, times: number[]): Cell[] => [
    label,
    times.length,
    metric(ms(times, 50), "ms", undefined, 1),
    metric(ms(times, 95), "ms", { max: SALES_BUDGETS.orderP95Ms }, 1),
    metric(ms(times, 99), "ms", undefined, 1),
  ];
  const fitting = Math.floor(amountVoucherCents / (PARTIAL_USE_EUROS * 100));
  const raceRows = (figures: RaceFigures, expected: number): Cell[][] => [
    ["uses that succeeded", metric(figures.succeeded, "", { equals: expected })],
    [
      "refused (a French message)",
      metric(figures.refused, "", { equals: figures.racers - expected }),
    ],
    ["5xx", metric(figures.fiveHundreds, "", { equals: 0 })],
    [
      "other answers / refused connections",
      check(
        figures.other.length === 0,
        figures.other.length === 0 ? "none" : JSON.stringify(figures.other).slice(0, 300),
      ),
    ],
    ["uses in the database", metric(figures.usesInDatabase, "", { equals: expected })],
    [
      "used in total, never beyond the value",
      metric(figures.usedCents / 100, "€", { max: figures.valueCents / 100 }, 2),
    ],
    [
      "balance = value − uses = journal",
      check(
        figures.balanceCents === figures.valueCents - figures.usedCents &&
          figures.journalCents === figures.usedCents,
        `${(figures.balanceCents / 100).toFixed(2)} € left, ${(figures.journalCents / 100).toFixed(2)} € in the journal`,
      ),
    ],
    ["answer p50", metric(ms(figures.answers, 50), "ms", undefined, 1)],
    ["answer p95", metric(ms(figures.answers, 95), "ms", undefined, 1)],
  ];
  const jsBudget = pageBudgets.jsKiB.light;
  if (weight.javascriptBytes > jsBudget * 1024) {
    notes.push(
      `\`${PAGE.path}\` loads ${weight.scripts.length} scripts: ${weight.scripts
        .slice(0, 6)
        .map((script) => `\`${script.url}\` ${kib(script.bytes)} KB`)
        .join(
          ", ",
        )}; inline scripts: ${weight.inlineScripts.count}, ${kib(weight.inlineScripts.gzipBytes)} KB gzipped.`,
    );
  }
  return {
    title: "Ventes : bons cadeaux, commandes, webhooks et utilisations",
    tables: [
      {
        caption: `\`${PAGE.path}\` (vouchers on sale: amounts and one gift session), a light page: what a phone downloads before any interaction, as the weight section measures it`,
        columns: [
          "page",
          "HTML",
          "JavaScript",
          "of which inline",
          "CSS",
          "requests",
          "third-party requests",
        ],
        rows: [
          [
            `${PAGE.name} (\`${PAGE.path}\`, ${PAGE.kind})`,
            metric(kib(weight.bytes.html), "KB"),
            metric(kib(weight.javascriptBytes), "KB", { max: jsBudget }),
            metric(kib(weight.inlineScripts.gzipBytes), "KB"),
            metric(kib(weight.bytes.css), "KB", { max: 25 }),
            weight.requests,
            metric(weight.thirdParty.length, "", { equals: 0 }),
          ],
        ],
      },
      {
        caption: `\`${PAGE.path}\`: median of ${counts.lighthouseRuns} Lighthouse run(s), mobile, as the lighthouse section measures the other pages`,
        columns: LIGHTHOUSE_COLUMNS,
        rows: [lighthouseRow],
      },
      {
        caption: `Orders: the form of \`${PAGE.path}\` posted without JavaScript (an amount of ${AMOUNT_EUROS} €), one after the other, transfer and card in turn, after ${counts.warm} of each to warm up; the time to its 303 (the order's page, or the card provider's page once the fake Stripe opened the checkout)`,
        columns: ["method", "orders", "p50", "p95", "p99"],
        rows: [
          orderRow("transfer", of("transfer")),
          orderRow("card (fake Stripe on loopback)", of("card")),
          [
            `for comparison: GET \`${PAGE.path}\` (the form, no budget here)`,
            pageTimes.length,
            metric(ms(pageTimes, 50), "ms", undefined, 1),
            metric(ms(pageTimes, 95), "ms", undefined, 1),
            metric(ms(pageTimes, 99), "ms", undefined, 1),
          ],
        ],
      },
      {
        caption: `${events.delivered} \`checkout.session.completed\` signed by the fake Stripe and posted to \`/webhooks/stripe\`, each applied by the job \`payments.apply-event\` before the next payment; times from the rows' timestamps`,
        columns: ["figure", "value"],
        rows: [
          ["events delivered", metric(events.delivered, "", { equals: counts.events })],
          ["webhook answered 200", metric(events.answered200, "", { equals: events.delivered })],
          [
            "events applied (processed_at set)",
            metric(events.applied, "", { equals: events.delivered }),
          ],
          [
            "outcomes",
            Object.entries(events.outcomes)
              .map(([k, v]) => `${k}: ${v}`)
              .join(", "),
          ],
          ["errors recorded on the rows", metric(events.errors, "", { equals: 0 })],
          [
            "payments in the money journal",
            metric(events.journalPayments, "", { equals: events.delivered }),
          ],
          [
            "vouchers issued (active, with a code)",
            metric(events.vouchersIssued, "", { equals: events.delivered }),
          ],
          [
            "insertion → application p50 (received_at → processed_at)",
            metric(ms(events.insertionToApplication, 50), "ms", undefined, 1),
          ],
          [
            "insertion → application p95",
            metric(
              ms(events.insertionToApplication, 95),
              "ms",
              { max: SALES_BUDGETS.eventP95Ms },
              1,
            ),
          ],
          [
            "insertion → application max",
            metric(Math.max(0, ...events.insertionToApplication), "ms", undefined, 1),
          ],
          [
            "of which the queue's pick-up p95 (received_at → job started_on)",
            metric(ms(events.pickUp, 95), "ms", undefined, 1),
          ],
          [
            "of which applying p95 (job started_on → processed_at)",
            metric(ms(events.application, 95), "ms", undefined, 1),
          ],
          [
            "the webhook's delivery p95 (as the fake timed its post)",
            metric(ms(events.deliveryMs, 95), "ms", undefined, 1),
          ],
        ],
      },
      {
        caption: `${sessionRace.racers} « Utiliser » of one session voucher at once by the owner, alternately to 2 app processes on one database`,
        columns: ["figure", "value"],
        rows: raceRows(sessionRace, 1),
      },
      {
        caption: `${amountRace.racers} « Utiliser » of ${PARTIAL_USE_EUROS} € on one ${amountVoucherCents / 100} € voucher at once, alternately to 2 app processes: ${fitting} fit`,
        columns: ["figure", "value"],
        rows: raceRows(amountRace, fitting),
      },
      {
        caption: `A redemption alone: ${sequential.length} uses of 1 € of one voucher, one after the other`,
        columns: ["figure", "value"],
        rows: [
          ["p50", metric(ms(sequential, 50), "ms", undefined, 1)],
          ["p95", metric(ms(sequential, 95), "ms", undefined, 1)],
        ],
      },
    ],
    notes: [
      "One production server (`node server.ts`) on its embedded PostgreSQL, its card provider the fake Stripe of the tests (`tests/support/fake-stripe.ts`, in the bench's process, 127.0.0.1 only: `STRIPE_API_URL` with a `sk_test_` key); without `STRIPE_WEBHOOK_SECRET` the site registers its webhook with the fake at start, as with Stripe. No SMTP: the e-mails of the orders wait in the queue (neither sent nor their PDFs made during the measure).",
      `Orders: each post from its own client address (the form allows 20 orders an hour per address); the card time includes the fake's Checkout Session, answered on loopback (Stripe's own answer takes longer: this is the site's part). Budget p95 ≤ ${SALES_BUDGETS.orderP95Ms} ms for each method.`,
      `Webhooks: the fake pays each checkout (« Payer ») and posts the signed event; the bench waits until the event's inbox row is processed (polling every 2 ms, ${EVENT_TIMEOUT_MS / 1000} s at most) before the next payment, so each event is applied alone, never behind a queue. The figure is the inbox row's \`processed_at − received_at\` (\`received_at\` is set as the webhook inserts the row with its job, \`processed_at\` when the job has applied it through applyPaymentStatus, written in that transaction just before its commit since fba0556f, so the commit itself, about half a millisecond here, is outside the figure): the insertion, the queue's NOTIFY and pick-up, and the application. The job's \`started_on\` (pg-boss) splits it. Budget p95 ≤ ${SALES_BUDGETS.eventP95Ms} ms.`,
      "Races: the owner's « Utiliser » of `/admin/bons-cadeaux` (the same compare-and-set as the booking form's code), posted at once by the signed-in owner, half to each of two app processes on one database; a use is told by its answer (a redirect with a success toast; a refusal: an error toast, or 409 for an amount), then counted in `voucher_uses` and the money journal.",
      ...notes,
    ],
    data: {
      counts,
      weight,
      lighthouse: lighthouseRuns,
      orders: {
        transfer: {
          p50: ms(of("transfer"), 50),
          p95: ms(of("transfer"), 95),
          n: of("transfer").length,
        },
        card: { p50: ms(of("card"), 50), p95: ms(of("card"), 95), n: of("card").length },
      },
      events: {
        ...events,
        insertionToApplication: undefined,
        pickUp: undefined,
        application: undefined,
        deliveryMs: undefined,
        p50: ms(events.insertionToApplication, 50),
        p95: ms(events.insertionToApplication, 95),
        pickUpP95: ms(events.pickUp, 95),
        applicationP95: ms(events.application, 95),
      },
      sessionRace: { ...sessionRace, answers: undefined, p95: ms(sessionRace.answers, 95) },
      amountRace: { ...amountRace, answers: undefined, p95: ms(amountRace.answers, 95) },
      page: { n: pageTimes.length, p50: ms(pageTimes, 50), p95: ms(pageTimes, 95) },
      sequential: { n: sequential.length, p50: ms(sequential, 50), p95: ms(sequential, 95) },
    },
  };
}
