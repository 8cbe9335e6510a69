CREATE TABLE "invoice_counters" (
	"series" varchar(1) NOT NULL,
	"year" smallint NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "invoice_counters_series_year_pk" PRIMARY KEY("series","year"),
	CONSTRAINT "invoice_counters_series_check" CHECK ("invoice_counters"."series" in ('F', 'A')),
	CONSTRAINT "invoice_counters_last_check" CHECK ("invoice_counters"."last" > 0)
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"series" varchar(1) NOT NULL,
	"year" smallint NOT NULL,
	"sequence" integer NOT NULL,
	"number" varchar(20) NOT NULL,
	"kind" varchar(12) NOT NULL,
	"order_id" uuid,
	"refund_id" uuid,
	"booking_id" uuid,
	"credited_invoice_id" uuid,
	"issued_at" timestamp with time zone NOT NULL,
	"service_date" date,
	"seller" jsonb NOT NULL,
	"buyer" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"ht_cents" integer NOT NULL,
	"vat_cents" integer NOT NULL,
	"ttc_cents" integer NOT NULL,
	"vat_breakdown" jsonb NOT NULL,
	"payment_terms" text NOT NULL,
	CONSTRAINT "invoices_number_unique" UNIQUE("number"),
	CONSTRAINT "invoices_series_check" CHECK ("invoices"."series" in ('F', 'A')),
	CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('sale', 'deposit', 'final', 'credit_note')),
	CONSTRAINT "invoices_sequence_check" CHECK ("invoices"."sequence" > 0),
	CONSTRAINT "invoices_credit_note_check" CHECK (("invoices"."kind" = 'credit_note') = ("invoices"."series" = 'A')
        and ("invoices"."kind" = 'credit_note') = ("invoices"."credited_invoice_id" is not null)),
	CONSTRAINT "invoices_totals_check" CHECK ("invoices"."ht_cents" + "invoices"."vat_cents" = "invoices"."ttc_cents")
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credited_invoice_id_invoices_id_fk" FOREIGN KEY ("credited_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_series_year_sequence_idx" ON "invoices" USING btree ("series","year","sequence");--> statement-breakpoint
CREATE INDEX "invoices_issued_idx" ON "invoices" USING btree ("issued_at","id");--> statement-breakpoint
CREATE INDEX "invoices_order_idx" ON "invoices" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "invoices_booking_idx" ON "invoices" USING btree ("booking_id");--> statement-breakpoint
-- Written by hand (drizzle's schema cannot express triggers). An invoice is immutable once issued (decision
-- 0177): any UPDATE, DELETE or TRUNCATE of the table is refused; a mistake is corrected by a credit note.
-- A restore loads it with the triggers off, inside its one transaction, as it does every table.
CREATE FUNCTION "invoices_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'invoices are immutable once issued: % refused', TG_OP
    USING ERRCODE = 'restrict_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "invoices_immutable"
  BEFORE UPDATE OR DELETE OR TRUNCATE ON "invoices"
  FOR EACH STATEMENT EXECUTE FUNCTION "invoices_refuse_change"();
