CREATE TABLE "money_journal" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "money_journal_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" varchar(25) NOT NULL,
	"order_id" uuid,
	"attempt_id" uuid,
	"refund_id" uuid,
	"voucher_id" uuid,
	"amount_cents" integer NOT NULL,
	"method" varchar(15),
	"provider_reference" varchar(255),
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"day" date,
	"previous_hash" varchar(64) NOT NULL,
	"hash" varchar(64) NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "money_journal_hash_unique" UNIQUE("hash"),
	CONSTRAINT "money_journal_kind_check" CHECK ("money_journal"."kind" in ('payment', 'refund', 'voucher_issue', 'voucher_redemption', 'voucher_cancellation', 'closure')),
	CONSTRAINT "money_journal_method_check" CHECK ("money_journal"."method" is null or "money_journal"."method" in ('card', 'transfer', 'studio', 'cheque', 'cash', 'card_terminal')),
	CONSTRAINT "money_journal_closure_day_check" CHECK (("money_journal"."kind" = 'closure') = ("money_journal"."day" is not null))
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"label" varchar(300) NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"vat_rate" integer,
	"voucher_vat_mode" varchar(10),
	CONSTRAINT "order_lines_quantity_check" CHECK ("order_lines"."quantity" > 0),
	CONSTRAINT "order_lines_unit_price_check" CHECK ("order_lines"."unit_price_cents" >= 0),
	CONSTRAINT "order_lines_vat_rate_check" CHECK ("order_lines"."vat_rate" is null or "order_lines"."vat_rate" between 0 and 10000),
	CONSTRAINT "order_lines_voucher_vat_mode_check" CHECK ("order_lines"."voucher_vat_mode" is null or "order_lines"."voucher_vat_mode" in ('single', 'multi'))
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" varchar(20) NOT NULL,
	"status" varchar(20) DEFAULT 'awaiting_payment' NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" varchar(3) DEFAULT 'EUR' NOT NULL,
	"method" varchar(10) NOT NULL,
	"buyer_name" varchar(200) NOT NULL,
	"buyer_email" varchar(255) NOT NULL,
	"buyer_phone" varchar(30) DEFAULT '' NOT NULL,
	"terms_accepted_at" timestamp with time zone NOT NULL,
	"rules_snapshot" jsonb NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"idempotency_key" varchar(100) NOT NULL,
	"transfer_reference" varchar(16),
	"pay_by" timestamp with time zone,
	"late_payment" boolean DEFAULT false NOT NULL,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"studio_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "orders_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "orders_transfer_reference_unique" UNIQUE("transfer_reference"),
	CONSTRAINT "orders_amount_check" CHECK ("orders"."amount_cents" > 0),
	CONSTRAINT "orders_currency_check" CHECK ("orders"."currency" = 'EUR'),
	CONSTRAINT "orders_kind_check" CHECK ("orders"."kind" in ('voucher')),
	CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('awaiting_payment', 'paid', 'expired', 'cancelled', 'refunded')),
	CONSTRAINT "orders_method_check" CHECK ("orders"."method" in ('card', 'transfer', 'studio')),
	CONSTRAINT "orders_transfer_reference_check" CHECK ("orders"."method" <> 'transfer' or "orders"."transfer_reference" is not null),
	CONSTRAINT "orders_paid_at_check" CHECK ("orders"."status" <> 'paid' or "orders"."paid_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "payment_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"provider" varchar(10) NOT NULL,
	"provider_reference" varchar(255),
	"payment_reference" varchar(255),
	"amount_cents" integer NOT NULL,
	"status" varchar(10) DEFAULT 'open' NOT NULL,
	"means" varchar(15),
	"expires_at" timestamp with time zone,
	"idempotency_key" varchar(100) NOT NULL,
	"redirect_url" text,
	"held_reason" text,
	"duplicate" boolean DEFAULT false NOT NULL,
	"error" text,
	"succeeded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_attempts_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "payment_attempts_amount_check" CHECK ("payment_attempts"."amount_cents" > 0),
	CONSTRAINT "payment_attempts_provider_check" CHECK ("payment_attempts"."provider" in ('stripe', 'transfer', 'studio')),
	CONSTRAINT "payment_attempts_status_check" CHECK ("payment_attempts"."status" in ('open', 'succeeded', 'failed', 'expired', 'held')),
	CONSTRAINT "payment_attempts_means_check" CHECK ("payment_attempts"."means" is null or "payment_attempts"."means" in ('transfer', 'cheque', 'cash', 'card_terminal'))
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" varchar(10) NOT NULL,
	"event_id" varchar(255) NOT NULL,
	"type" varchar(100) NOT NULL,
	"payload" jsonb NOT NULL,
	"payment" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" varchar(20),
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "provider_events_provider_check" CHECK ("provider_events"."provider" in ('stripe', 'transfer', 'studio'))
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"attempt_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"status" varchar(20) NOT NULL,
	"provider_reference" varchar(255),
	"idempotency_key" varchar(100) NOT NULL,
	"error" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount_cents" > 0),
	CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('pending', 'succeeded', 'failed', 'to_refund_offline', 'refunded_offline'))
);
--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_studio_id_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."studios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_attempt_id_payment_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."payment_attempts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "money_journal_closure_day_idx" ON "money_journal" USING btree ("day") WHERE "money_journal"."kind" = 'closure';--> statement-breakpoint
CREATE INDEX "money_journal_at_idx" ON "money_journal" USING btree ("at");--> statement-breakpoint
CREATE INDEX "money_journal_order_idx" ON "money_journal" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_lines_position_idx" ON "order_lines" USING btree ("order_id","position");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_status_created_idx" ON "orders" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "orders_unpaid_pay_by_idx" ON "orders" USING btree ("pay_by") WHERE "orders"."status" = 'awaiting_payment';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_provider_reference_idx" ON "payment_attempts" USING btree ("provider","provider_reference");--> statement-breakpoint
CREATE INDEX "payment_attempts_order_idx" ON "payment_attempts" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_attempts_open_expiry_idx" ON "payment_attempts" USING btree ("expires_at") WHERE "payment_attempts"."status" = 'open';--> statement-breakpoint
CREATE INDEX "payment_attempts_open_created_idx" ON "payment_attempts" USING btree ("created_at") WHERE "payment_attempts"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "provider_events_event_idx" ON "provider_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "provider_events_unprocessed_idx" ON "provider_events" USING btree ("received_at") WHERE "provider_events"."processed_at" is null;--> statement-breakpoint
CREATE INDEX "provider_events_reference_idx" ON "provider_events" USING btree ("provider",("payment" ->> 'providerReference'));--> statement-breakpoint
CREATE INDEX "provider_events_received_idx" ON "provider_events" USING btree ("provider","received_at");--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "refunds_open_idx" ON "refunds" USING btree ("created_at") WHERE "refunds"."status" in ('pending', 'to_refund_offline');
--> statement-breakpoint
-- Written by hand (drizzle's schema cannot express triggers). The money journal is append-only (decision
-- 0162): any UPDATE, DELETE or TRUNCATE of it is refused, whatever the number of rows it would touch. A
-- restore loads it with the triggers off, inside its one transaction, as it does every table.
CREATE FUNCTION "money_journal_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'money_journal is append-only: % refused', TG_OP
    USING ERRCODE = 'restrict_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "money_journal_append_only"
  BEFORE UPDATE OR DELETE OR TRUNCATE ON "money_journal"
  FOR EACH STATEMENT EXECUTE FUNCTION "money_journal_refuse_change"();
