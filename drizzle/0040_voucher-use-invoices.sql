ALTER TABLE "invoices" DROP CONSTRAINT "invoices_kind_check";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "voucher_use_id" uuid;--> statement-breakpoint
ALTER TABLE "voucher_uses" ADD COLUMN "invoice_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_voucher_use_idx" ON "invoices" USING btree ("voucher_use_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_voucher_use_check" CHECK (("invoices"."kind" = 'voucher_use') = ("invoices"."voucher_use_id" is not null));--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('sale', 'deposit', 'final', 'voucher_use', 'credit_note'));