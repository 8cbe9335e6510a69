// Section 5: blog search with 100,000 published articles: latency of /blog?q= and the query plan.
import type pg from "pg";
import type { Context } from "./context.ts";
import { databaseMilliseconds, request } from "./http.ts";
import { check, metric, percentile, type Cell, type SectionResult } from "./report.ts";
import { searchTerms, seedArticles } from "./seed.ts";
import { connect, makeDataDir, removeDataDir, startServer } from "./server.ts";

/** The same escaping as escapeLikePattern in app/server/articles.server.ts. */
const escapeLike = (term: string) => term.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * The statement publishedArticlesQuery (app/server/articles.server.ts) sends for a search on page 1, as
 * drizzle writes it: same expressions as the trigram indexes, one parameter for the pattern.
 */
export const searchSql = `select "blog_articles"."id", "blog_articles"."title", "blog_articles"."slug",
    "blog_articles"."excerpt", "blog_articles"."cover_image_url", "blog_articles"."published_at",
    "blog_categories"."name", "blog_categories"."slug",
    (select count(*)::int from (select 1 from "blog_articles"
      left join "blog_categories" on "blog_articles"."category_id" = "blog_categories"."id"
      where ("blog_articles"."published" = $1 and "blog_articles"."search_text" like '%' || f_unaccent(lower($2)) || '%' escape '\\')
      limit 99) as matches)
  from "blog_articles"
  left join "blog_categories" on "blog_articles"."category_id" = "blog_categories"."id"
  where ("blog_articles"."published" = $1 and "blog_articles"."search_text" like '%' || f_unaccent(lower($2)) || '%' escape '\\')
  order by "blog_articles"."published_at" desc nulls last, "blog_articles"."id" desc
  limit $3`;

/**
 * The plan of the list itself, without its InitPlans: the pager's count (a subquery that stops after ten
 * pages of matches, app/server/articles.server.ts countCap) may scan the table's start, by design.
 */
export function withoutInitPlans(plan: string): string {
  const kept: string[] = [];
  let skippingBelow: number | null = null;
  for (const line of plan.split("\n")) {
    const indent = line.length - line.trimStart().length;
    if (skippingBelow !== null && indent > skippingBelow) continue;
    skippingBelow = null;
    if (line.trimStart().startsWith("InitPlan")) {
      skippingBelow = indent;
      continue;
    }
    kept.push(line);
  }
  return kept.join("\n");
}

export async function explainSearch(client: pg.Client, term: string): Promise<string> {
  const pattern = escapeLike(term);
  const result = await client.query<{ "QUERY PLAN": string }>(
    `explain (analyze, buffers, costs off) ${searchSql}`,
    [true, pattern, 9],
  );
  return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
}

export async function searchSection(context: Context): Promise<Partial<SectionResult>> {
  const articles = context.quick ? 10_000 : 100_000;
  const samples = context.quick ? 40 : 200;
  const dataDir = await makeDataDir("search");
  const server = await startServer({ dataDir });
  const notes: string[] = [];
  const data: Record<string, unknown> = {};
  try {
    const client = await connect(server.databaseUrl);
    const rows: Cell[][] = [];
    const plans: Record<string, string> = {};
    try {
      context.log(`search: seeding ${articles.toLocaleString("en-US")} articles`);
      const seedMs = await seedArticles(client, { to: articles });
      notes.push(
        `Seeding ${articles.toLocaleString("en-US")} articles took ${Math.round(seedMs / 1000)} s.`,
      );

      for (const [kind, term] of Object.entries(searchTerms)) {
        const matches = await client.query<{ count: string }>(
          `select count(*) from blog_articles where published and
             search_text like '%' || f_unaccent(lower($1)) || '%' escape '\\'`,
          [escapeLike(term)],
        );
        const url = `${server.baseUrl}/blog?q=${encodeURIComponent(term)}`;
        // The worst case is slow by nature: fewer samples, still bounded in time.
        const count = kind === "absent" ? Math.min(samples, 20) : samples;
        context.log(`search: ${count} × /blog?q=${term}`);
        // A cookie keeps the page cache out of the way (it never serves visitors with cookies): every
        // request below runs the search, as a new term would.
        const headers = { "accept-encoding": "gzip, br", cookie: "bench=search" };
        for (let i = 0; i < 5; i++) await request(url, { headers }); // warm-up
        const latencies: number[] = [];
        const database: number[] = [];
        const deadline = Date.now() + 45_000;
        for (let i = 0; i < count && Date.now() < deadline; i++) {
          const response = await request(url, { headers });
          if (response.status !== 200)
            throw new Error(`/blog?q=${term} a répondu ${response.status}`);
          latencies.push(response.ms);
          const db = databaseMilliseconds(response.headers);
          if (db !== undefined) database.push(db);
        }
        const plan = await explainSearch(client, term);
        plans[term] = plan;
        const listPlan = withoutInitPlans(plan);
        const indexes = [
          ...new Set(
            [
              ...listPlan.matchAll(
                /(?:Index Scan|Index Only Scan)(?: Backward)? (?:using|on) (\w+)/g,
              ),
            ].map((match) => match[1] ?? ""),
          ),
        ];
        const sequential = /Seq Scan on blog_articles/.test(listPlan);
        const execution = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
        rows.push([
          `${kind}: \`${term}\``,
          Number(matches.rows[0]?.count ?? 0),
          metric(percentile(latencies, 50), "ms"),
          metric(percentile(latencies, 95), "ms", kind === "absent" ? undefined : { max: 50 }),
          metric(percentile(database, 50), "ms"),
          metric(execution === undefined ? null : Number(execution), "ms"),
          (kind === "absent"
            ? (ok: boolean, text: string) => `${ok ? "" : "no index: "}${text}`
            : check)(
            indexes.length > 0 && !sequential,
            sequential
              ? "sequential scan of blog_articles"
              : indexes.map((name) => `\`${name}\``).join(" + "),
          ),
        ]);
        data[term] = { matches: Number(matches.rows[0]?.count ?? 0), latencies, database, plan };
      }
    } finally {
      await client.end();
    }
    return {
      title: "Search at scale",
      tables: [
        {
          caption: `/blog?q= with ${articles.toLocaleString("en-US")} published articles, ${samples} sequential requests per term (20 for the last one)`,
          columns: [
            "term",
            "matching articles",
            "p50",
            "p95",
            "database time p50 (Server-Timing)",
            "EXPLAIN ANALYZE execution",
            "plan",
          ],
          rows,
        },
      ],
      notes: [
        ...notes,
        "The last row (a term with no trigram that matches nothing) is beyond the issue's list and has no budget: it shows the worst case, where the database reads every published article.",
        "Latency: one request at a time over a keep-alive connection, request to last byte, server-rendered HTML page of results, rendered for each request (the requests carry a cookie, so the page cache, which serves a repeated search from memory, stays out of the measurement).",
        "Plans (`EXPLAIN (ANALYZE, BUFFERS)` of the query the app sends, see scripts/bench/search.ts):",
        ...Object.entries(plans).map(
          ([term, plan]) =>
            `\`${term}\`:\n\n  \`\`\`\n${plan
              .split("\n")
              .map((line) => `  ${line}`)
              .join("\n")}\n  \`\`\``,
        ),
      ],
      data,
    };
  } finally {
    await server.stop();
    await removeDataDir(dataDir);
  }
}
