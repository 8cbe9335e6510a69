ALTER TABLE "payment_attempts" DROP CONSTRAINT "payment_attempts_status_check";--> statement-breakpoint
ALTER TABLE "provider_events" ALTER COLUMN "payment" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "held_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "held_currency" varchar(3);--> statement-breakpoint
ALTER TABLE "provider_events" ADD COLUMN "refund" jsonb;--> statement-breakpoint
CREATE INDEX "provider_events_refund_payment_idx" ON "provider_events" USING btree (("refund" ->> 'paymentReference')) WHERE "provider_events"."refund" is not null;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_status_check" CHECK ("payment_attempts"."status" in ('open', 'succeeded', 'failed', 'expired', 'held', 'returned'));--> statement-breakpoint
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_subject_check" CHECK ("provider_events"."payment" is not null or "provider_events"."refund" is not null);