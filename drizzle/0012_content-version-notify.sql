-- Every raise of the content version (by any trigger of migrations 0004 and 0008, or any later one) is
-- announced on the channel "content_version" with the new number, so that each process of the site knows
-- the version without asking for it on every request (decision 0093). NOTIFY is transactional: the
-- notification leaves when the writer's transaction commits, never before and never if it rolls back, so a
-- process that learns a number can read the content that number names.
CREATE FUNCTION "notify_content_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('content_version', NEW."version"::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "content_version_notify" AFTER UPDATE ON "content_version" FOR EACH ROW EXECUTE FUNCTION "notify_content_version"();
