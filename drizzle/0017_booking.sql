-- Online booking (issue 25, decision record 0113). btree_gist lets a GiST index compare uuids and booleans
-- with = and <>, beside the time ranges' &&: what the exclusion constraints at the end of this file need.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
CREATE TABLE "blocked_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"studio_id" uuid,
	"photographer_id" uuid,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"label" varchar(200) NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocked_periods_times_check" CHECK ("blocked_periods"."ends_at" > "blocked_periods"."starts_at"),
	CONSTRAINT "blocked_periods_subject_check" CHECK ("blocked_periods"."studio_id" is not null or "blocked_periods"."photographer_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "booking_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"kind" varchar(20) NOT NULL,
	"actor" varchar(10) NOT NULL,
	"actor_user_id" text,
	"actor_name" varchar(255) DEFAULT '' NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_occupancies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid,
	"blocked_period_id" uuid,
	"studio_id" uuid,
	"photographer_id" uuid,
	"during" "tstzrange" NOT NULL,
	"real" boolean NOT NULL,
	"holds_until" timestamp with time zone,
	CONSTRAINT "booking_occupancies_owner_check" CHECK (("booking_occupancies"."booking_id" is null) <> ("booking_occupancies"."blocked_period_id" is null)),
	CONSTRAINT "booking_occupancies_subject_check" CHECK ("booking_occupancies"."studio_id" is not null or "booking_occupancies"."photographer_id" is not null),
	CONSTRAINT "booking_occupancies_during_check" CHECK (not isempty("booking_occupancies"."during"))
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_type_id" uuid NOT NULL,
	"studio_id" uuid NOT NULL,
	"photographer_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"buffer_before_minutes" integer DEFAULT 0 NOT NULL,
	"buffer_after_minutes" integer DEFAULT 0 NOT NULL,
	"state" varchar(12) NOT NULL,
	"respond_by" timestamp with time zone,
	"source" varchar(10) DEFAULT 'client' NOT NULL,
	"client_name" varchar(200) NOT NULL,
	"client_email" varchar(255) NOT NULL,
	"client_phone" varchar(30) DEFAULT '' NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"consent_at" timestamp with time zone,
	"manage_token_hash" varchar(64) NOT NULL,
	"ics_sequence" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bookings_manage_token_hash_unique" UNIQUE("manage_token_hash"),
	CONSTRAINT "bookings_times_check" CHECK ("bookings"."ends_at" > "bookings"."starts_at"),
	CONSTRAINT "bookings_state_check" CHECK ("bookings"."state" in ('pending', 'confirmed', 'declined', 'cancelled', 'no_show', 'done')),
	CONSTRAINT "bookings_source_check" CHECK ("bookings"."source" in ('client', 'owner')),
	CONSTRAINT "bookings_request_deadline_check" CHECK ("bookings"."state" <> 'pending' or "bookings"."respond_by" is not null)
);
--> statement-breakpoint
CREATE TABLE "photographer_studios" (
	"photographer_id" uuid NOT NULL,
	"studio_id" uuid NOT NULL,
	CONSTRAINT "photographer_studios_photographer_id_studio_id_pk" PRIMARY KEY("photographer_id","studio_id")
);
--> statement-breakpoint
CREATE TABLE "photographers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(100) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_type_studios" (
	"session_type_id" uuid NOT NULL,
	"studio_id" uuid NOT NULL,
	CONSTRAINT "session_type_studios_session_type_id_studio_id_pk" PRIMARY KEY("session_type_id","studio_id")
);
--> statement-breakpoint
CREATE TABLE "session_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" varchar(100) NOT NULL,
	"name" varchar(150) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"photo_id" uuid,
	"duration_minutes" integer NOT NULL,
	"buffer_before_minutes" integer DEFAULT 0 NOT NULL,
	"buffer_after_minutes" integer DEFAULT 0 NOT NULL,
	"price_text" varchar(200) DEFAULT '' NOT NULL,
	"included_text" text DEFAULT '' NOT NULL,
	"minimum_notice_hours" integer DEFAULT 24 NOT NULL,
	"horizon_days" integer DEFAULT 90 NOT NULL,
	"step_minutes" integer DEFAULT 30 NOT NULL,
	"mode" varchar(10) DEFAULT 'instant' NOT NULL,
	"response_deadline_hours" integer DEFAULT 48 NOT NULL,
	"deposit_text" text,
	"visibility" varchar(10) DEFAULT 'public' NOT NULL,
	"private_token" varchar(64),
	"questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bookable_hours" jsonb,
	"cancellation_cutoff_hours" integer DEFAULT 48 NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_types_slug_unique" UNIQUE("slug"),
	CONSTRAINT "session_types_private_token_unique" UNIQUE("private_token"),
	CONSTRAINT "session_types_slug_check" CHECK ("session_types"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "session_types_mode_check" CHECK ("session_types"."mode" in ('instant', 'request')),
	CONSTRAINT "session_types_visibility_check" CHECK ("session_types"."visibility" in ('public', 'private')),
	CONSTRAINT "session_types_private_token_check" CHECK ("session_types"."visibility" = 'public' or "session_types"."private_token" is not null),
	CONSTRAINT "session_types_minutes_check" CHECK ("session_types"."duration_minutes" between 5 and 1440 and "session_types"."buffer_before_minutes" between 0 and 600 and "session_types"."buffer_after_minutes" between 0 and 600 and "session_types"."step_minutes" between 5 and 720),
	CONSTRAINT "session_types_hours_check" CHECK ("session_types"."minimum_notice_hours" between 0 and 8760 and "session_types"."horizon_days" between 1 and 730 and "session_types"."response_deadline_hours" between 1 and 720 and "session_types"."cancellation_cutoff_hours" between 0 and 8760)
);
--> statement-breakpoint
CREATE TABLE "travel_times" (
	"studio_a" uuid NOT NULL,
	"studio_b" uuid NOT NULL,
	"minutes" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "travel_times_studio_a_studio_b_pk" PRIMARY KEY("studio_a","studio_b"),
	CONSTRAINT "travel_times_pair_order" CHECK ("travel_times"."studio_a" < "travel_times"."studio_b"),
	CONSTRAINT "travel_times_minutes_check" CHECK ("travel_times"."minutes" between 0 and 1440)
);
--> statement-breakpoint
ALTER TABLE "blocked_periods" ADD CONSTRAINT "blocked_periods_studio_id_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."studios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_periods" ADD CONSTRAINT "blocked_periods_photographer_id_photographers_id_fk" FOREIGN KEY ("photographer_id") REFERENCES "public"."photographers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_periods" ADD CONSTRAINT "blocked_periods_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_occupancies" ADD CONSTRAINT "booking_occupancies_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_occupancies" ADD CONSTRAINT "booking_occupancies_blocked_period_id_blocked_periods_id_fk" FOREIGN KEY ("blocked_period_id") REFERENCES "public"."blocked_periods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_occupancies" ADD CONSTRAINT "booking_occupancies_studio_id_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."studios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_occupancies" ADD CONSTRAINT "booking_occupancies_photographer_id_photographers_id_fk" FOREIGN KEY ("photographer_id") REFERENCES "public"."photographers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_session_type_id_session_types_id_fk" FOREIGN KEY ("session_type_id") REFERENCES "public"."session_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_studio_id_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."studios"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_photographer_id_photographers_id_fk" FOREIGN KEY ("photographer_id") REFERENCES "public"."photographers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photographer_studios" ADD CONSTRAINT "photographer_studios_photographer_id_photographers_id_fk" FOREIGN KEY ("photographer_id") REFERENCES "public"."photographers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photographer_studios" ADD CONSTRAINT "photographer_studios_studio_id_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."studios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_type_studios" ADD CONSTRAINT "session_type_studios_session_type_id_session_types_id_fk" FOREIGN KEY ("session_type_id") REFERENCES "public"."session_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_type_studios" ADD CONSTRAINT "session_type_studios_studio_id_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."studios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_types" ADD CONSTRAINT "session_types_photo_id_media_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_times" ADD CONSTRAINT "travel_times_studio_a_studios_id_fk" FOREIGN KEY ("studio_a") REFERENCES "public"."studios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_times" ADD CONSTRAINT "travel_times_studio_b_studios_id_fk" FOREIGN KEY ("studio_b") REFERENCES "public"."studios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blocked_periods_starts_idx" ON "blocked_periods" USING btree ("starts_at");--> statement-breakpoint
CREATE INDEX "booking_events_booking_idx" ON "booking_events" USING btree ("booking_id","at");--> statement-breakpoint
CREATE INDEX "booking_occupancies_booking_idx" ON "booking_occupancies" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "booking_occupancies_blocked_idx" ON "booking_occupancies" USING btree ("blocked_period_id");--> statement-breakpoint
CREATE INDEX "booking_occupancies_lapsing_idx" ON "booking_occupancies" USING btree ("holds_until") WHERE "booking_occupancies"."holds_until" is not null;--> statement-breakpoint
CREATE INDEX "bookings_starts_idx" ON "bookings" USING btree ("starts_at");--> statement-breakpoint
CREATE INDEX "bookings_studio_starts_idx" ON "bookings" USING btree ("studio_id","starts_at");--> statement-breakpoint
CREATE INDEX "bookings_email_idx" ON "bookings" USING btree ("client_email","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bookings_pending_idx" ON "bookings" USING btree ("respond_by") WHERE "bookings"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "photographer_studios_studio_idx" ON "photographer_studios" USING btree ("studio_id");--> statement-breakpoint
CREATE INDEX "session_type_studios_studio_idx" ON "session_type_studios" USING btree ("studio_id");

--> statement-breakpoint
-- Written by hand (drizzle's schema cannot express exclusion constraints). One studio, one session at a time:
ALTER TABLE "booking_occupancies" ADD CONSTRAINT "booking_occupancies_studio_excl"
  EXCLUDE USING gist ("studio_id" WITH =, "during" WITH &&) WHERE ("real");
--> statement-breakpoint
-- One photographer, one place at a time:
ALTER TABLE "booking_occupancies" ADD CONSTRAINT "booking_occupancies_photographer_excl"
  EXCLUDE USING gist ("photographer_id" WITH =, "during" WITH &&) WHERE ("real");
--> statement-breakpoint
-- A photographer at a studio (a real row) never inside one of her travel margins there (a row with real
-- false): she could not get there in time. Two margins, or two real rows, never meet here (real <> real).
ALTER TABLE "booking_occupancies" ADD CONSTRAINT "booking_occupancies_travel_excl"
  EXCLUDE USING gist ("photographer_id" WITH =, "studio_id" WITH =, "during" WITH &&, "real" WITH <>);
