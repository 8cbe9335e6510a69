import { eq } from "drizzle-orm";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { blogNewsletterSubscribers } from "../db/schema";
import { emailButton, emailLayout, escapeHtml } from "../mail/layout.server";
import { defineMailKind } from "../mail/outbox.server";
import type { OutgoingMail } from "../mail/transport.server";
import { confirmationExpiresAt, confirmationUrl } from "./links.server";
import { formatLongDateTimeFr } from "~/lib/dates";
import { ofName } from "~/lib/french";

/**
 * The double opt-in e-mail: one link to a page whose button confirms (a mail scanner opening the link does
 * not subscribe anyone), valid until the date it gives, counted from the subscriber's confirmation_sent_at
 * like the purge of unconfirmed sign-ups. Null when the subscriber is gone, no longer waiting, or when the
 * link would already have expired (a job that ran too late: the purge forgets the sign-up).
 */
export async function confirmationEmail(
  subscriberId: string,
  now = new Date(),
): Promise<OutgoingMail | null> {
  const [subscriber] = await db()
    .select({
      email: blogNewsletterSubscribers.email,
      status: blogNewsletterSubscribers.status,
      confirmationSentAt: blogNewsletterSubscribers.confirmationSentAt,
      subscribedAt: blogNewsletterSubscribers.subscribedAt,
    })
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.id, subscriberId));
  if (!subscriber || subscriber.status !== "pending") return null;
  // The purge's own instant: coalesce(confirmation_sent_at, subscribed_at).
  const sentAt = subscriber.confirmationSentAt ?? subscriber.subscribedAt;
  const expiresAt = confirmationExpiresAt(sentAt);
  if (expiresAt.getTime() <= now.getTime()) return null;
  const validity = `Ce lien est valable jusqu'au ${formatLongDateTimeFr(expiresAt)}.`;
  const { brand } = (await readSiteContent()).documents.identity;
  const url = await confirmationUrl(subscriberId, sentAt);
  const subject = `Confirmez votre inscription à la newsletter ${ofName(brand)}`;
  const text = [
    "Bonjour,",
    "",
    `Vous (ou quelqu'un d'autre) avez demandé à recevoir la newsletter ${ofName(brand)} à l'adresse ${subscriber.email}.`,
    "Pour confirmer votre inscription, ouvrez ce lien puis cliquez sur «\u00a0Confirmer mon inscription\u00a0» :",
    "",
    url,
    "",
    `${validity} Si vous n'avez rien demandé, ignorez ce message : vous ne recevrez rien.`,
    "",
    `— ${brand}`,
  ].join("\n");
  const html = emailLayout({
    title: subject,
    brand,
    preheader: "Un clic pour confirmer votre adresse.",
    body: `<h1 style="font-size:22px;line-height:1.3;margin:16px 0">Confirmez votre inscription</h1>
<p style="margin:0 0 12px">Bonjour,</p>
<p style="margin:0 0 12px">Vous avez demandé à recevoir la newsletter ${escapeHtml(ofName(brand))} à l'adresse <strong>${escapeHtml(subscriber.email)}</strong>.</p>
${emailButton(url, "Confirmer mon inscription")}
<p style="margin:0 0 12px;font-size:14px">Le bouton ouvre une page de notre site : cliquez-y sur «&nbsp;Confirmer mon inscription&nbsp;» pour terminer.</p>
<p style="margin:0 0 12px;font-size:14px">Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :<br><a href="${escapeHtml(url)}" style="color:#9a3412;word-break:break-all">${escapeHtml(url)}</a></p>`,
    footer: `${escapeHtml(validity)} Si vous n'avez rien demandé, ignorez ce message : vous ne recevrez rien.`,
  });
  return { to: subscriber.email, subject, text, html };
}

/** The double opt-in link, to a pending subscriber (blog_newsletter_subscribers.id). */
export const enqueueConfirmationMail = defineMailKind<{ subscriberId: string }>("confirmation", {
  failureKind: "confirmation",
  compose: ({ subscriberId }) => confirmationEmail(subscriberId),
});
