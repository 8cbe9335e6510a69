CREATE TABLE "content_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" varchar(80) NOT NULL,
	"data" jsonb NOT NULL,
	"author_id" text,
	"author_name" varchar(255) NOT NULL,
	"summary" varchar(300) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"builtin" varchar(100),
	"file" varchar(100),
	"widths" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"alt" varchar(300) NOT NULL,
	"focal_x" smallint DEFAULT 50 NOT NULL,
	"focal_y" smallint DEFAULT 50 NOT NULL,
	"colour" varchar(7) DEFAULT '#d6d3d1' NOT NULL,
	"original_name" varchar(255),
	"bytes" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_builtin_unique" UNIQUE("builtin"),
	CONSTRAINT "media_file_unique" UNIQUE("file"),
	CONSTRAINT "media_one_source" CHECK (("media"."builtin" is null) <> ("media"."file" is null)),
	CONSTRAINT "media_focal_check" CHECK ("media"."focal_x" between 0 and 100 and "media"."focal_y" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "redirects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"from_path" varchar(500) NOT NULL,
	"to_path" varchar(500) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redirects_from_path_unique" UNIQUE("from_path")
);
--> statement-breakpoint
CREATE TABLE "site_documents" (
	"key" varchar(60) PRIMARY KEY NOT NULL,
	"data" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studios" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" varchar(60) NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"retired_at" timestamp with time zone,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "studios_slug_unique" UNIQUE("slug"),
	CONSTRAINT "studios_slug_check" CHECK ("studios"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$')
);
--> statement-breakpoint
ALTER TABLE "content_revisions" ADD CONSTRAINT "content_revisions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_revisions_subject_idx" ON "content_revisions" USING btree ("subject","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "media_date_idx" ON "media" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
-- What the public pages show now also comes from these tables: any change raises the content version in
-- the writer's transaction (migration 0004), so the page cache renders again at once. Revisions are
-- history only and leave it alone.
CREATE TRIGGER "site_documents_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "site_documents" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();--> statement-breakpoint
CREATE TRIGGER "studios_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "studios" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();--> statement-breakpoint
CREATE TRIGGER "media_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "media" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();--> statement-breakpoint
CREATE TRIGGER "redirects_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "redirects" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
