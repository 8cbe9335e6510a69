// Section 5: blog search with 100,000 published articles: latency of /blog?q= and the query plans.
import type pg from "pg";
import type { Context } from "./context.ts";
import { databaseMilliseconds, request } from "./http.ts";
import { check, metric, percentile, type Cell, type SectionResult } from "./report.ts";
import { searchTerms, seedArticles } from "./seed.ts";
import { connect, makeDataDir, removeDataDir, startServer } from "./server.ts";

/** The same escaping as escapeLikePattern in app/server/blog/articles.server.ts. */
const escapeLike = (term: string) => term.replace(/[\\%_]/g, (character) => `\\${character}`);

/** As searchWords in app/server/blog/articles.server.ts: a term holding %, _ or \ is matched literally. */
const isLiteral = (term: string) => /[%_\\]/.test(term);

/** The app's bounds (app/server/blog/articles.server.ts): countCap(1), RANKED_MATCHES, BLOG_PAGE_SIZE. */
const COUNT_CAP = 99;
const RANKED_MATCHES = 180;
const PAGE_SIZE = 9;

// The statements /blog?q= sends for page 1 (app/server/blog/articles.server.ts), copied from drizzle's
// toSQL(). A term of words (each term below is one word): ranked among the newest matches.
export const rankedSearchSql = `select "id", "title", "slug", "excerpt", "cover_image_url", "cover_focal_x", "cover_focal_y", "published_at", "category_name", "category_slug", (select count(*)::int from (select 1 from "blog_articles" left join "blog_categories" on "blog_articles"."category_id" = "blog_categories"."id" where ("blog_articles"."published" = $1 and ("blog_articles"."search_text" like '%' || f_unaccent(lower($2)) || '%' escape '\\' or "blog_articles"."search_vector" @@ to_tsquery('french_unaccent', $3))) limit $4) as matches) from (select "blog_articles"."id", "blog_articles"."title", "blog_articles"."slug", "blog_articles"."excerpt", "blog_articles"."cover_image_url", "blog_articles"."cover_focal_x", "blog_articles"."cover_focal_y", "blog_articles"."published_at", "blog_categories"."name" as "category_name", "blog_categories"."slug" as "category_slug", "blog_articles"."search_text", "blog_articles"."search_vector" from "blog_articles" left join "blog_categories" on "blog_articles"."category_id" = "blog_categories"."id" where ("blog_articles"."published" = $5 and ("blog_articles"."search_text" like '%' || f_unaccent(lower($6)) || '%' escape '\\' or "blog_articles"."search_vector" @@ to_tsquery('french_unaccent', $7))) order by "blog_articles"."published_at" desc nulls last, "blog_articles"."id" desc limit $8) "candidates" order by ("candidates"."search_vector" @@ to_tsquery('french_unaccent', $9))::int + ts_rank("candidates"."search_vector", to_tsquery('french_unaccent', $10)) desc, "candidates"."published_at" desc nulls last, "candidates"."id" desc limit $11`;

export const rankedParams = (word: string) => {
  const partial = escapeLike(word);
  const whole = `'${word}'`;
  const begun = word.length >= 3 ? `'${word}':*` : whole;
  return [
    true,
    partial,
    whole,
    COUNT_CAP,
    true,
    partial,
    whole,
    RANKED_MATCHES,
    whole,
    begun,
    PAGE_SIZE,
  ];
};

/** A term holding %, _ or \: the partial match alone, newest first. */
export const literalSearchSql = `select "blog_articles"."id", "blog_articles"."title", "blog_articles"."slug", "blog_articles"."excerpt", "blog_articles"."cover_image_url", "blog_articles"."cover_focal_x", "blog_articles"."cover_focal_y", "blog_articles"."published_at", "blog_categories"."name", "blog_categories"."slug", (select count(*)::int from (select 1 from "blog_articles" left join "blog_categories" on "blog_articles"."category_id" = "blog_categories"."id" where ("blog_articles"."published" = $1 and "blog_articles"."search_text" like '%' || f_unaccent(lower($2)) || '%' escape '\\') limit $3) as matches) from "blog_articles" left join "blog_categories" on "blog_articles"."category_id" = "blog_categories"."id" where ("blog_articles"."published" = $4 and "blog_articles"."search_text" like '%' || f_unaccent(lower($5)) || '%' escape '\\') order by "blog_articles"."published_at" desc nulls last, "blog_articles"."id" desc limit $6`;

export const literalParams = (term: string) => [
  true,
  escapeLike(term),
  COUNT_CAP,
  true,
  escapeLike(term),
  PAGE_SIZE,
];

/** When the ranked search found nothing: the known words like each typed word (one typed word here). */
export const similarWordsSql = `
    select typed.position, known.word, known.similarity
    from (values ($1::int, f_unaccent(lower($2)))) as typed (position, word)
    cross join lateral (
      select "blog_search_words"."word" as word, similarity("blog_search_words"."word", typed.word) as similarity
      from "blog_search_words"
      where "blog_search_words"."word" % typed.word
        and similarity("blog_search_words"."word", typed.word) >= $3
      order by similarity desc, "blog_search_words"."articles" desc, "blog_search_words"."word"
      limit $4
    ) as known`;

