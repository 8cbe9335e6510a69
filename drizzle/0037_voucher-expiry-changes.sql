CREATE TABLE "voucher_expiry_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"voucher_id" uuid NOT NULL,
	"previous_expires_on" date NOT NULL,
	"new_expires_on" date NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"by" text,
	CONSTRAINT "voucher_expiry_changes_later_check" CHECK ("voucher_expiry_changes"."new_expires_on" > "voucher_expiry_changes"."previous_expires_on")
);
--> statement-breakpoint
ALTER TABLE "voucher_expiry_changes" ADD CONSTRAINT "voucher_expiry_changes_voucher_id_vouchers_id_fk" FOREIGN KEY ("voucher_id") REFERENCES "public"."vouchers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_expiry_changes" ADD CONSTRAINT "voucher_expiry_changes_by_users_id_fk" FOREIGN KEY ("by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "voucher_expiry_changes_voucher_idx" ON "voucher_expiry_changes" USING btree ("voucher_id","at");