// Section « réservations » (issue 25): the free slots' computation (booking-slots.ts), `/reserver/{studio}`
// under load, and 50 visitors posting the booking form for one slot at once, split across two app processes
// on one database. The race is also run, with the same counts, by tests/integration/booking-race.test.ts,
// and the helpers below by tests/integration/booking-durability.test.ts.
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { measureBookingSlots, BOOKING_SLOTS_BUDGET_P95_MS } from "./booking-slots.ts";
import type { Context } from "./context.ts";
import { clientAddress, request } from "./http.ts";
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
 * its own client address. Booked: the 303 to the client's page; taken: the 409 with the French message.
 */
export async function postBooking(
  baseUrl: string,
  slotPath: string,
  { email, client }: { email: string; client: number },
): Promise<{
  outcome: BookingOutcome;
  status: number;
  ms: number;
  location?: string;
  detail?: string;
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
    });
    const ms = performance.now() - started;
    const location = String(response.headers.location ?? "");
    if (response.status >= 500) return { outcome: "5xx", status: response.status, ms };
    if (
      response.status === 303 &&
      /^\/reservation\/[A-Za-z0-9_-]{43}\?nouvelle=1$/.test(location)
    ) {
      return { outcome: "booked", status: 303, ms, location };
    }
    if (response.status === 409 && readable(response.body).includes(SLOT_TAKEN_MESSAGE)) {
      return { outcome: "taken", status: 409, ms };
    }
    return {
      outcome: "other",
      status: response.status,
      ms,
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
};

/**
 * `visitors` posts of the details form for one and the same free time, all sent at once, alternately to
 * each of `servers` (app processes on one database), each visitor with its own e-mail and client address.
 */
export async function raceForOneSlot({
  servers,
  visitors,
  client,
}: {
  servers: BenchServer[];
  visitors: number;
  /** On the servers' database. */
  client: pg.Client;
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
  return {
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

/**
 * Two app processes on one database: the first with its embedded PostgreSQL in `dataDir`, the second
 * (its own data folder) on the first one's database. The caller stops both and cleans the directories.
 */
export async function startTwoProcesses(
  dataDir: string,
  secondDataDir: string,
): Promise<[BenchServer, BenchServer]> {
  // One secret for both: a client's link made by one process opens on the other.
  const env = { AUTH_SECRET: randomBytes(32).toString("base64url") };
  const first = await startServer({ dataDir, env });
  try {
    const second = await startServer({
      dataDir: secondDataDir,
      databaseUrl: first.databaseUrl,
      env,
    });
    return [first, second];
  } catch (error) {
    await first.stop();
    throw error;
  }
}

/** The race on two fresh processes; everything started is stopped and removed. */
export async function raceOnTwoProcesses(visitors = 50): Promise<RaceResult> {
  const dataDir = await makeDataDir("reservations");
  const secondDataDir = await makeDataDir("reservations-second");
  let servers: BenchServer[] = [];
  try {
    servers = await startTwoProcesses(dataDir, secondDataDir);
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
    await removeDataDir(secondDataDir);
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
  try {
    const server = await startServer({ dataDir });
    try {
      const client = await connect(server.databaseUrl);
      try {
        await offerBooking(client);
      } finally {
        await client.end();
      }
      const warm = await request(`${server.baseUrl}/reserver/brive`);
      if (warm.status !== 200) throw new Error(`/reserver/brive : ${warm.status}`);
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
        caption: `\`/reserver/brive\`: autocannon, ${duration} s, ${connections} connections`,
        columns: ["figure", "value"],
        rows: [
          ["throughput", metric(page.requestsPerSecond, "req/s", { min: 1_000 })],
          ["p50", metric(page.p50, "ms")],
          ["p99", metric(page.p99, "ms", { max: 50 })],
          ["requests", page.total],
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
    ],
    notes: [
      `Computation: \`scripts/bench/booking-slots.ts\`, ${slots.runs} runs in one process of the agenda the page's two queries return (3 studios, 2 photographers, 90 days, 24 h notice, 30-minute steps, 1 h sessions with 15-minute buffers), without the queries; load average ${slots.loadAverage.toFixed(1)} when it ran.`,
      "`/reserver/brive`: the studio's session types (one offered), a light page; the load generator runs on the same machine as the server and its database.",
      "Race: two production servers (`node server.ts`), the second on the first one's embedded PostgreSQL; each visitor with its own e-mail and client address (X-Forwarded-For, TRUST_PROXY=loopback), posted like a browser without JavaScript (urlencoded, same Origin). PostgreSQL's exclusion constraint decides (decision 0113). Also asserted by `tests/integration/booking-race.test.ts`.",
    ],
    data: { slots, page, race },
  };
}
