CREATE TABLE "voucher_uses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"voucher_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"booking_id" uuid,
	"by" varchar(10) NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "voucher_uses_amount_check" CHECK ("voucher_uses"."amount_cents" > 0),
	CONSTRAINT "voucher_uses_by_check" CHECK ("voucher_uses"."by" in ('owner', 'client'))
);
--> statement-breakpoint
CREATE TABLE "vouchers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"code" varchar(12),
	"kind" varchar(10) NOT NULL,
	"session_type_id" uuid,
	"studio_id" uuid,
	"label" varchar(200) NOT NULL,
	"value_cents" integer NOT NULL,
	"balance_cents" integer NOT NULL,
	"status" varchar(20) DEFAULT 'awaiting_payment' NOT NULL,
	"recipient_name" varchar(60) NOT NULL,
	"buyer_name" varchar(60) NOT NULL,
	"message" varchar(500) DEFAULT '' NOT NULL,
	"send_to" varchar(10) NOT NULL,
	"recipient_email" varchar(255),
	"delivery_day" date,
	"delivered_at" timestamp with time zone,
	"issued_at" timestamp with time zone,
	"expires_on" date,
	"vat_mode" varchar(10) NOT NULL,
	"reminder_sent_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vouchers_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "vouchers_code_unique" UNIQUE("code"),
	CONSTRAINT "vouchers_kind_check" CHECK ("vouchers"."kind" in ('session', 'amount')),
	CONSTRAINT "vouchers_status_check" CHECK ("vouchers"."status" in ('awaiting_payment', 'active', 'used', 'expired', 'cancelled')),
	CONSTRAINT "vouchers_send_to_check" CHECK ("vouchers"."send_to" in ('buyer', 'recipient')),
	CONSTRAINT "vouchers_vat_mode_check" CHECK ("vouchers"."vat_mode" in ('single', 'multi')),
	CONSTRAINT "vouchers_value_check" CHECK ("vouchers"."value_cents" > 0),
	CONSTRAINT "vouchers_balance_check" CHECK ("vouchers"."balance_cents" >= 0 and "vouchers"."balance_cents" <= "vouchers"."value_cents"),
	CONSTRAINT "vouchers_session_check" CHECK ("vouchers"."kind" <> 'session' or "vouchers"."balance_cents" in (0, "vouchers"."value_cents")),
	CONSTRAINT "vouchers_issued_check" CHECK ("vouchers"."status" in ('awaiting_payment', 'cancelled') or ("vouchers"."code" is not null and "vouchers"."expires_on" is not null)),
	CONSTRAINT "vouchers_recipient_email_check" CHECK ("vouchers"."send_to" <> 'recipient' or "vouchers"."recipient_email" is not null)
);
--> statement-breakpoint
ALTER TABLE "voucher_uses" ADD CONSTRAINT "voucher_uses_voucher_id_vouchers_id_fk" FOREIGN KEY ("voucher_id") REFERENCES "public"."vouchers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_uses" ADD CONSTRAINT "voucher_uses_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_session_type_id_session_types_id_fk" FOREIGN KEY ("session_type_id") REFERENCES "public"."session_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_studio_id_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."studios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "voucher_uses_voucher_idx" ON "voucher_uses" USING btree ("voucher_id","at");--> statement-breakpoint
CREATE INDEX "voucher_uses_booking_idx" ON "voucher_uses" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "vouchers_active_expiry_idx" ON "vouchers" USING btree ("expires_on") WHERE "vouchers"."status" = 'active';--> statement-breakpoint
CREATE INDEX "vouchers_created_idx" ON "vouchers" USING btree ("created_at","id");