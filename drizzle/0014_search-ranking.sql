-- French full-text search that ignores accents (decision 0109): accents are removed before the French
-- stemmer, so 'Été', 'ete' and 'été' are one word. It also keeps 'été' searchable: the French stop word list
-- holds it (from « être ») with its accents only.
CREATE TEXT SEARCH CONFIGURATION "french_unaccent" (COPY = pg_catalog.french);--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION "french_unaccent" ALTER MAPPING FOR hword, hword_part, word WITH public.unaccent, pg_catalog.french_stem;--> statement-breakpoint
CREATE TABLE "blog_search_words" (
	"word" text PRIMARY KEY NOT NULL,
	"articles" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blog_articles" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('french_unaccent'::regconfig, title), 'A') || setweight(to_tsvector('french_unaccent'::regconfig, excerpt), 'B') || setweight(to_tsvector('french_unaccent'::regconfig, left(regexp_replace(content, '<[^>]*>', ' ', 'g'), 200000)), 'C')) STORED;--> statement-breakpoint
CREATE INDEX "blog_search_words_trigram_idx" ON "blog_search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "blog_articles_search_vector_idx" ON "blog_articles" USING gin ("search_vector");--> statement-breakpoint
-- The words of published titles and excerpts, counted per article, for the search's typo fallback: texts
-- leaving the published set are subtracted, texts entering it added; a word no article holds is removed.
-- Rows are locked in word order, so that two saves never wait on each other in a circle.
CREATE FUNCTION "count_blog_search_words"("removed" text[], "added" text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  "unused" text[];
BEGIN
  WITH "occurrences" AS (
    SELECT DISTINCT t."article", w."word", -1 AS "delta"
    FROM unnest("removed") WITH ORDINALITY AS t("text", "article"),
      regexp_split_to_table(t."text", '[^[:alnum:]]+') AS w("word")
    UNION ALL
    SELECT DISTINCT t."article", w."word", 1 AS "delta"
    FROM unnest("added") WITH ORDINALITY AS t("text", "article"),
      regexp_split_to_table(t."text", '[^[:alnum:]]+') AS w("word")
  ), "changes" AS (
    SELECT "word", sum("delta")::int AS "delta" FROM "occurrences"
    WHERE length("word") >= 3 AND "word" ~ '[[:alpha:]]'
    GROUP BY "word" HAVING sum("delta") <> 0
  ), "counted" AS (
    INSERT INTO "blog_search_words" AS v ("word", "articles")
    SELECT "word", "delta" FROM "changes" ORDER BY "word"
    ON CONFLICT ("word") DO UPDATE SET "articles" = v."articles" + excluded."articles"
    RETURNING "word", "articles"
  )
  SELECT array_agg("word") INTO "unused" FROM "counted" WHERE "articles" <= 0;
  DELETE FROM "blog_search_words" WHERE "word" = ANY ("unused");
END
$$;--> statement-breakpoint
CREATE FUNCTION "follow_blog_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "count_blog_search_words"('{}', ARRAY(SELECT "search_text" FROM "new_rows" WHERE "published"));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "count_blog_search_words"(ARRAY(SELECT "search_text" FROM "old_rows" WHERE "published"), '{}');
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "count_blog_search_words"(
      CASE WHEN OLD."published" THEN ARRAY[OLD."search_text"] ELSE '{}' END,
      CASE WHEN NEW."published" THEN ARRAY[NEW."search_text"] ELSE '{}' END
    );
  ELSE
    DELETE FROM "blog_search_words";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Inserts and deletes are counted once per statement (a seed of thousands of articles, one pass); an
-- update only when it changes what a published article's title, excerpt or publication shows, so that
-- counting a view costs nothing.
CREATE TRIGGER "blog_articles_search_words_insert" AFTER INSERT ON "blog_articles" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "follow_blog_search_words"();--> statement-breakpoint
CREATE TRIGGER "blog_articles_search_words_delete" AFTER DELETE ON "blog_articles" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "follow_blog_search_words"();--> statement-breakpoint
CREATE TRIGGER "blog_articles_search_words_update" AFTER UPDATE OF "title", "excerpt", "published" ON "blog_articles" FOR EACH ROW WHEN ((OLD."published" OR NEW."published") AND (OLD."search_text", OLD."published") IS DISTINCT FROM (NEW."search_text", NEW."published")) EXECUTE FUNCTION "follow_blog_search_words"();--> statement-breakpoint
CREATE TRIGGER "blog_articles_search_words_truncate" AFTER TRUNCATE ON "blog_articles" FOR EACH STATEMENT EXECUTE FUNCTION "follow_blog_search_words"();--> statement-breakpoint
SELECT "count_blog_search_words"('{}', ARRAY(SELECT "search_text" FROM "blog_articles" WHERE "published"));
