ALTER TABLE "bookings" ADD COLUMN "idempotency_key" varchar(100);--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "request_fingerprint" varchar(64);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "request_fingerprint" varchar(64);--> statement-breakpoint
ALTER TABLE "voucher_uses" ADD COLUMN "idempotency_key" varchar(100);--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_idempotency_key_unique" UNIQUE("idempotency_key");--> statement-breakpoint
ALTER TABLE "voucher_uses" ADD CONSTRAINT "voucher_uses_idempotency_key_unique" UNIQUE("idempotency_key");