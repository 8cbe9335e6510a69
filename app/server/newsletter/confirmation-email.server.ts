import { eq } from "drizzle-orm";
import { readSiteContent } from "../content/site-content.server";
import { db } from "../db/client.server";
import { blogNewsletterSubscribers } from "../db/schema";
import { emailButton, emailLayout, escapeHtml } from "../mail/layout.server";
import type { OutgoingMail } from "../mail/transport.server";
import { CONFIRMATION_LIFETIME_DAYS, confirmationUrl } from "./links.server";

/**
 * The double opt-in e-mail: one link to a page whose button confirms (a mail scanner opening the link does
 * not subscribe anyone). Null when the subscriber is gone or no longer waiting.
 */
export async function confirmationEmail(subscriberId: string): Promise<OutgoingMail | null> {
  const [subscriber] = await db()
    .select({ email: blogNewsletterSubscribers.email, status: blogNewsletterSubscribers.status })
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.id, subscriberId));
  if (!subscriber || subscriber.status !== "pending") return null;
  const { brand } = (await readSiteContent()).documents.identity;
  const url = await confirmationUrl(subscriberId);
  const subject = `Confirmez votre inscription à la newsletter de ${brand}`;
  const text = [
    "Bonjour,",
    "",
    `Vous (ou quelqu'un d'autre) avez demandé à recevoir la newsletter de ${brand} à l'adresse ${subscriber.email}.`,
    "Pour confirmer votre inscription, ouvrez ce lien puis cliquez sur «\u00a0Confirmer mon inscription\u00a0» :",
    "",
    url,
    "",
    `Ce lien est valable ${CONFIRMATION_LIFETIME_DAYS} jours. Si vous n'avez rien demandé, ignorez ce message : vous ne recevrez rien.`,
    "",
    `— ${brand}`,
  ].join("\n");
  const html = emailLayout({
    title: subject,
    brand,
    preheader: "Un clic pour confirmer votre adresse.",
    body: `<h1 style="font-size:22px;line-height:1.3;margin:16px 0">Confirmez votre inscription</h1>
<p style="margin:0 0 12px">Bonjour,</p>
<p style="margin:0 0 12px">Vous avez demandé à recevoir la newsletter de ${escapeHtml(brand)} à l'adresse <strong>${escapeHtml(subscriber.email)}</strong>.</p>
${emailButton(url, "Confirmer mon inscription")}
<p style="margin:0 0 12px;font-size:14px">Le bouton ouvre une page de notre site : cliquez-y sur «&nbsp;Confirmer mon inscription&nbsp;» pour terminer.</p>
<p style="margin:0 0 12px;font-size:14px">Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :<br><a href="${escapeHtml(url)}" style="color:#9a3412;word-break:break-all">${escapeHtml(url)}</a></p>`,
    footer: `Ce lien est valable ${CONFIRMATION_LIFETIME_DAYS} jours. Si vous n'avez rien demandé, ignorez ce message : vous ne recevrez rien.`,
  });
  return { to: subscriber.email, subject, text, html };
}
