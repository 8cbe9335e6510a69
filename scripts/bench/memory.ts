// Section memory (decision 0092): the Node process's footprint at idle and after a load, with the page
// cache on, and PostgreSQL's beside it. See docs/decisions/0092-memory.md.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { root } from "../lib/build.ts";
import type { Context } from "./context.ts";
import { request, signIn } from "./http.ts";
import { loadTest, type LoadResult } from "./load.ts";
import { metric, type Cell, type SectionResult } from "./report.ts";
import { benchArticleSlug, searchTerms, seedArticles } from "./seed.ts";
import {
  type BenchServer,
  connect,
  makeDataDir,
  mib,
  peakBytes,
  processMemory,
  removeDataDir,
  sleep,
  startServer,
} from "./server.ts";

const BUDGET_IDLE_MIB = 160;
const BUDGET_LOADED_MIB = 260;

/** The server's `memory_report` line (app/server/http/memory-report.server.ts), asked for with SIGUSR2. */
type MemoryReport = {
  rssMiB: number;
  heapTotalMiB: number;
  heapUsedMiB: number;
  externalMiB: number;
  arrayBuffersMiB: number;
  pageCache: { entries: number; MiB: number } | null;
  databasePool: { total: number; idle: number; waiting: number } | null;
};

async function askReport(server: BenchServer): Promise<MemoryReport | null> {
  const lastReport = () =>
    server
      .output()
      .split("\n")
      .findLast((line) => line.includes('"memory_report"'));
  // Each line carries its time, so the answer is the line that differs from the last one before.
  const before = lastReport();
  process.kill(server.pid, "SIGUSR2");
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const line = lastReport();
    if (line && line !== before) return JSON.parse(line) as MemoryReport;
    await sleep(50);
  }
  return null;
}

async function snapshot(server: BenchServer) {
  const report = await askReport(server);
  return { ...processMemory(server), nodePeak: mib(peakBytes(server.pid)), report };
}

/** The public pages of the sitemap (the blog's articles but one left out: they are the load's business). */
async function publicPages(baseUrl: string, article: string): Promise<string[]> {
  const sitemap = await request(`${baseUrl}/sitemap.xml`);
  const paths = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => new URL(match[1] ?? "/").pathname,
  );
  const pages = paths.filter((path) => !path.startsWith("/blog/"));
  return [...new Set([...pages, "/blog", article, "/blog/rss.xml"])];
}

