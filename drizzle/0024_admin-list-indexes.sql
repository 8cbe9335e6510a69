DROP INDEX "blog_newsletter_subscribers_date_idx";--> statement-breakpoint
DROP INDEX "blog_newsletter_subscribers_status_idx";--> statement-breakpoint
DROP INDEX "bookings_starts_idx";--> statement-breakpoint
DROP INDEX "contact_messages_date_idx";--> statement-breakpoint
DROP INDEX "galleries_date_idx";--> statement-breakpoint
CREATE INDEX "blog_articles_admin_list_idx" ON "blog_articles" USING btree ((case when published then coalesce(published_at, created_at) else coalesce(scheduled_at, created_at) end),"created_at","id");--> statement-breakpoint
CREATE INDEX "blog_newsletter_subscribers_date_idx" ON "blog_newsletter_subscribers" USING btree ("subscribed_at","id");--> statement-breakpoint
CREATE INDEX "blog_newsletter_subscribers_status_idx" ON "blog_newsletter_subscribers" USING btree ("status","subscribed_at","id");--> statement-breakpoint
CREATE INDEX "bookings_starts_idx" ON "bookings" USING btree ("starts_at","id");--> statement-breakpoint
CREATE INDEX "contact_messages_date_idx" ON "contact_messages" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "galleries_date_idx" ON "galleries" USING btree ("created_at","id");