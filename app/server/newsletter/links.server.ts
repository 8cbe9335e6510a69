import { env } from "../env.server";
import { signLinkToken } from "../signed-link.server";
import { CONFIRMATION_LIFETIME_DAYS } from "~/lib/newsletter-links";

// The confirmation page says it too: the number lives with the pages' shared code.
export { CONFIRMATION_LIFETIME_DAYS };

/** The subject of the unsubscribe link of a test e-mail or a preview: it belongs to nobody. */
export const SAMPLE_SUBSCRIBER = "apercu";

/**
 * When a confirmation link stops working: CONFIRMATION_LIFETIME_DAYS after `sentAt`, the subscriber's
 * confirmation_sent_at, the very instant from which the nightly purge forgets an unconfirmed sign-up
 * (newsletter/retention.server.ts). Counted from when the e-mail was asked for, not from when its job ran:
 * after mail retries, the link still dies with the sign-up, never before the date the e-mail gives.
 */
export function confirmationExpiresAt(sentAt: Date): Date {
  return new Date(sentAt.getTime() + CONFIRMATION_LIFETIME_DAYS * 24 * 60 * 60 * 1000);
}

/** The address of the confirmation page for this subscriber: a token valid until confirmationExpiresAt. */
export async function confirmationUrl(subscriberId: string, sentAt: Date): Promise<string> {
  const token = await signLinkToken("newsletter-confirm", subscriberId, {
    lifetimeSeconds: CONFIRMATION_LIFETIME_DAYS * 24 * 60 * 60,
    now: sentAt.getTime(),
  });
  return `${env().SITE_URL}/newsletter/confirmation?token=${token}`;
}

/**
 * The subscriber's own unsubscribe address (page on GET, one-click on POST, RFC 8058). It does not expire:
 * an old newsletter's link must still work.
 */
export async function unsubscribeUrl(subscriberId: string): Promise<string> {
  const token = await signLinkToken("newsletter-unsubscribe", subscriberId);
  return `${env().SITE_URL}/newsletter/desabonnement?token=${token}`;
}
