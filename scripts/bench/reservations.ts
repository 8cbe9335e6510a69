// Section « réservations » (decision 0115): the free slots' computation (booking-slots.ts), `/reserver/{studio}`
// under load, and 50 visitors posting the booking form for one slot at once, split across two app processes
// on one database. The race is also run, with the same counts, through Caddy in front of two app servers by
// tests/system/two-servers.test.ts, and the helpers below by tests/system/booking-durability.test.ts.
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { measureBookingSlots, BOOKING_SLOTS_BUDGET_P95_MS } from "./booking-slots.ts";
import type { Context } from "./context.ts";
import { clientAddress, databaseMilliseconds, request } from "./http.ts";
import { loadTest } from "./load.ts";
import { check, metric, percentile, type SectionResult } from "./report.ts";
import {
  cleanUpCluster,
  connect,
  makeDataDir,
  removeDataDir,
  startServer,
  type BenchServer,
} from "./server.ts";

/** The refusal a visitor reads when someone else took the time first (decision 0113). */
export const SLOT_TAKEN_MESSAGE = "Ce créneau vient d'être réservé.";

/**
 * Turns booking on for `studio` (a seeded one) and offers it a new public session type of one hour, no
 * notice, hourly starts, 90 days ahead, and no owner's question; returns the type's slug and id. Plain SQL,
 * as the owner's form would store it: the content version's triggers tell every app process.
 */
export async function offerBooking(
  client: pg.Client,
  studio = "brive",
): Promise<{ typeSlug: string; typeId: string; daysPath: string }> {
  const typeSlug = `portrait-banc-${randomBytes(3).toString("hex")}`;
  await client.query(
    `update studios set data = jsonb_set(data, '{onlineBooking}', 'true') where slug = $1`,
    [studio],
  );
  const inserted = await client.query<{ id: string }>(
    `insert into session_types (slug, name, description, duration_minutes, minimum_notice_hours, step_minutes,
       horizon_days, cancellation_cutoff_hours, price_text)
     values ($1, 'Portrait (banc)', 'Une heure au studio.', 60, 0, 60, 90, 0, '120 €') returning id`,
    [typeSlug],
  );
  const typeId = inserted.rows[0]?.id;
  if (!typeId) throw new Error("Type de séance non créé");
  await client.query(
    `insert into session_type_studios (session_type_id, studio_id) select $1, id from studios where slug = $2`,
    [typeId, studio],
  );
  return { typeSlug, typeId, daysPath: `/reserver/${studio}/${typeSlug}` };
}

/**
 * An agenda as full as the figure, written in SQL over the next 90 days: 2,000 bookings of 45 minutes
 * (hourly, from 08:00 UTC) spread over the three studios, each studio's by a photographer of its own, and 200
 * evening blocked periods of the studios, each with the rows the exclusion constraints check.
 */
export async function seedAgenda(client: pg.Client, typeId: string): Promise<void> {
  await client.query(
    `
    with studio as (
      select id, row_number() over (order by slug) - 1 as n from studios where slug in ('brive', 'limoges', 'ussel')
    ), photographer as (
      insert into photographers (name, position) select 'Banc ' || n, 20 + n from studio returning id, name
    ), covers as (
      insert into photographer_studios (photographer_id, studio_id)
      select p.id, s.id from photographer p join studio s on p.name = 'Banc ' || s.n returning photographer_id, studio_id
    ), made as (
      insert into bookings (session_type_id, studio_id, photographer_id, starts_at, ends_at, state, client_name,
        client_email, manage_token_hash)
      select $1::uuid, c.studio_id, c.photographer_id,
        date_trunc('day', now()) + interval '1 day' + (k % 90) * interval '1 day' + interval '8 hours' + (k / 90) * interval '1 hour',
        date_trunc('day', now()) + interval '1 day' + (k % 90) * interval '1 day' + interval '8 hours 45 minutes' + (k / 90) * interval '1 hour',
        'confirmed', 'Client banc', 'banc-' || i || '@example.com', encode(sha256(('banc-' || i)::bytea), 'hex')
      from generate_series(0, 1999) as i
      cross join lateral (select i / 3 as k, i % 3 as n) as spread
      join studio s on s.n = spread.n
      join covers c on c.studio_id = s.id
      returning id, studio_id, photographer_id, starts_at, ends_at
    )
    insert into booking_occupancies (booking_id, studio_id, photographer_id, during, real)
    select id, studio_id, photographer_id, tstzrange(starts_at, ends_at), true from made
  `,
    [typeId],
  );
  await client.query(`
    with studio as (
      select id, row_number() over (order by slug) - 1 as n from studios where slug in ('brive', 'limoges', 'ussel')
    ), blocked as (
      insert into blocked_periods (studio_id, starts_at, ends_at, label)
      select s.id,
        date_trunc('day', now()) + interval '1 day' + (j / 3) * interval '1 day' + interval '19 hours',
        date_trunc('day', now()) + interval '1 day' + (j / 3) * interval '1 day' + interval '22 hours',
        'Séance en extérieur'
      from generate_series(0, 199) as j join studio s on s.n = j % 3
      returning id, studio_id, starts_at, ends_at
    )
    insert into booking_occupancies (blocked_period_id, studio_id, during, real)
    select id, studio_id, tstzrange(starts_at, ends_at), true from blocked
  `);
}

