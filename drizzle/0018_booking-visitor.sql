CREATE TABLE "booking_reminders" (
	"booking_id" uuid NOT NULL,
	"kind" varchar(5) NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_reminders_booking_id_kind_starts_at_pk" PRIMARY KEY("booking_id","kind","starts_at"),
	CONSTRAINT "booking_reminders_kind_check" CHECK ("booking_reminders"."kind" in ('48h', '2h'))
);
--> statement-breakpoint
ALTER TABLE "booking_reminders" ADD CONSTRAINT "booking_reminders_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The session types a studio offers show on /reserver/{studio}, a cached public page (decision 0115): a change of
-- them is a change of public content, like a studio's (0008).
CREATE TRIGGER "session_types_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "session_types" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();--> statement-breakpoint
CREATE TRIGGER "session_type_studios_content_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "session_type_studios" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
