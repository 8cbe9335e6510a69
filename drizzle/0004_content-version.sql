CREATE TABLE "content_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "content_version_single_row" CHECK ("content_version"."id")
);
--> statement-breakpoint
INSERT INTO "content_version" ("id", "version") VALUES (true, 0) ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Any change to the articles or categories raises the version in the writer's own transaction, so the
-- new number becomes visible exactly when the new content does. Counting a view changes only
-- view_count: not a change of what the pages show, so it leaves the version alone.
CREATE FUNCTION "bump_content_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "content_version" SET "version" = "version" + 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "bump_content_version_unless_only_views"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM "old_rows" o FULL JOIN "new_rows" n ON n."id" = o."id"
    WHERE (to_jsonb(o) - 'view_count') IS DISTINCT FROM (to_jsonb(n) - 'view_count')
  ) THEN
    UPDATE "content_version" SET "version" = "version" + 1;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "blog_articles_content_version" AFTER INSERT OR DELETE OR TRUNCATE ON "blog_articles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();--> statement-breakpoint
CREATE TRIGGER "blog_articles_content_version_update" AFTER UPDATE ON "blog_articles" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version_unless_only_views"();--> statement-breakpoint
CREATE TRIGGER "blog_categories_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "blog_categories" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
