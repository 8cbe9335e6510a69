import { data, type RouterContextProvider } from "react-router";
import { sql } from "drizzle-orm";
import { clientAddressContext } from "./context";
import { db } from "./db/client.server";
import { log } from "./logger.server";
import { consumeRateLimit } from "./rate-limit.server";
import { parseForm } from "~/lib/forms";
import {
  invalidEmailToast,
  newsletterSources,
  newsletterToasts,
  type NewsletterResult,
  type NewsletterSource,
} from "~/lib/newsletter";
import { newsletterSchema } from "~/lib/newsletter-schema";

/** Sign-ups allowed per client address and window: enough for a family behind one box, not for a bot. */
export const NEWSLETTER_RATE_LIMIT = { limit: 5, windowSeconds: 10 * 60 };

/**
 * Adds a subscriber unless the address (whatever its case) is already there. One statement: concurrent
 * sign-ups of the same address end with one row and exactly one "subscribed".
 */
export async function subscribeToNewsletter(
  email: string,
  source: NewsletterSource,
): Promise<"subscribed" | "duplicate"> {
  const result = await db().execute(sql`
    insert into blog_newsletter_subscribers (email, consent_source)
    values (${email}, ${source})
    on conflict ((lower(email))) do nothing
    returning id
  `);
  return result.rows.length > 0 ? "subscribed" : "duplicate";
}

function answer(result: NewsletterResult["newsletter"], status: number) {
  // The outcome concerns one visitor: never stored by a shared cache.
  return data<NewsletterResult>(
    { newsletter: result },
    { status, headers: { "Cache-Control": "no-store" } },
  );
}

/** The newsletter form's action, shared by the pages that show the form (works without JavaScript). */
export async function handleNewsletterSubmission(
  request: Request,
  context: Readonly<RouterContextProvider>,
) {
  const formData = await request.formData();
  const submitted = formData.get("email");
  const email = typeof submitted === "string" ? submitted : "";
  const sourceField = formData.get("source");
  const source = newsletterSources.find((value) => value === sourceField) ?? "blog";

  try {
    const client = context.get(clientAddressContext);
    const limit = await consumeRateLimit(`newsletter:${client}`, NEWSLETTER_RATE_LIMIT);
    if (!limit.allowed) {
      return answer({ outcome: "rate_limited", toast: newsletterToasts.rate_limited, email }, 429);
    }

    const parsed = parseForm({ email }, newsletterSchema);
    if (!parsed.ok) {
      const message = parsed.errors.email ?? "Email invalide";
      return answer({ outcome: "invalid", toast: invalidEmailToast(message), email }, 400);
    }

    const outcome = await subscribeToNewsletter(parsed.data.email, source);
    if (outcome === "subscribed") log.info("newsletter_subscribed", { source });
    return answer(
      outcome === "subscribed"
        ? { outcome, toast: newsletterToasts.subscribed }
        : { outcome, toast: newsletterToasts.duplicate },
      200,
    );
  } catch (error) {
    log.error("newsletter_failed", { error });
    return answer({ outcome: "error", toast: newsletterToasts.error, email }, 500);
  }
}
