CREATE TABLE "galleries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" varchar(200) NOT NULL,
	"client_name" varchar(200) NOT NULL,
	"client_email" varchar(255) NOT NULL,
	"studio_id" uuid,
	"session_date" date,
	"expires_at" timestamp with time zone NOT NULL,
	"purge_at" timestamp with time zone NOT NULL,
	"access_code" varchar(16) NOT NULL,
	"access_version" integer DEFAULT 1 NOT NULL,
	"downloads_allowed" boolean DEFAULT false NOT NULL,
	"watermark" boolean DEFAULT false NOT NULL,
	"variant_revision" integer DEFAULT 1 NOT NULL,
	"cover_photo_id" uuid,
	"invitation_sent_at" timestamp with time zone,
	"selection_validated_at" timestamp with time zone,
	"last_client_activity_at" timestamp with time zone,
	"deleting_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "galleries_purge_after_expiry" CHECK ("galleries"."purge_at" >= "galleries"."expires_at")
);
--> statement-breakpoint
CREATE TABLE "gallery_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gallery_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"original_name" varchar(255) NOT NULL,
	"status" varchar(12) DEFAULT 'uploaded' NOT NULL,
	"error" varchar(300),
	"source_extension" varchar(5) NOT NULL,
	"width" integer,
	"height" integer,
	"widths" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"variant_revision" integer DEFAULT 0 NOT NULL,
	"original_bytes" bigint,
	"original_crc32" bigint,
	"original_extension" varchar(5),
	"thumbhash" varchar(48),
	"colour" varchar(7),
	"favourite" boolean DEFAULT false NOT NULL,
	"favourite_comment" varchar(1000),
	"favourited_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gallery_photos_status_check" CHECK ("gallery_photos"."status" in ('uploaded', 'processing', 'ready', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "resumable_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gallery_id" uuid,
	"photo_id" uuid,
	"file_name" varchar(255) NOT NULL,
	"size" bigint NOT NULL,
	"content_type" varchar(100) NOT NULL,
	"last_modified" bigint,
	"chunk_size" integer NOT NULL,
	"received" bigint DEFAULT 0 NOT NULL,
	"storage_key" varchar(300) NOT NULL,
	"storage_upload_id" text NOT NULL,
	"parts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "galleries" ADD CONSTRAINT "galleries_studio_id_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."studios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "galleries" ADD CONSTRAINT "galleries_cover_photo_id_gallery_photos_id_fk" FOREIGN KEY ("cover_photo_id") REFERENCES "public"."gallery_photos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "galleries" ADD CONSTRAINT "galleries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_photos" ADD CONSTRAINT "gallery_photos_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resumable_uploads" ADD CONSTRAINT "resumable_uploads_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resumable_uploads" ADD CONSTRAINT "resumable_uploads_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "galleries_purge_idx" ON "galleries" USING btree ("purge_at");--> statement-breakpoint
CREATE INDEX "galleries_date_idx" ON "galleries" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "gallery_photos_order_idx" ON "gallery_photos" USING btree ("gallery_id","position");--> statement-breakpoint
CREATE INDEX "gallery_photos_favourites_idx" ON "gallery_photos" USING btree ("gallery_id") WHERE "gallery_photos"."favourite";--> statement-breakpoint
CREATE INDEX "resumable_uploads_match_idx" ON "resumable_uploads" USING btree ("gallery_id","file_name","size","last_modified");--> statement-breakpoint
CREATE INDEX "resumable_uploads_stale_idx" ON "resumable_uploads" USING btree ("updated_at") WHERE "resumable_uploads"."completed_at" is null;