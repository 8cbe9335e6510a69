// Section « listes » (decision 0130): the admin at the scale of a real business. 10,000 articles, 50,000
// subscribers, 20,000 bookings, 10,000 messages and 200 galleries seeded in SQL; then the owner signs in and
// opens each admin list, its first page and a later one reached by « Page suivante », while the server's
// RSS is sampled every 100 ms.
import { randomBytes } from "node:crypto";
import os from "node:os";
import type pg from "pg";
import { seedSubscribers } from "./backups.ts";
import type { Context } from "./context.ts";
import { createAdmin, sampleMemory } from "./gallery.ts";
import { databaseMilliseconds, databaseRoundTrips, request } from "./http.ts";
import { metric, median, percentile, type Cell, type SectionResult } from "./report.ts";
import { seedArticles } from "./seed.ts";
import {
  type BenchServer,
  connect,
  makeDataDir,
  mib,
  removeDataDir,
  residentBytes,
  sleep,
  startServer,
} from "./server.ts";

/** Every admin page answers within this, at the 95th percentile. */
const BUDGET_P95_MS = 100;
/**
 * What the data may add to the server's memory while the owner signs in and opens every list: the walk's
 * growth at scale less the same walk's over a nearly empty database (decision 0160).
 */
const BUDGET_RSS_GROWTH_MIB = 32;

const FULL = {
  articles: 10_000,
  subscribers: 50_000,
  bookings: 20_000,
  messages: 10_000,
  galleries: 200,
};
/** How many « Page suivante » lead to the later page measured. */
const LATER_PAGE = 3;

/** The lists, each at its first page (the list view of the bookings from today: its 60 days). */
const LISTS = [
  { name: "Tableau de bord (articles)", path: "/admin/dashboard" },
  { name: "Abonnés", path: "/admin/subscribers" },
  { name: "Messages", path: "/admin/messages" },
  { name: "Réservations (liste)", path: "/admin/reservations?vue=liste" },
  { name: "Galeries", path: "/admin/galeries" },
] as const;

async function seedMessages(client: pg.Client, count: number) {
  await client.query(
    `insert into contact_messages (studio, shooting_type, prenom, nom, email, telephone, message, source,
       created_at, handled_at)
     select (array['ussel', 'brive', 'limoges'])[1 + i % 3], 'portrait', 'Client', 'Numéro ' || i,
       'client-banc-' || i || '@example.com', '05 55 00 00 00',
       'Bonjour, nous aimerions une séance en famille au printemps. Quelles sont vos disponibilités ? '
         || repeat('Merci beaucoup. ', 1 + i % 10),
       'instagram', now() - make_interval(mins => i), case when i % 4 = 0 then now() else null end
     from generate_series(1, $1::int) as i`,
    [count],
  );
}

/** Bookings from today on, most of them in the list view's 60 days, with their type and photographer. */
async function seedBookings(client: pg.Client, count: number) {
  const type = await client.query<{ id: string }>(
    `insert into session_types (slug, name, duration_minutes) values ($1, 'Portrait du banc', 60)
     returning id`,
    [`portrait-banc-${randomBytes(3).toString("hex")}`],
  );
  const photographer = await client.query<{ id: string }>(
    `insert into photographers (name) values ('Photographe du banc') returning id`,
  );
  await client.query(
    `insert into bookings (session_type_id, studio_id, photographer_id, starts_at, ends_at, state,
       client_name, client_email, client_phone, manage_token_hash, created_at)
     select $2, (select id from studios order by position limit 1), $3,
       date_trunc('hour', now()) + make_interval(hours => 24 + i / 5 * 1),
       date_trunc('hour', now()) + make_interval(hours => 25 + i / 5 * 1),
       case when i % 10 = 0 then 'cancelled' else 'confirmed' end,
       'Client ' || i, 'client-banc-' || i || '@example.com', '06 00 00 00 00',
       encode(sha256(('banc-' || i || $4)::bytea), 'hex'), now() - make_interval(mins => i)
     from generate_series(1, $1::int) as i`,
    [count, type.rows[0]?.id, photographer.rows[0]?.id, randomBytes(4).toString("hex")],
  );
}

async function seedGalleries(client: pg.Client, count: number) {
  await client.query(
    `insert into galleries (title, client_name, client_email, session_date, expires_at, purge_at,
       access_code, downloads_allowed, created_at)
     select 'Galerie du banc ' || i, 'Client ' || i, 'client-banc-' || i || '@example.com', '2026-06-14',
       now() + interval '30 days', now() + interval '60 days', 'BANCBANC', true,
       now() - make_interval(mins => i)
     from generate_series(1, $1::int) as i`,
    [count],
  );
}