const hrefs = (html: string, pattern: RegExp): string[] =>
  [...html.matchAll(/href="([^"]+)"/g)]
    .map((match) => (match[1] ?? "").replace(/&amp;/g, "&"))
    .filter((href) => pattern.test(href));

/**
 * The addresses of the details form for the first `howMany` free times, walked as a visitor without
 * JavaScript does: the days page, each day's times, « Jours suivants ».
 */
export async function freeSlotPaths(
  baseUrl: string,
  daysPath: string,
  howMany: number,
): Promise<string[]> {
  const found: string[] = [];
  let page: string | undefined = daysPath;
  // Bounded: 20 pages of 7 days is far beyond the 90-day horizon.
  for (let pages = 0; page && found.length < howMany && pages < 20; pages += 1) {
    const days = await request(`${baseUrl}${page}`, { headers: { accept: "text/html" } });
    if (days.status !== 200) throw new Error(`${page} : ${days.status}`);
    for (const day of hrefs(days.body, /[?&]jour=/)) {
      const times = await request(`${baseUrl}${day}`, { headers: { accept: "text/html" } });
      found.push(...hrefs(times.body, /\/coordonnees\?creneau=/));
      if (found.length >= howMany) break;
    }
    page = hrefs(days.body, /[?&]du=/).find((href) => !href.includes("jour="));
  }
  if (found.length < howMany) throw new Error(`${found.length} créneaux libres sur ${howMany}`);
  return found.slice(0, howMany);
}

export type BookingOutcome = "booked" | "taken" | "other" | "5xx" | "network";

/** Decodes the few entities React writes in text, so the page reads as the visitor reads it. */
const readable = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

/**
 * Posts the details form at `slotPath` as a browser without JavaScript does (urlencoded, same Origin), from
 * its own client address: X-Forwarded-For to an app server, or, through a reverse proxy (which sets that
 * header itself), a loopback address of its own (`localAddress`). Booked: the 303 to the client's page;
 * taken: the 409 with the French message. `servedBy`: the header a test proxy names its upstream in.
 */
