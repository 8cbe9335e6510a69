CREATE TABLE "gallery_photo_orders" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"gallery_id" uuid NOT NULL,
	"photo_ids" uuid[] NOT NULL,
	"all_photos" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gallery_unlocks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"gallery_id" uuid NOT NULL,
	"photo_id" uuid,
	"source" varchar(10) NOT NULL,
	"order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gallery_unlocks_once" UNIQUE NULLS NOT DISTINCT("gallery_id","photo_id","order_id"),
	CONSTRAINT "gallery_unlocks_source_check" CHECK ("gallery_unlocks"."source" in ('bought', 'offered')),
	CONSTRAINT "gallery_unlocks_order_check" CHECK (("gallery_unlocks"."source" = 'bought') = ("gallery_unlocks"."order_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_kind_check";--> statement-breakpoint
ALTER TABLE "galleries" ADD COLUMN "included_photos" integer;--> statement-breakpoint
ALTER TABLE "galleries" ADD COLUMN "extra_photo_price_cents" integer;--> statement-breakpoint
ALTER TABLE "galleries" ADD COLUMN "all_photos_price_cents" integer;--> statement-breakpoint
ALTER TABLE "gallery_photo_orders" ADD CONSTRAINT "gallery_photo_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_photo_orders" ADD CONSTRAINT "gallery_photo_orders_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_unlocks" ADD CONSTRAINT "gallery_unlocks_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_unlocks" ADD CONSTRAINT "gallery_unlocks_photo_id_gallery_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."gallery_photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_unlocks" ADD CONSTRAINT "gallery_unlocks_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gallery_photo_orders_gallery_idx" ON "gallery_photo_orders" USING btree ("gallery_id");--> statement-breakpoint
CREATE INDEX "gallery_unlocks_order_idx" ON "gallery_unlocks" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "galleries" ADD CONSTRAINT "galleries_photo_sales_check" CHECK (("galleries"."included_photos" is null or "galleries"."included_photos" >= 0) and ("galleries"."extra_photo_price_cents" is null or "galleries"."extra_photo_price_cents" > 0) and ("galleries"."all_photos_price_cents" is null or "galleries"."all_photos_price_cents" > 0));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_kind_check" CHECK ("orders"."kind" in ('voucher', 'gallery_photos'));