/** The « Page suivante » link of an admin page, or null on its last page. */
function nextPageLink(html: string): string | null {
  const anchor = /<a\b[^>]*\brel="next"[^>]*>/.exec(html)?.[0];
  const href = anchor ? /\bhref="([^"]+)"/.exec(anchor)?.[1] : undefined;
  return href ? href.replaceAll("&amp;", "&") : null;
}

type Timing = {
  name: string;
  page: string;
  rows: string;
  p50: number;
  p95: number;
  bytes: number;
  databaseMs: number | null;
  queries: number | null;
};

async function measurePage(
  server: BenchServer,
  cookie: string,
  path: string,
  times: number,
): Promise<{
  timings: number[];
  bytes: number;
  html: string;
  databaseMs: number | null;
  queries: number | null;
}> {
  const timings: number[] = [];
  const database: number[] = [];
  let queries: number | null = null;
  let html = "";
  for (let index = 0; index < times + 2; index++) {
    const answer = await request(`${server.baseUrl}${path}`, {
      headers: { cookie, accept: "text/html" },
    });
    if (answer.status !== 200) throw new Error(`${path} : ${answer.status}`);
    html = answer.body;
    // The first two warm the route (its module, the database's plans); the others are measured.
    if (index >= 2) {
      timings.push(answer.ms);
      database.push(databaseMilliseconds(answer.headers) ?? Number.NaN);
      queries = databaseRoundTrips(answer.headers) ?? null;
    }
  }
  return {
    timings,
    bytes: Buffer.byteLength(html),
    html,
    databaseMs: median(database.filter((value) => !Number.isNaN(value))),
    queries,
  };
}

type Memory = { before: number; max: number; after: number };

function scaled(scale: number): typeof FULL {
  return Object.fromEntries(
    Object.entries(FULL).map(([name, value]) => [name, Math.max(1, Math.round(value * scale))]),
  ) as typeof FULL;
}

/**
 * Seeds `counts` into a fresh server's database, then signs in and opens each list (its first page and a
 * later one), sampling the server's RSS from its rest until the last page.
 */
async function walkLists(
  context: Context,
  counts: typeof FULL,
  times: number,
): Promise<{ timings: Timing[]; memory: Memory }> {
  const dataDir = await makeDataDir("listes");
  let server: BenchServer | undefined;
  try {
    server = await startServer({ dataDir, env: { PHOTO_WORKERS: "0" } });
    const client = await connect(server.databaseUrl);
    try {
      context.log(
        `listes: ${counts.articles} articles, ${counts.subscribers} abonnés, ${counts.bookings} réservations, ${counts.messages} messages, ${counts.galleries} galeries`,
      );
      await seedArticles(client, { to: counts.articles });
      await seedSubscribers(client, counts.subscribers);
      await seedMessages(client, counts.messages);
      await seedBookings(client, counts.bookings);
      await seedGalleries(client, counts.galleries);
      await client.query("analyze");
    } finally {
      await client.end();
    }
    const pid = server.pid;
    // The server at rest with the data in its database, before anyone signs in.
    await sleep(1_000);
    const atRest: number[] = [];
    for (let index = 0; index < 20; index++) {
      atRest.push(residentBytes(pid) ?? 0);
      await sleep(100);
    }
    const before = median(atRest) ?? 0;
    const sampler = sampleMemory(pid, 100);
    context.log("listes: connexion, puis chaque liste (première page et une page plus loin)");
    const cookie = await createAdmin(server, "banc-listes@example.com");
    const timings: Timing[] = [];
    for (const list of LISTS) {
      const first = await measurePage(server, cookie, list.path, times);
      const rowsOf = (html: string) => String((html.match(/<li\b|<tr\b/g) ?? []).length);
      timings.push({
        name: list.name,
        page: "1re",
        rows: rowsOf(first.html),
        p50: percentile(first.timings, 50) ?? Number.NaN,
        p95: percentile(first.timings, 95) ?? Number.NaN,
        bytes: first.bytes,
        databaseMs: first.databaseMs,
        queries: first.queries,
      });
      let later: string | null = list.path;
      let reached = 1;
      let html = first.html;
      for (let hop = 0; hop < LATER_PAGE; hop++) {
        const next = nextPageLink(html);
        if (!next) break;
        later = next;
        reached += 1;
        html = (
          await request(`${server.baseUrl}${next}`, { headers: { cookie, accept: "text/html" } })
        ).body;
      }
      if (reached > 1 && later) {
        const page = await measurePage(server, cookie, later, times);
        timings.push({
          name: list.name,
          page: `${reached}e`,
          rows: rowsOf(page.html),
          p50: percentile(page.timings, 50) ?? Number.NaN,
          p95: percentile(page.timings, 95) ?? Number.NaN,
          bytes: page.bytes,
          databaseMs: page.databaseMs,
          queries: page.queries,
        });
      }
    }
    const samples = sampler.stop().map((sample) => sample.rss);
    return {
      timings,
      memory: { before, max: Math.max(...samples), after: residentBytes(pid) ?? 0 },
    };
  } finally {
    await server?.stop();
    await removeDataDir(dataDir);
  }
}