export async function memorySection(context: Context): Promise<Partial<SectionResult>> {
  const duration = context.quick ? 2 : 10;
  const dataDir = await makeDataDir("memory");
  const admin = { email: "banc-memoire@example.com", password: randomBytes(12).toString("hex") };
  const data: Record<string, unknown> = {};
  context.log("memory: start");
  // No ADMIN_EMAIL/ADMIN_PASSWORD: ensuring that administrator at start-up would load the sign-in library
  // before any sign-in. She is created after the idle figures, by `npm run admin:create`.
  const server = await startServer({ dataDir });
  try {
    const client = await connect(server.databaseUrl);
    let sharedBuffers = "";
    let databaseBytes = 0;
    try {
      context.log("memory: seeding 1,000 articles");
      await seedArticles(client, { to: 1_000 });
      sharedBuffers = String(
        (await client.query<{ shared_buffers: string }>("show shared_buffers")).rows[0]
          ?.shared_buffers,
      );
      databaseBytes = Number(
        (
          await client.query<{ size: string }>(
            "select pg_database_size(current_database()) as size",
          )
        ).rows[0]?.size,
      );
    } finally {
      await client.end();
    }

    const article = `/blog/${benchArticleSlug(1)}`;
    const pages = await publicPages(server.baseUrl, article);
    context.log(`memory: warm-up, ${pages.length} public pages visited twice`);
    for (let round = 0; round < 2; round++) {
      for (const page of pages) {
        await request(`${server.baseUrl}${page}`, {
          headers: { accept: "text/html", "accept-encoding": "gzip, br" },
        });
      }
    }
    await sleep(5_000);
    const idle = await snapshot(server);

    // Asynchronously: the keep-alive sockets that the server closes meanwhile must be seen closing.
    await promisify(execFile)(
      process.execPath,
      ["scripts/admin-create.ts", "--email", admin.email, "--password", admin.password],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: server.databaseUrl, LOG_LEVEL: "warn" },
        timeout: 120_000,
      },
    );
    const cookie = await signIn(server.baseUrl, admin.email, admin.password);
    // Pages served from the cache, pages rendered at every request (a cookie keeps a visitor out of the
    // cache), and the admin's pages signed in.
    const loads: Array<{
      label: string;
      path: string;
      headers?: Record<string, string>;
      connections?: number;
    }> = [
      { label: "cached", path: "/" },
      { label: "cached", path: "/tarifs" },
      { label: "cached", path: "/blog" },
      { label: "cached", path: article },
      { label: "cached", path: "/sitemap.xml" },
      { label: "rendered", path: "/contact-studio-brive", headers: { cookie: "banc=1" } },
      {
        label: "rendered",
        path: `/blog?q=${searchTerms.common}`,
        headers: { cookie: "banc=1" },
      },
      // The owner's pages, with the few connections of one person's tabs. The dashboard and the articles'
      // list show all 1,000 articles in one page: they would measure that page, not the process.
      { label: "admin", path: "/admin/articles/nouveau", headers: { cookie }, connections: 4 },
      { label: "admin", path: "/admin/studios", headers: { cookie }, connections: 4 },
    ];
    const loaded: Array<{ label: string; path: string; connections: number; result: LoadResult }> =
      [];
    for (const { label, path, headers, connections = 32 } of loads) {
      // First renders (and the JIT's first compilations) are not part of the measure.
      for (let index = 0; index < 5; index++) {
        await request(`${server.baseUrl}${path}`, { headers: { accept: "text/html", ...headers } });
      }
      context.log(`memory: autocannon ${path} (${duration} s, ${connections} connections)`);
      const result = await loadTest(`${server.baseUrl}${path}`, {
        connections,
        durationSeconds: duration,
        maxRequests: 200_000,
        headers,
      });
      loaded.push({ label, path, connections, result });
    }
    await sleep(2_000);
    const rightAfter = await snapshot(server);
    // And what the process keeps once V8 has given back what the burst grew (its memory reducer).
    await sleep(13_000);
    const afterLoad = await snapshot(server);
    data.memory = { idle, rightAfter, afterLoad };
    data.load = loaded;
    data.postgres = { sharedBuffers, databaseBytes };

    const row = (
      figure: string,
      pick: (s: typeof idle) => number | null | undefined,
      unit = "MiB",
      budgets: [number?, number?] = [],
    ): Cell[] => [
      figure,
      metric(pick(idle), unit, budgets[0] === undefined ? undefined : { max: budgets[0] }),
      metric(pick(rightAfter), unit, budgets[1] === undefined ? undefined : { max: budgets[1] }),
      metric(pick(afterLoad), unit),
    ];
    const tables = [
      {
        caption:
          "Node process, with the page cache on: at idle (start, 1,000 articles, every public page of the sitemap visited twice, 5 s of rest), 2 s after the load below, and after 15 s of rest",
        columns: ["figure", "idle", "2 s after the load", "after the load, 15 s of rest"],
        rows: [
          row("RSS", (s) => s.nodeRss, "MiB", [BUDGET_IDLE_MIB, BUDGET_LOADED_MIB]),
          row("peak RSS since start (VmHWM)", (s) => s.nodePeak),
          row("V8 heap used", (s) => s.report?.heapUsedMiB),
          row("V8 heap reserved", (s) => s.report?.heapTotalMiB),
          row("external (buffers, native objects)", (s) => s.report?.externalMiB),
          row("page cache: stored bytes", (s) => s.report?.pageCache?.MiB),
          row("page cache: pages", (s) => s.report?.pageCache?.entries, ""),
          row("database pool: open connections", (s) => s.report?.databasePool?.total, ""),
        ],
      },
      {
        caption: `PostgreSQL (embedded, shared_buffers ${sharedBuffers}, database ${mib(databaseBytes)} MiB)`,
        columns: ["figure", "idle", "2 s after the load", "after the load, 15 s of rest"],
        rows: [
          row("PSS of its processes (shared pages split between them)", (s) => s.postgresPss),
          row("RSS sum (shared buffers counted once per process)", (s) => s.postgresRss),
          row("processes", (s) => s.postgresProcesses, ""),
        ],
      },
      {
        caption: `The load: autocannon, ${duration} s per page`,
        columns: ["page", "kind", "connections", "throughput", "p99", "errors / non-2xx"],
        rows: loaded.map(({ label, path, connections, result }) => [
          `\`${path}\``,
          label,
          connections,
          metric(result.requestsPerSecond, "req/s"),
          metric(result.p99, "ms"),
          metric(result.non2xx + result.errors + result.timeouts, "", { equals: 0 }),
        ]),
      },
    ];
    const notes = [
      "RSS from /proc/<pid>/status; heap, external, page cache and pool from the server's own `memory_report` (SIGUSR2, app/server/http/memory-report.server.ts).",
      "The server runs as `npm start` runs it: server.ts becomes `node --max-semi-space-size=8 --heap-growing-percent=100 scripts/serve-build.mjs` with `MALLOC_ARENA_MAX=2` (decision record 0092).",
      "Recommended for a 1 GB server: PostgreSQL's `shared_buffers = 128MB` (its default; the whole database fits in it several times over), the rest of the PostgreSQL figures are its processes' own memory; see the README, Operations.",
    ];
    return { title: "Memory", tables, notes, data };
  } finally {
    await server.stop();
    await removeDataDir(dataDir);
  }
}
