// Published blog articles made in SQL (generate_series), with a controlled vocabulary so that the search
// terms below match a known share of them.
import type pg from "pg";

/** Search terms and the share of generated articles each one matches (title, excerpt or body). */
export const searchTerms = {
  /** In one title out of 8 ('Portrait de famille …') and one body out of 11. */
  common: "famille",
  /** In one title out of 10,007 (article 17, 10024, …). */
  rare: "zanzibar",
  /** Accentless: matches 'Été' (one title out of 13, one body out of 11). */
  accentless: "ete",
  /** A literal percent sign ('-20 %' in one title out of 97). */
  percent: "%",
  /** A typo of 'mariage' (one title out of 8): found by nothing but the typo fallback. */
  typo: "mariagge",
  /** Worst case, beyond the list: no trigram to look up and no match, so nothing stops a scan early. */
  absent: "%_%",
} as const;

const categories = [
  ["bench-conseils", "Conseils"],
  ["bench-coulisses", "Coulisses"],
  ["bench-inspiration", "Inspiration"],
  ["bench-mariages", "Mariages"],
  ["bench-naissances", "Naissances"],
] as const;

const covers = [
  "naissance",
  "ete",
  "noel",
  "brive",
  "grossesse",
  "mariage",
  "portrait-pro",
  "scolaire",
  "fond-noir",
  "fete-des-meres",
];

export const benchArticleSlug = (n: number) => `article-banc-${n}`;

/** A category of the seeded articles (every fifth article is in it). */
export const benchCategorySlug = categories[0][0];

/** The five benchmark categories (idempotent). */
export async function seedCategories(client: pg.Client): Promise<void> {
  for (const [slug, name] of categories) {
    await client.query(
      `insert into blog_categories (name, slug, description) values ($1, $2, $3)
       on conflict (slug) do nothing`,
      [name, slug, `Articles de la catégorie ${name.toLowerCase()}.`],
    );
  }
}

/**
 * Inserts published articles numbered `from`..`to` (article 1 is the newest), in batches so that no single
 * statement runs for long. Returns the milliseconds it took.
 */
export async function seedArticles(
  client: pg.Client,
  { from = 1, to, batch = 10_000 }: { from?: number; to: number; batch?: number },
): Promise<number> {
  const started = performance.now();
  await seedCategories(client);
  for (let start = from; start <= to; start += batch) {
    const end = Math.min(to, start + batch - 1);
    await client.query(
      `with cats as (
         select array_agg(id order by slug) as ids from blog_categories where slug like 'bench-%'
       )
       insert into blog_articles
         (title, slug, excerpt, content, author, category_id, cover_image_url, published, published_at)
       select
         (array['Séance naissance', 'Portrait de famille', 'Mariage champêtre', 'Grossesse lumineuse',
                'Portrait professionnel', 'Séance fratrie', 'Photo scolaire', 'Boudoir élégant'])[1 + i % 8]
           || ' ' || (array['à Brive', 'à Ussel', 'à Limoges', 'en Corrèze', 'au studio', 'en extérieur',
                            'à Ambazac'])[1 + i % 7]
           || case when i % 13 = 0 then ', souvenirs d''Été' else '' end
           || case when i % 97 = 0 then ' : -20 % sur la séance' else '' end
           || case when i % 10007 = 17 then ', escale à Zanzibar' else '' end
           || ' n°' || i,
         $3 || i,
         'Retour en images sur une séance réalisée par notre équipe, avec nos conseils de préparation '
           || 'et les coulisses du studio (article ' || i || ').',
         '<p>Une séance photo se prépare : choisir le bon moment, les tenues, les accessoires. '
           || 'Nous vous accompagnons à chaque étape.</p><h2>Avant la séance</h2><p>Prévoyez des tenues '
           || 'simples aux couleurs douces, évitez les grands logos, et pensez à un change.</p>'
           || '<h2>Pendant la séance</h2><p>Nous prenons le temps : pauses, jeux, câlins. Les plus belles '
           || 'images naissent quand chacun oublie l''objectif.</p><ul><li>Arrivez dix minutes en avance'
           || '</li><li>Apportez le doudou</li><li>Gardez le sourire</li></ul>'
           || case when i % 11 = 0 then '<p>Un bel <em>été</em> en famille, à la lumière du soir.</p>' else '' end,
         'Studio Photo',
         cats.ids[1 + i % 5],
         '/images/demo-blog/' || ($4::text[])[1 + i % 10] || '.jpg',
         true,
         now() - make_interval(mins => i)
       from generate_series($1::int, $2::int) as i, cats`,
      [start, end, "article-banc-", covers],
    );
  }
  await client.query("analyze blog_articles");
  await client.query("analyze blog_categories");
  return performance.now() - started;
}

/** Removes what seedArticles made. */
export async function removeSeededArticles(client: pg.Client): Promise<void> {
  await client.query("delete from blog_articles where slug like 'article-banc-%'");
  await client.query("delete from blog_categories where slug like 'bench-%'");
}