export async function adminListsSection(context: Context): Promise<Partial<SectionResult>> {
  const counts = scaled(context.quick ? 0.1 : 1);
  const times = context.quick ? 10 : 40;
  const { timings, memory } = await walkLists(context, counts, times);
  // The same walk over a nearly empty database (decision 0160): what the server adds whatever the data
  // (the sign-in's modules, each page's code, the heap's room), so that the difference is what the data
  // costs, the figure the budget bounds.
  const smallCounts = scaled(1 / 200);
  const small = (await walkLists(context, smallCounts, times)).memory;
  const growth = memory.max - memory.before;
  const fixedGrowth = small.max - small.before;
  const memoryRow = (label: string, figures: Memory): Cell[] => [
    label,
    mib(figures.before),
    mib(figures.max),
    mib(figures.max - figures.before),
    mib(figures.after),
  ];
  const data: Record<string, unknown> = {
    counts,
    timings,
    memory: { beforeMiB: mib(memory.before), maxMiB: mib(memory.max), afterMiB: mib(memory.after) },
    smallCounts,
    smallMemory: {
      beforeMiB: mib(small.before),
      maxMiB: mib(small.max),
      afterMiB: mib(small.after),
    },
    dataGrowthMiB: mib(growth - fixedGrowth),
    loadAverage: os.loadavg(),
  };
  return {
    title: "Listes de l'administration à l'échelle : pages de 50, temps et mémoire",
    tables: [
      {
        caption: `Chaque liste, sa première page et une page plus loin par « Page suivante » (${times} requêtes l'une après l'autre, après 2 d'échauffement) : ${counts.articles} articles, ${counts.subscribers} abonnés, ${counts.bookings} réservations, ${counts.messages} messages, ${counts.galleries} galeries`,
        columns: [
          "liste",
          "page",
          "éléments <li>/<tr>",
          "HTML (Ko)",
          "requêtes SQL",
          "attente SQL p50 (ms)",
          "p50 (ms)",
          "p95 (ms)",
        ],
        rows: timings.map((timing): Cell[] => [
          timing.name,
          timing.page,
          timing.rows,
          Math.round(timing.bytes / 1024),
          timing.queries,
          metric(timing.databaseMs, "ms", undefined, 1),
          metric(timing.p50, "ms", undefined, 1),
          metric(timing.p95, "ms", { max: BUDGET_P95_MS }, 1),
        ]),
      },
      {
        caption:
          "RSS du serveur : au repos avec les données (médiane de 2 s), puis pendant la connexion et toutes les pages ci-dessus (toutes les 100 ms), à l'échelle puis sur une base presque vide ; la différence des croissances est ce que coûtent les données",
        columns: [
          "base",
          "RSS avant (MiB)",
          "RSS max (MiB)",
          "croissance (MiB)",
          "RSS après (MiB)",
        ],
        rows: [
          memoryRow(`à l'échelle (${counts.articles} articles…)`, memory),
          memoryRow(`presque vide (${smallCounts.articles} articles…)`, small),
          [
            "ce que coûtent les données",
            "",
            "",
            metric(mib(growth - fixedGrowth), "MiB", { max: BUDGET_RSS_GROWTH_MIB }),
            "",
          ],
        ],
      },
    ],
    notes: [
      "Seed in SQL (`generate_series`): published articles (seed.ts), active subscribers, contact messages " +
        "(a quarter handled), bookings one every 12 minutes from tomorrow (a tenth cancelled; the list view's " +
        "60 days hold most of them), galleries without photos.",
      `Load average of the machine at the end: ${os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(", ")} (other work on it inflates the p95).`,
      "Each page is asked by one client at a time (keep-alive), signed in by cookie; « page plus loin » is " +
        `the page reached by following « Page suivante » ${LATER_PAGE} times (keyset pages: its cost does ` +
        "not grow with its rank). The row count is the page's `<li>` and `<tr>` elements, menus included.",
    ],
    data,
  };
}
