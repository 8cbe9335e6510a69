import { desc } from "drizzle-orm";
import { db } from "../db/client.server";
import { blogNewsletterSubscribers } from "../db/schema";
import { formatDateTimeFr } from "~/lib/dates";

/** Every subscriber, newest first (SPEC §7). */
export function listSubscribersForAdmin() {
  return db()
    .select({
      id: blogNewsletterSubscribers.id,
      email: blogNewsletterSubscribers.email,
      subscribedAt: blogNewsletterSubscribers.subscribedAt,
      active: blogNewsletterSubscribers.active,
      consentSource: blogNewsletterSubscribers.consentSource,
    })
    .from(blogNewsletterSubscribers)
    .orderBy(desc(blogNewsletterSubscribers.subscribedAt), desc(blogNewsletterSubscribers.id));
}

export type AdminSubscriber = Awaited<ReturnType<typeof listSubscribersForAdmin>>[number];

/** SPEC §9: the active addresses only, joined by a comma and a space. */
export function activeEmailList(subscribers: Array<{ email: string; active: boolean }>): string {
  return subscribers
    .filter((subscriber) => subscriber.active)
    .map((subscriber) => subscriber.email)
    .join(", ");
}

/** One CSV cell: quoted, quotes doubled, and a leading formula character neutralised for spreadsheets. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The list as CSV (semicolons, as French spreadsheets expect), with a BOM so Excel reads UTF-8. */
export function subscribersCsv(subscribers: AdminSubscriber[]): string {
  const lines = [
    ["email", "date_inscription", "statut", "origine"].map(csvCell).join(";"),
    ...subscribers.map((subscriber) =>
      [
        subscriber.email,
        formatDateTimeFr(subscriber.subscribedAt),
        subscriber.active ? "actif" : "désabonné",
        subscriber.consentSource,
      ]
        .map(csvCell)
        .join(";"),
    ),
  ];
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