/** Then the articles holding them: the typo fallback's page, for one typed word and one known word. */
export const similarSearchSql = `select "id", "title", "slug", "excerpt", "cover_image_url", "cover_focal_x", "cover_focal_y", "published_at", "category_name", "category_slug", (select count(*)::int from (select 1 from "blog_articles" left join "blog_categories" on "blog_articles"."category_id" = "blog_categories"."id" where ("blog_articles"."published" = $1 and "blog_articles"."search_text" like $2 escape '\\') limit $3) as matches) from (select "blog_articles"."id", "blog_articles"."title", "blog_articles"."slug", "blog_articles"."excerpt", "blog_articles"."cover_image_url", "blog_articles"."cover_focal_x", "blog_articles"."cover_focal_y", "blog_articles"."published_at", "blog_categories"."name" as "category_name", "blog_categories"."slug" as "category_slug", "blog_articles"."search_text", "blog_articles"."search_vector" from "blog_articles" left join "blog_categories" on "blog_articles"."category_id" = "blog_categories"."id" where ("blog_articles"."published" = $4 and "blog_articles"."search_text" like $5 escape '\\') order by "blog_articles"."published_at" desc nulls last, "blog_articles"."id" desc limit $6) "candidates" order by greatest(case when strpos("candidates"."search_text", $7) > 0 then $8::real else 0 end) desc, "candidates"."published_at" desc nulls last, "candidates"."id" desc limit $9`;

export const similarParams = ({ word, similarity }: { word: string; similarity: number }) => [
  true,
  `%${escapeLike(word)}%`,
  COUNT_CAP,
  true,
  `%${escapeLike(word)}%`,
  RANKED_MATCHES,
  word,
  similarity,
  PAGE_SIZE,
];

/**
 * The statement that answers a search's first page and its parameters, as the app chooses it: the
 * literal or ranked search, or, when that finds nothing, the typo fallback.
 */
async function searchStatement(
  client: pg.Client,
  term: string,
): Promise<{ sql: string; params: unknown[]; fallback: boolean }> {
  if (isLiteral(term))
    return { sql: literalSearchSql, params: literalParams(term), fallback: false };
  const ranked = { sql: rankedSearchSql, params: rankedParams(term), fallback: false };
  if (term.length < 3 || (await client.query(ranked.sql, ranked.params)).rows.length > 0)
    return ranked;
  const similar = await client.query<{ word: string; similarity: number }>(similarWordsSql, [
    0,
    term,
    0.4,
    3,
  ]);
  const [correction, ...others] = similar.rows;
  if (!correction) return ranked;
  // The copied statement holds one known word: a seed that gives more must be measured with another.
  if (others.length > 0) throw new Error(`« ${term} » ressemble à plus d'un mot connu.`);
  return { sql: similarSearchSql, params: similarParams(correction), fallback: true };
}

/** How many published articles a term finds (the fallback's when the search itself finds none). */
async function matchCount(client: pg.Client, term: string): Promise<number> {
  const statement = await searchStatement(client, term);
  const count = async (condition: string, params: unknown[]) =>
    Number(
      (
        await client.query<{ count: string }>(
          `select count(*) from blog_articles where published and ${condition}`,
          params,
        )
      ).rows[0]?.count ?? 0,
    );
  if (statement.fallback) return count(`search_text like $1 escape '\\'`, [statement.params[1]]);
  const partial = `search_text like '%' || f_unaccent(lower($1)) || '%' escape '\\'`;
  if (isLiteral(term)) return count(partial, [escapeLike(term)]);
  return count(`(${partial} or search_vector @@ to_tsquery('french_unaccent', $2))`, [
    escapeLike(term),
    `'${term}'`,
  ]);
}

/**
 * The plan of the list itself, without its InitPlans: the pager's count (a subquery that stops after ten
 * pages of matches, app/server/blog/articles.server.ts countCap) may scan the table's start, by design.
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
  const { sql, params } = await searchStatement(client, term);
  const result = await client.query<{ "QUERY PLAN": string }>(
    `explain (analyze, buffers, costs off) ${sql}`,
    params,
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
        const matches = await matchCount(client, term);
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
          matches,
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
        data[term] = { matches, latencies, database, plan };
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
        `Ranking (decision 0109): a term of words is ranked among its ${RANKED_MATCHES} newest matches (title > excerpt > body, then newest), a term holding %, _ or \\ is matched literally, newest first. Matching articles: the ranked search's (words in title, excerpt or body, or the term within title or excerpt); for the typo, the fallback's (titles and excerpts holding 'mariage').`,
        "The typo's request sends three statements: the ranked search (nothing, from the two GIN indexes), the known words like 'mariagge' (`blog_search_words`), then the fallback's page, whose plan is shown.",
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
