ALTER TABLE "galleries" ADD COLUMN "cover_focal_x" smallint DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "galleries" ADD COLUMN "cover_focal_y" smallint DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "galleries" ADD CONSTRAINT "galleries_cover_focal_check" CHECK ("galleries"."cover_focal_x" between 0 and 100 and "galleries"."cover_focal_y" between 0 and 100);