export async function postBooking(
  baseUrl: string,
  slotPath: string,
  {
    email,
    client,
    localAddress,
    servedByHeader = "x-served-by",
  }: { email: string; client: number; localAddress?: string; servedByHeader?: string },
): Promise<{
  outcome: BookingOutcome;
  status: number;
  ms: number;
  location?: string;
  detail?: string;
  servedBy?: string;
}> {
  const started = performance.now();
  try {
    const response = await request(`${baseUrl}${slotPath}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: baseUrl,
        "x-forwarded-for": clientAddress(client),
        accept: "text/html",
      },
      body: new URLSearchParams({
        name: "Camille Banc",
        email,
        phone: "06 12 34 56 78",
        consent: "on",
        site_web: "",
      }).toString(),
      timeoutMs: 60_000,
      localAddress,
    });
    const ms = performance.now() - started;
    const location = String(response.headers.location ?? "");
    const servedBy = response.headers[servedByHeader]?.toString();
    if (response.status >= 500) return { outcome: "5xx", status: response.status, ms, servedBy };
    if (
      response.status === 303 &&
      /^\/reservation\/[A-Za-z0-9_-]{43}\?nouvelle=1$/.test(location)
    ) {
      return { outcome: "booked", status: 303, ms, location, servedBy };
    }
    if (response.status === 409 && readable(response.body).includes(SLOT_TAKEN_MESSAGE)) {
      return { outcome: "taken", status: 409, ms, servedBy };
    }
    return {
      outcome: "other",
      status: response.status,
      ms,
      servedBy,
      detail: readable(response.body)
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .slice(0, 300),
    };
  } catch (error) {
    return {
      outcome: "network",
      status: 0,
      ms: performance.now() - started,
      detail: (error as Error).message,
    };
  }
}

export type RaceResult = {
  visitors: number;
  processes: number;
  outcomes: Record<BookingOutcome, number>;
  /** Statuses of the answers that were neither a booking nor the French refusal, with what they said. */
  unexpected: { status: number; detail?: string }[];
  /** Rows of the slot's session type in `bookings` afterwards. */
  rows: number;
  /** From the first post sent to the last answer. */
  allAnsweredMs: number;
  answerP50Ms: number;
  answerMaxMs: number;
  /** The booked one's answer. */
  winnerMs: number | null;
  /** Answers per upstream, when the posts went through a test proxy that names it (`servedBy`). */
  servedBy: Record<string, number>;
};

/**
 * `visitors` posts of the details form for one and the same free time, all sent at once, alternately to
 * each of `servers` (app processes on one database, or one reverse proxy in front of them), each visitor
 * with its own e-mail and client address (`from`: the loopback address visitor i sends from, behind a
 * proxy).
 */
export async function raceForOneSlot({
  servers,
  visitors,
  client,
  from,
}: {
  servers: Pick<BenchServer, "baseUrl">[];
  visitors: number;
  /** On the servers' database. */
  client: pg.Client;
  from?: (visitor: number) => string;
}): Promise<RaceResult> {
  const first = servers[0];
  if (!first) throw new Error("Aucun serveur");
  const { typeId, daysPath } = await offerBooking(client);
  const [slotPath] = await freeSlotPaths(first.baseUrl, daysPath, 1);
  if (!slotPath) throw new Error("Aucun créneau libre");
  const run = randomBytes(3).toString("hex");
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: visitors }, (_, index) =>
      postBooking((servers[index % servers.length] ?? first).baseUrl, slotPath, {
        email: `course-${run}-${index}@example.com`,
        client: 50_000 + index,
        localAddress: from?.(index),
      }),
    ),
  );
  const allAnsweredMs = performance.now() - started;
  const outcomes: Record<BookingOutcome, number> = {
    booked: 0,
    taken: 0,
    other: 0,
    "5xx": 0,
    network: 0,
  };
  for (const answer of answers) outcomes[answer.outcome] += 1;
  const rows = await client.query<{ count: number }>(
    "select count(*)::int as count from bookings where session_type_id = $1",
    [typeId],
  );
  const times = answers.map((answer) => answer.ms);
  const servedBy: Record<string, number> = {};
  for (const { servedBy: upstream } of answers) {
    if (upstream) servedBy[upstream] = (servedBy[upstream] ?? 0) + 1;
  }
  return {
    servedBy,
    visitors,
    processes: servers.length,
    outcomes,
    unexpected: answers
      .filter((answer) => answer.outcome !== "booked" && answer.outcome !== "taken")
      .map(({ status, detail }) => ({ status, detail })),
    rows: rows.rows[0]?.count ?? -1,
    allAnsweredMs,
    answerP50Ms: percentile(times, 50) ?? Number.NaN,
    answerMaxMs: Math.max(...times),
    winnerMs: answers.find((answer) => answer.outcome === "booked")?.ms ?? null,
  };
}

/** The storm's overlapping times: one day, three studios, one photographer who covers them all. */
const STORM_TIMES = [
  { studio: "ussel", time: "10:00" },
  { studio: "brive", time: "10:30" },
  { studio: "limoges", time: "11:00" },
  { studio: "brive", time: "10:00" },
] as const;

/**
 * Turns booking on at the three seeded studios and offers them one new session type of one hour, bookable
 * every day from 08:00 to 19:00 (so that the three studios' hours do not matter), then returns the details
 * form's address of four overlapping times a week ahead at the three studios (STORM_TIMES). The site's only
 * photographer (the start-up seed's « Photographe ») covers the three studios: any two of these bookings
 * collide, at a studio, on her time or on her travel.
 */
export async function offerOverlappingTimes(
  client: pg.Client,
): Promise<{ typeId: string; slotPaths: string[] }> {
  const typeSlug = `portrait-orage-${randomBytes(3).toString("hex")}`;
  const everyDay = Object.fromEntries(
    ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"].map((day) => [
      day,
      [{ opens: "08:00", closes: "19:00" }],
    ]),
  );
  await client.query(
    `update studios set data = jsonb_set(data, '{onlineBooking}', 'true')
     where slug in ('ussel', 'brive', 'limoges')`,
  );
  const inserted = await client.query<{ id: string }>(
    `insert into session_types (slug, name, description, duration_minutes, minimum_notice_hours, step_minutes,
       horizon_days, cancellation_cutoff_hours, price_text, bookable_hours)
     values ($1, 'Portrait (orage)', 'Une heure au studio.', 60, 0, 30, 90, 0, '120 €', $2) returning id`,
    [typeSlug, JSON.stringify(everyDay)],
  );
  const typeId = inserted.rows[0]?.id;
  if (!typeId) throw new Error("Type de séance non créé");
  await client.query(
    `insert into session_type_studios (session_type_id, studio_id)
     select $1, id from studios where slug in ('ussel', 'brive', 'limoges')`,
    [typeId],
  );
  const day = new Date(Date.now() + 7 * 24 * 3_600_000).toISOString().slice(0, 10);
  const slotPaths = STORM_TIMES.map(
    ({ studio, time }) => `/reserver/${studio}/${typeSlug}/coordonnees?creneau=${day}T${time}`,
  );
  return { typeId, slotPaths };
}

export type StormResult = {
  visitors: number;
  outcomes: Record<BookingOutcome, number>;
  unexpected: { status: number; detail?: string }[];
  /** Bookings of the storm's session type afterwards. */
  rows: number;
  answerP50Ms: number;
  answerP99Ms: number;
  answerMaxMs: number;
};

/**
 * The probe's storm (decision 0121): `visitors` posts of the details form at once over the four
 * overlapping times of offerOverlappingTimes (visitor i books time i mod 4), alternately to each of
 * `servers`, each visitor with its own e-mail and client address. One booking is made; every other visitor
 * must read « Ce créneau vient d'être réservé. », quickly, whatever the order PostgreSQL sees them in.
 */
export async function stormOfOverlappingBookings({
  servers,
  visitors,
  client,
}: {
  servers: Pick<BenchServer, "baseUrl">[];
  visitors: number;
  /** On the servers' database. */
  client: pg.Client;
}): Promise<StormResult> {
  const first = servers[0];
  if (!first) throw new Error("Aucun serveur");
  const { typeId, slotPaths } = await offerOverlappingTimes(client);
  // Each server shows each form once first, as visitors see it before posting: the storm measures the
  // posts, not a process's first load of the route.
  for (const server of servers) {
    for (const slotPath of slotPaths) {
      const form = await request(`${server.baseUrl}${slotPath}`, {
        headers: { accept: "text/html" },
      });
      if (form.status !== 200) throw new Error(`${slotPath} : ${form.status}`);
    }
  }
  const run = randomBytes(3).toString("hex");
  const answers = await Promise.all(
    Array.from({ length: visitors }, (_, index) =>
      postBooking(
        (servers[index % servers.length] ?? first).baseUrl,
        slotPaths[index % slotPaths.length] ?? "",
        { email: `orage-${run}-${index}@example.com`, client: 60_000 + index },
      ),
    ),
  );
  const outcomes: Record<BookingOutcome, number> = {
    booked: 0,
    taken: 0,
    other: 0,
    "5xx": 0,
    network: 0,
  };
  for (const answer of answers) outcomes[answer.outcome] += 1;
  const rows = await client.query<{ count: number }>(
    "select count(*)::int as count from bookings where session_type_id = $1",
    [typeId],
  );
  const times = answers.map((answer) => answer.ms);
  return {
    visitors,
    outcomes,
    unexpected: answers
      .filter((answer) => answer.outcome !== "booked" && answer.outcome !== "taken")
      .map(({ status, detail }) => ({ status, detail })),
    rows: rows.rows[0]?.count ?? -1,
    answerP50Ms: percentile(times, 50) ?? Number.NaN,
    answerP99Ms: percentile(times, 99) ?? Number.NaN,
    answerMaxMs: Math.max(...times),
  };
}

/**
 * Two app processes of one machine on one database: the first with its embedded PostgreSQL in `dataDir`,
 * the second on the first one's database, with the same data folder for its files (two servers with files
 * of their own are refused, decision 0119). The caller stops both and cleans the directory.
 */
export async function startTwoProcesses(dataDir: string): Promise<[BenchServer, BenchServer]> {
  // One secret for both: a client's link made by one process opens on the other.
  const env = { AUTH_SECRET: randomBytes(32).toString("base64url") };
  const first = await startServer({ dataDir, env });
  try {
    const second = await startServer({ dataDir, databaseUrl: first.databaseUrl, env });
    return [first, second];
  } catch (error) {
    await first.stop();
    throw error;
  }
}

/** The race on two fresh processes; everything started is stopped and removed. */
export async function raceOnTwoProcesses(visitors = 50): Promise<RaceResult> {
  const dataDir = await makeDataDir("reservations");
  let servers: BenchServer[] = [];
  try {
    servers = await startTwoProcesses(dataDir);
    const client = await connect(servers[0]?.databaseUrl ?? "");
    try {
      return await raceForOneSlot({ servers, visitors, client });
    } finally {
      await client.end();
    }
  } finally {
    // The second process first: the first one owns the embedded cluster.
    for (const server of [...servers].reverse()) await server.stop();
    await cleanUpCluster(dataDir);
    await removeDataDir(dataDir);
  }
}

/** The storm's budget (decision 0121): every visitor has her answer within two seconds. */
export const STORM_BUDGET_P99_MS = 2_000;

/** The storm on two fresh processes; everything started is stopped and removed. */
export async function stormOnTwoProcesses(visitors = 40): Promise<StormResult> {
  const dataDir = await makeDataDir("reservations-orage");
  let servers: BenchServer[] = [];
  try {
    servers = await startTwoProcesses(dataDir);
    const client = await connect(servers[0]?.databaseUrl ?? "");
    try {
      return await stormOfOverlappingBookings({ servers, visitors, client });
    } finally {
      await client.end();
    }
  } finally {
    for (const server of [...servers].reverse()) await server.stop();
    await cleanUpCluster(dataDir);
    await removeDataDir(dataDir);
  }
}

export async function reservationsSection(context: Context): Promise<Partial<SectionResult>> {
  const quick = context.quick;
  context.log("réservations: free slots of one studio for 90 days (computation)");
  const slots = await measureBookingSlots({ quick });

  const dataDir = await makeDataDir("reservations-page");
  const duration = quick ? 2 : 10;
  const connections = 32;
  let page: Awaited<ReturnType<typeof loadTest>>;
  const daysPage: { ms: number; db: number }[] = [];
  let pageCache = "";
  try {
    const server = await startServer({ dataDir });
    try {
      const client = await connect(server.databaseUrl);
      let daysPath: string;
      try {
        const offered = await offerBooking(client);
        daysPath = offered.daysPath;
        context.log("réservations: 2,000 bookings and 200 blocked periods in SQL");
        await seedAgenda(client, offered.typeId);
      } finally {
        await client.end();
      }
      const runs = quick ? 30 : 200;
      context.log(`réservations: ${daysPath} ${runs} times, one after the other`);
      for (let warm = 0; warm < 20; warm += 1) await request(`${server.baseUrl}${daysPath}`);
      for (let run = 0; run < runs; run += 1) {
        const answer = await request(`${server.baseUrl}${daysPath}`, {
          headers: { accept: "text/html" },
        });
        if (answer.status !== 200) throw new Error(`${daysPath} : ${answer.status}`);
        daysPage.push({ ms: answer.ms, db: databaseMilliseconds(answer.headers) ?? Number.NaN });
      }
      const warm = await request(`${server.baseUrl}/reserver/brive`);
      if (warm.status !== 200) throw new Error(`/reserver/brive : ${warm.status}`);
      const again = await request(`${server.baseUrl}/reserver/brive`);
      pageCache = `${String(warm.headers["x-page-cache"] ?? "none")} / ${String(again.headers["x-page-cache"] ?? "none")}`;
      context.log(
        `réservations: autocannon /reserver/brive (${duration} s, ${connections} connections)`,
      );
      page = await loadTest(`${server.baseUrl}/reserver/brive`, {
        connections,
        durationSeconds: duration,
        maxRequests: 200_000,
      });
    } finally {
      await server.stop();
    }
  } finally {
    await cleanUpCluster(dataDir);
    await removeDataDir(dataDir);
  }

  context.log("réservations: 50 visitors book one slot at once, on two app processes");
  const race = await raceOnTwoProcesses(50);

  context.log(
    "réservations: 40 visitors book four overlapping times at three studios sharing a photographer, on two app processes",
  );
  const storm = await stormOnTwoProcesses(40);

  return {
    title: "Réservations",
    tables: [
      {
        caption:
          "Free slots of one studio for 90 days, 2,000 bookings (with their travel margins at the other studios) and 200 blocked periods: computation (app/lib/booking/slots.ts)",
        columns: ["figure", "value"],
        rows: [
          ["occupancies read", slots.occupancies],
          ["free slots found", slots.freeSlots],
          ["runs (after 20 to warm up)", slots.runs],
          ["p50", metric(slots.p50, "ms", undefined, 2)],
          ["p95", metric(slots.p95, "ms", { max: BOOKING_SLOTS_BUDGET_P95_MS }, 2)],
          ["p95 of the process's CPU time per run", metric(slots.cpuP95, "ms", undefined, 2)],
        ],
      },
      {
        caption:
          "The same agenda in PostgreSQL, the days page `/reserver/brive/{séance}` asked one request after the other (its queries, the 90 days' computation and the page)",
        columns: ["figure", "value"],
        rows: [
          ["requests (after 20 to warm up)", daysPage.length],
          [
            "p50",
            metric(
              percentile(
                daysPage.map((r) => r.ms),
                50,
              ),
              "ms",
              undefined,
              1,
            ),
          ],
          [
            "p95",
            metric(
              percentile(
                daysPage.map((r) => r.ms),
                95,
              ),
              "ms",
              undefined,
              1,
            ),
          ],
          [
            "database time p50 / p95 (Server-Timing)",
            `${percentile(
              daysPage.map((r) => r.db),
              50,
            )?.toFixed(1)} / ${percentile(
              daysPage.map((r) => r.db),
              95,
            )?.toFixed(1)} ms`,
          ],
        ],
      },
      {
        caption: `\`/reserver/brive\`: autocannon, ${duration} s, ${connections} connections`,
        columns: ["figure", "value"],
        rows: [
          ["throughput", metric(page.requestsPerSecond, "req/s", { min: 1_000 })],
          ["p50", metric(page.p50, "ms")],
          ["p99", metric(page.p99, "ms", { max: 50 })],
          ["requests", page.total],
          ["page cache (first request / second)", pageCache],
          [
            "errors / non-2xx",
            metric(page.non2xx + page.errors + page.timeouts, "", { equals: 0 }),
          ],
        ],
      },
      {
        caption: `${race.visitors} visitors post the booking form for one slot at once, alternately to ${race.processes} app processes on one database`,
        columns: ["figure", "value"],
        rows: [
          ["booked (303 to their page)", metric(race.outcomes.booked, "", { equals: 1 })],
          [
            `refused 409 « ${SLOT_TAKEN_MESSAGE} »`,
            metric(race.outcomes.taken, "", { equals: race.visitors - 1 }),
          ],
          ["5xx", metric(race.outcomes["5xx"], "", { equals: 0 })],
          [
            "other answers / refused connections",
            metric(race.outcomes.other + race.outcomes.network, "", { equals: 0 }),
          ],
          ["bookings in the database", metric(race.rows, "", { equals: 1 })],
          ["time to answer all of them", metric(race.allAnsweredMs, "ms")],
          [
            "answer p50 / max",
            `${Math.round(race.answerP50Ms)} / ${Math.round(race.answerMaxMs)} ms`,
          ],
          ["the booked one answered in", metric(race.winnerMs, "ms")],
          [
            "every post answered",
            check(
              race.unexpected.length === 0,
              race.unexpected.length === 0 ? "yes" : JSON.stringify(race.unexpected).slice(0, 300),
            ),
          ],
        ],
      },
      {
        caption: `${storm.visitors} visitors post the booking form at once for four overlapping times at three studios sharing one photographer (Ussel 10:00, Brive 10:30, Limoges 11:00, Brive 10:00), alternately to 2 app processes on one database`,
        columns: ["figure", "value"],
        rows: [
          ["booked (303 to their page)", metric(storm.outcomes.booked, "", { equals: 1 })],
          [
            `refused 409 « ${SLOT_TAKEN_MESSAGE} »`,
            metric(storm.outcomes.taken, "", { equals: storm.visitors - 1 }),
          ],
          ["5xx", metric(storm.outcomes["5xx"], "", { equals: 0 })],
          [
            "other answers / refused connections",
            metric(storm.outcomes.other + storm.outcomes.network, "", { equals: 0 }),
          ],
          ["bookings in the database", metric(storm.rows, "", { equals: 1 })],
          ["answer p50", metric(storm.answerP50Ms, "ms")],
          ["answer p99", metric(storm.answerP99Ms, "ms", { max: STORM_BUDGET_P99_MS })],
          ["answer max", metric(storm.answerMaxMs, "ms")],
        ],
      },
    ],
    notes: [
      `Computation: \`scripts/bench/booking-slots.ts\`, ${slots.runs} runs in one process of the agenda the page reads from PostgreSQL (3 studios, 2 photographers, 90 days, 24 h notice, 30-minute steps, 1 h sessions with 15-minute buffers), without the queries; load average ${slots.loadAverage.toFixed(1)} when it ran.`,
      "Days page: the same counts written in SQL (`seedAgenda`: 2,000 bookings of 45 minutes, hourly from 08:00 UTC over the next 90 days, spread over the three studios, each studio's by a photographer of its own; 200 evening blocked periods of the studios), then the page of a public session type of Brive (1 h, no notice, hourly starts, 90 days) asked sequentially: what a visitor waits for, the free slots of the whole horizon computed on each request (no cache). No budget of its own: the issue's 20 ms is the computation's.",
      "`/reserver/brive`: the studio's session types (one offered), a light page; the load generator runs on the same machine as the server and its database.",
      "Storm (decision 0121): the start-up seed's only photographer covers the three studios, so any two of the four times collide (at a studio, on her time or on her travel); each booking takes its studio's and its photographers' advisory locks in one order before writing its rows. Also asserted (counts only) by `tests/system/booking-storm.test.ts`.",
      "Race: two production servers (`node server.ts`), the second on the first one's embedded PostgreSQL; each visitor with its own e-mail and client address (X-Forwarded-For, TRUST_PROXY=loopback), posted like a browser without JavaScript (urlencoded, same Origin). PostgreSQL's exclusion constraint decides (decision 0113). Also asserted through Caddy by `tests/system/two-servers.test.ts`.",
    ],
    data: {
      slots,
      daysPage: {
        requests: daysPage.length,
        p50: percentile(
          daysPage.map((r) => r.ms),
          50,
        ),
        p95: percentile(
          daysPage.map((r) => r.ms),
          95,
        ),
        databaseP50: percentile(
          daysPage.map((r) => r.db),
          50,
        ),
        databaseP95: percentile(
          daysPage.map((r) => r.db),
          95,
        ),
      },
      page,
      race,
      storm,
    },
  };
}
