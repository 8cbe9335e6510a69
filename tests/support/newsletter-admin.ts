import { randomBytes } from "node:crypto";
import { count as countRows, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { isoDayInParis } from "../../app/lib/dates";
import {
  blogArticles,
  blogNewsletterSubscribers,
  mailFailures,
  newsletterDeliveries,
  newsletterSendings,
} from "../../app/server/db/schema";
import { serverDatabase } from "./server-under-test";

export const DAY_MS = 24 * 60 * 60 * 1000;

/** A date as the owner writes it in an imported file: JJ/MM/AAAA, in Paris. */
export function frenchDay(date: Date): string {
  const [year, month, dayOfMonth] = isoDayInParis(date).split("-");
  return `${dayOfMonth}/${month}/${year}`;
}

/**
 * Subscribers of the test file on the suite's shared server: their addresses carry the file's marker, and
 * they are removed afterwards with the sendings and the sending errors that carry it too.
 */
export function useNewsletterRows() {
  const marker = randomBytes(4).toString("hex");
  const address = (name: string) => `${name}-${marker}@example.com`;

  afterAll(async () => {
    const database = serverDatabase();
    await database
      .delete(newsletterSendings)
      .where(like(newsletterSendings.subject, `%${marker}%`));
    await database.delete(mailFailures).where(like(mailFailures.recipient, `%${marker}%`));
    await database
      .delete(blogNewsletterSubscribers)
      .where(like(blogNewsletterSubscribers.email, `%${marker}%`));
  });

  /** Adds subscribers named `name` (their address: `address(name)`), confirmed 20 days ago. */
  function addSubscribers(
    rows: Array<{ name: string; status: "pending" | "active" | "unsubscribed" }>,
  ) {
    return serverDatabase()
      .insert(blogNewsletterSubscribers)
      .values(
        rows.map(({ name, status }) => ({
          email: address(name),
          status,
          consentSource: "blog",
          confirmedAt: status === "pending" ? null : new Date(Date.now() - 20 * DAY_MS),
          unsubscribedAt: status === "unsubscribed" ? new Date(Date.now() - 2 * DAY_MS) : null,
        })),
      )
      .returning();
  }

  const subscriberByEmail = async (email: string) =>
    (
      await serverDatabase()
        .select()
        .from(blogNewsletterSubscribers)
        .where(eq(blogNewsletterSubscribers.email, email))
    )[0];

  return { marker, address, addSubscribers, subscriberByEmail };
}

/**
 * The subscribers of a file that sends articles (on a server of its own: a sending goes to every active
 * subscriber): `count` active readers, one who has not confirmed and one who left, added before its tests.
 */
export function useNewsletterReaders(count: number) {
  const marker = randomBytes(4).toString("hex");
  const readers = Array.from(
    { length: count },
    (_, index) => `lecteur-${index}-${marker}@example.com`,
  );
  const waiting = `en-attente-${marker}@example.com`;
  const gone = `parti-${marker}@example.com`;
  let active = 0;
  beforeAll(async () => {
    const database = serverDatabase();
    await database
      .insert(blogNewsletterSubscribers)
      .values([
        ...readers.map((email) => ({ email, consentSource: "blog", status: "active" as const })),
        { email: waiting, consentSource: "blog", status: "pending" as const },
        { email: gone, consentSource: "blog", status: "unsubscribed" as const },
      ]);
    const [row] = await database
      .select({ count: countRows() })
      .from(blogNewsletterSubscribers)
      .where(eq(blogNewsletterSubscribers.status, "active"));
    active = row?.count ?? 0;
  });
  return {
    marker,
    readers,
    waiting,
    gone,
    /** Active subscribers in the database once they are added. */
    activeCount: () => active,
  };
}

/** The fields of an article named `name`: its title, address, excerpt and text carry `marker`. */
export function sampleArticle(
  name: string,
  marker: string,
  fields: { published: boolean; content?: string },
) {
  const words = name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  return {
    title: `${name} ${marker}`,
    slug: `${words.replace(/[^a-z]+/g, "-")}-${marker}`,
    excerpt: `L'extrait de « ${name} » ${marker}.`,
    content: fields.content ?? `<p>Texte complet de « ${name} » ${marker}.</p>`,
    published: fields.published,
  };
}

/** Adds an article written by « Claire » (published now when `published`), and returns its id. */
export async function addArticle(fields: {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  published: boolean;
  coverImageUrl?: string;
}): Promise<string> {
  const [row] = await serverDatabase()
    .insert(blogArticles)
    .values({ author: "Claire", publishedAt: fields.published ? new Date() : null, ...fields })
    .returning();
  return row?.id ?? "";
}

/** What a sending's page shows for an address the mail server refused. */
export const REFUSED_DELIVERY =
  "Adresse refusée par le serveur d'envoi (réponse du serveur : « 550 Boîte inconnue »).";

/** A sending under way to `emails` whose deliveries the test settles itself (no job carries them). */
export async function sendingUnderWay(subject: string, emails: string[]) {
  const database = serverDatabase();
  const [sending] = await database
    .insert(newsletterSendings)
    .values({ subject, html: "<p>x</p>", text: "x", total: emails.length })
    .returning();
  const id = sending?.id ?? "";
  const subscribers = await database
    .select({ id: blogNewsletterSubscribers.id, email: blogNewsletterSubscribers.email })
    .from(blogNewsletterSubscribers)
    .where(inArray(blogNewsletterSubscribers.email, emails));
  await database
    .insert(newsletterDeliveries)
    .values(
      subscribers.map((subscriber) => ({ sendingId: id, subscriberId: subscriber.id, batch: 0 })),
    );
  return {
    id,
    subscribers,
    /** The deliveries to these subscribers went out. */
    sent: (sentTo: typeof subscribers) =>
      database
        .update(newsletterDeliveries)
        .set({ status: "sent", sentAt: new Date(), attempts: 1 })
        .where(
          inArray(
            newsletterDeliveries.subscriberId,
            sentTo.map((subscriber) => subscriber.id),
          ),
        ),
    /** The mail server refused this subscriber's address, and the sending is over. */
    refusedThenDone: async (refused: (typeof subscribers)[number] | undefined) => {
      await database
        .update(newsletterDeliveries)
        .set({ status: "failed", attempts: 1, error: REFUSED_DELIVERY })
        .where(eq(newsletterDeliveries.subscriberId, refused?.id ?? ""));
      await database
        .update(newsletterSendings)
        .set({ status: "done", finishedAt: new Date() })
        .where(eq(newsletterSendings.id, id));
    },
  };
}
