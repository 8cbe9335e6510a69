ALTER TABLE "bookings" DROP CONSTRAINT "bookings_state_check";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_kind_check";--> statement-breakpoint
DROP INDEX "invoices_sale_order_idx";--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "state" SET DATA TYPE varchar(20);--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "deposit_order_id" uuid;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "deposit_rules" jsonb;--> statement-breakpoint
ALTER TABLE "session_types" ADD COLUMN "deposit" jsonb;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_deposit_order_id_orders_id_fk" FOREIGN KEY ("deposit_order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bookings_deposit_order_idx" ON "bookings" USING btree ("deposit_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_sale_order_idx" ON "invoices" USING btree ("order_id") WHERE "invoices"."kind" in ('sale', 'deposit', 'final');--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_state_check" CHECK ("bookings"."state" in ('pending', 'awaiting_payment', 'confirmed', 'declined', 'expired', 'cancelled', 'no_show', 'done'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_kind_check" CHECK ("orders"."kind" in ('voucher', 'gallery_photos', 'booking_deposit', 'booking_balance'));