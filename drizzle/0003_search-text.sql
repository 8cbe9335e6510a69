DROP INDEX "blog_articles_title_search_idx";--> statement-breakpoint
DROP INDEX "blog_articles_excerpt_search_idx";--> statement-breakpoint
ALTER TABLE "blog_articles" ADD COLUMN "search_text" text GENERATED ALWAYS AS (f_unaccent(lower(title || chr(10) || excerpt))) STORED;--> statement-breakpoint
CREATE INDEX "blog_articles_search_idx" ON "blog_articles" USING gin ("search_text" gin_trgm_ops);