// Section 4: server speed with 1,000 published articles on the embedded PostgreSQL.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Context } from "./context.ts";
import { databaseRoundTrips, request } from "./http.ts";
import { loadTest, type LoadResult } from "./load.ts";
import { metric, type Cell, type SectionResult } from "./report.ts";
import { benchArticleSlug, benchCategorySlug, searchTerms, seedArticles } from "./seed.ts";
import {
  connect,
  makeDataDir,
  processMemory,
  removeDataDir,
  sleep,
  startServer,
} from "./server.ts";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};

/** The functions where the server spent most of its own CPU time (self time), from a .cpuprofile. */
function topFunctions(directory: string, count = 15): Cell[][] {
  const file = readdirSync(directory).find((name) => name.endsWith(".cpuprofile"));
  if (!file) return [];
  const profile = JSON.parse(readFileSync(path.join(directory, file), "utf8")) as {
    nodes: ProfileNode[];
  };
  const totals = new Map<string, number>();
  let all = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (node.callFrame.functionName === "(idle)") continue;
    all += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url
      ? `${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(build[^/]*\/)/, "$1")}:${lineNumber + 1}`
      : "";
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    totals.set(key, (totals.get(key) ?? 0) + hits);
  }
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => [`\`${name}\``, metric((hits / all) * 100, "%", undefined, 1)]);
}

export async function serverSection(context: Context): Promise<Partial<SectionResult>> {
  const quick = context.quick;
  const duration = quick ? 2 : 10;
  const connections = 32;
  const dataDir = await makeDataDir("server");
  const profileDir = path.join(dataDir, "profile");
  const notes: string[] = [];
  const data: Record<string, unknown> = {};

  context.log("server: first start (new data directory)");
  const first = await startServer({ dataDir });
  const firstStartMs = first.startupMs;
  await first.stop();
  context.log("server: restart");
  const server = await startServer({
    dataDir,
    nodeFlags: context.cpuProfile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
  });
  const restartMs = server.startupMs;

  try {
    const client = await connect(server.databaseUrl);
    try {
      context.log("server: seeding 1,000 articles");
      await seedArticles(client, { to: 1_000 });
    } finally {
      await client.end();
    }
    const article = `/blog/${benchArticleSlug(1)}`;
    const pages = [
      "/",
      "/tarifs",
      "/contact-studio-brive",
      "/blog",
      `/blog?q=${searchTerms.common}`,
      "/blog?page=2",
      `/blog/categorie/${benchCategorySlug}`,
      article,
      "/sitemap.xml",
      "/blog/rss.xml",
    ];
    const roundTrips: Cell[][] = [];
    for (const page of pages) {
      // The first request renders the page (a page cache miss); the second is served from the cache.
      const rendered = await request(`${server.baseUrl}${page}`);
      const served = await request(`${server.baseUrl}${page}`);
      roundTrips.push([
        `\`${page}\``,
        rendered.status,
        `${rendered.headers["x-page-cache"] ?? "none"} / ${served.headers["x-page-cache"] ?? "none"}`,
        metric(databaseRoundTrips(rendered.headers) ?? null, "", { max: 3 }),
        metric(databaseRoundTrips(served.headers) ?? null, "", { max: 3 }),
      ]);
    }
    await sleep(2_000);
    const idle = processMemory(server);

    const loaded: Array<{ path: string; result: LoadResult }> = [];
    for (const page of ["/", "/blog", `/blog?q=${searchTerms.common}`, article, "/sitemap.xml"]) {
      context.log(`server: autocannon ${page} (${duration} s, ${connections} connections)`);
      const result = await loadTest(`${server.baseUrl}${page}`, {
        connections,
        durationSeconds: duration,
        maxRequests: 200_000,
      });
      loaded.push({ path: page, result });
    }
    const afterLoad = processMemory(server);
    data.load = loaded;
    data.memory = { idle, afterLoad };

    const speedRows: Cell[][] = loaded.map(({ path: page, result }) => [
      `\`${page}\``,
      metric(result.requestsPerSecond, "req/s"),
      metric(result.p50, "ms"),
      metric(result.p99, "ms", { max: 100 }),
      result.total,
      metric(result.non2xx + result.errors + result.timeouts, "", { equals: 0 }),
    ]);

    const tables = [
      {
        caption: `Throughput and latency: autocannon, ${duration} s, ${connections} connections per page, 1,000 published articles`,
        columns: ["page", "throughput", "p50", "p99", "requests", "errors / non-2xx"],
        rows: speedRows,
      },
      {
        caption:
          "Database round trips per request (Server-Timing header), when the page is rendered and when it is served again",
        columns: ["page", "status", "page cache", "rendered", "served again"],
        rows: roundTrips,
      },
      {
        caption: "Memory and start-up",
        columns: ["figure", "value"],
        rows: [
          ["Node RSS at idle (after seeding, before load)", metric(idle.nodeRss, "MiB")],
          ["Node RSS after the load tests", metric(afterLoad.nodeRss, "MiB")],
          [
            `PostgreSQL at idle: PSS of its ${idle.postgresProcesses} processes (RSS sum ${idle.postgresRss} MiB)`,
            metric(idle.postgresPss, "MiB"),
          ],
          [
            `PostgreSQL after load: PSS of its ${afterLoad.postgresProcesses} processes (RSS sum ${afterLoad.postgresRss} MiB)`,
            metric(afterLoad.postgresPss, "MiB"),
          ],
          [
            "Spawn to healthy /healthz, first start (initdb + migrations)",
            metric(firstStartMs, "ms"),
          ],
          ["Spawn to healthy /healthz, restart (existing data directory)", metric(restartMs, "ms")],
        ],
      },
    ];

    await server.stop();
    if (context.cpuProfile) {
      const top = topFunctions(profileDir);
      if (top.length > 0) {
        tables.push({
          caption:
            "Where the server spent its CPU (share of busy self time, --cpu-prof from start to stop, start-up included)",
          columns: ["function", "share"],
          rows: top,
        });
      }
    }
    notes.push(
      "Latency is measured by autocannon from request to last byte on loopback; the load generator runs on the same machine as the server and its database.",
      "PostgreSQL memory: PSS (shared pages divided among the processes sharing them) summed over every process whose working directory is the cluster; the RSS sum counts shared buffers once per process.",
    );
    return { title: "Server speed", tables, notes, data };
  } finally {
    await server.stop();
    await removeDataDir(dataDir);
  }
}
