/*
 * Words of the admin's newsletter pages (the overview and the subscriber list), shared by the pages and the
 * server modules that write the same words (the CSV export).
 */

/** A subscriber's state (the `status` column; SPEC's `active` is 'active'). */
export type SubscriberState = "pending" | "active" | "unsubscribed";

/** Each state as the list shows it (SPEC: 'Actif', 'Désabonné'). */
export const subscriberStateLabels: Record<SubscriberState, string> = {
  pending: "En attente",
  active: "Actif",
  unsubscribed: "Désabonné",
};

/** The list's filter by state, as it reads in the address (`?statut=actifs`). */
export const subscriberStateFilters = {
  "en-attente": "pending",
  actifs: "active",
  desabonnes: "unsubscribed",
} as const satisfies Record<string, SubscriberState>;

export type SubscriberStateFilter = keyof typeof subscriberStateFilters;

/** The filter of the address's `statut`, or null for every state (an unknown value means every state). */
export function stateFilter(value: string | null): SubscriberStateFilter | null {
  return value !== null && Object.hasOwn(subscriberStateFilters, value)
    ? (value as SubscriberStateFilter)
    : null;
}

/** The kinds of e-mail the queue sends, as the owner reads them among the sending errors. */
const mailKindLabels: Record<string, string> = {
  newsletter: "Newsletter",
  "newsletter-test": "Test de newsletter",
  confirmation: "Confirmation d'inscription",
  contact: "Message de contact",
  admin: "Lien d'administration",
  gallery: "Galerie client",
  booking: "Réservation",
};

export function mailKindLabel(kind: string): string {
  return mailKindLabels[kind] ?? kind;
}

/** A count as French readers write it: « 20 000 ». */
export function formatCount(count: number): string {
  return count.toLocaleString("fr-FR");
}

/** « 1 e-mail », « 300 e-mails ». */
export function emailCount(count: number): string {
  return `${formatCount(count)} e-mail${count > 1 ? "s" : ""}`;
}

/** « 1 abonné », « 300 abonnés » (the send page and its toasts). */
export function subscribers(count: number): string {
  return `${count} abonné${count > 1 ? "s" : ""}`;
}

/** The sending pace: « 300 e-mails par minute ». */
export function ratePerMinute(rate: number): string {
  return `${emailCount(rate)} par minute`;
}

/** The mail settings of the server, as /admin/newsletter shows them (never a password nor the DKIM key). */
export type MailSettings = {
  /** SMTP_URL is set: the workers send. Without it, e-mails wait in the queue. */
  enabled: boolean;
  /** The mail server as `host:port`, without user name or password; null when e-mail is off. */
  server: string | null;
  /** smtps:// (TLS from the first byte) rather than smtp:// (STARTTLS when the server offers it). */
  secure: boolean;
  /** The From of every e-mail: SMTP_FROM, else the site's brand and general address. */
  sender: string;
  senderFromEnvironment: boolean;
  /** DKIM signing: its domain and selector. */
  dkim: { domain: string; selector: string } | null;
  ratePerMinute: number;
};

/** What waits in the job queue. */
export type WaitingMail = {
  /** Jobs of the queue `mail` not sent yet (created, or failed and to be tried again): one e-mail each. */
  messages: number;
  /** Jobs of the queue `newsletter` not sent yet: one batch of a sending's deliveries each. */
  newsletterBatches: number;
  /** The newsletter e-mails not sent yet (deliveries still pending). */
  newsletterEmails: number;
};
