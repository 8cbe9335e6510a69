import { ADMIN_PAGE_SIZE as SUBSCRIBERS_PAGE_SIZE, decodeCursor } from "../db/keyset.server";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_IMPORT_LINES } from "~/lib/subscriber-import";
import { useAppDatabase } from "../../../tests/support/database";
import { db } from "../db/client.server";
import {
  blogArticles,
  blogNewsletterSubscribers,
  mailFailures,
  newsletterDeliveries,
} from "../db/schema";
import { enqueueAdminMail } from "../admin/mailer.server";
import { createSending } from "./sending.server";
import { mailSettings, waitingMail } from "./overview.server";
import { importSubscribers, parseSubscriberCsv } from "./subscriber-import.server";
import {
  deleteSubscriber,
  subscriberCounts,
  subscriberPage,
  SUBSCRIBER_LIST_ORDER,
  unsubscribeSubscriber,
} from "./subscribers.server";

// The queue without workers: what is queued waits, as on a server without SMTP_URL.
useAppDatabase({ jobs: true });

const day = 24 * 60 * 60 * 1000;

async function subscriber(email: string, status: "pending" | "active" | "unsubscribed") {
  const [row] = await db()
    .insert(blogNewsletterSubscribers)
    .values({
      email,
      status,
      consentSource: "blog",
      consentText: "Formulaire du blog",
      confirmedAt: status === "pending" ? null : new Date(Date.now() - 10 * day),
      unsubscribedAt: status === "unsubscribed" ? new Date(Date.now() - 2 * day) : null,
    })
    .returning();
  if (!row) throw new Error("not inserted");
  return row;
}

const byEmail = async (emails: string[]) =>
  db()
    .select()
    .from(blogNewsletterSubscribers)
    .where(inArray(sql`lower(${blogNewsletterSubscribers.email})`, emails));

describe("importing subscribers", () => {
  it("adds the new addresses as active with their proof of consent, leaves the known ones, never re-subscribes", async () => {
    const existingActive = await subscriber("deja@import.test", "active");
    const existingPending = await subscriber("attente@import.test", "pending");
    const gone = await subscriber("parti@import.test", "unsubscribed");
    const csv = [
      "email;date_consentement",
      "nouvelle@import.test;05/01/2026",
      "Nouveau.Majuscules@Import.test;2026-01-06",
      "DEJA@import.test;05/01/2026",
      "attente@import.test;05/01/2026",
      "parti@import.test;05/01/2026",
      "pas-une-adresse;05/01/2026",
    ].join("\n");
    const parsed = parseSubscriberCsv(new TextEncoder().encode(csv), new Date("2026-01-15"));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.invalid).toHaveLength(1);

    const at = new Date("2026-01-15T09:30:00Z");
    const summary = await importSubscribers(parsed.rows, {
      adminEmail: "proprietaire@studio.test",
      fileName: "liste.csv",
      at,
    });
    expect(summary).toEqual({ added: 2, alreadyPresent: 2, unsubscribed: 1 });

    const added = await byEmail(["nouvelle@import.test", "nouveau.majuscules@import.test"]);
    expect(added).toHaveLength(2);
    for (const row of added) {
      expect(row).toMatchObject({
        status: "active",
        active: true,
        consentSource: "import",
        unsubscribedAt: null,
        consentText:
          "Import du 15/01/2026 10:30 par proprietaire@studio.test (fichier « liste.csv »), qui a attesté : « Ces personnes ont accepté de recevoir la newsletter ».",
      });
      // The consent date is the confirmation and the last known activity (the 18-month retention).
      expect(row.lastActivityAt).toEqual(row.confirmedAt);
    }
    expect(added.find((row) => row.email === "nouvelle@import.test")?.confirmedAt).toEqual(
      new Date("2026-01-04T23:00:00Z"),
    );
    expect(added.find((row) => row.email === "Nouveau.Majuscules@Import.test")).toBeDefined();

    // The known addresses are exactly as they were.
    const [active, pending, unsubscribed] = await Promise.all(
      [existingActive, existingPending, gone].map(
        async (row) =>
          (
            await db()
              .select()
              .from(blogNewsletterSubscribers)
              .where(eq(blogNewsletterSubscribers.id, row.id))
          )[0],
      ),
    );
    expect(active).toEqual(existingActive);
    expect(pending).toEqual(existingPending);
    expect(unsubscribed).toEqual(gone);

    // The same file again adds nothing.
    expect(
      await importSubscribers(parsed.rows, {
        adminEmail: "proprietaire@studio.test",
        fileName: "liste.csv",
        at,
      }),
    ).toEqual({ added: 0, alreadyPresent: 4, unsubscribed: 1 });
  });

  it("imports a file of 20,000 lines at once", async () => {
    const consent = new Date(Date.now() - 30 * day).toISOString().slice(0, 10);
    const lines = Array.from(
      { length: MAX_IMPORT_LINES },
      (_, index) => `personne-${index}@grand-fichier.test;${consent}`,
    );
    const bytes = new TextEncoder().encode(["email;date_consentement", ...lines].join("\n"));
    const parsed = parseSubscriberCsv(bytes);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(
      await importSubscribers(parsed.rows, { adminEmail: "a@studio.test", fileName: "grand.csv" }),
    ).toEqual({ added: MAX_IMPORT_LINES, alreadyPresent: 0, unsubscribed: 0 });
    const [stored] = (
      await db().execute<{ count: string }>(
        sql`select count(*) as count from blog_newsletter_subscribers where email like '%@grand-fichier.test' and status = 'active'`,
      )
    ).rows;
    expect(Number(stored?.count)).toBe(MAX_IMPORT_LINES);
    await db().execute(
      sql`delete from blog_newsletter_subscribers where email like '%@grand-fichier.test'`,
    );
  });

  it("adds nothing at all when the database refuses one address", async () => {
    const rows = [
      { line: 2, email: "premiere@tout-ou-rien.test", consentedAt: new Date() },
      // Longer than the column: PostgreSQL refuses the statement (the parser never lets it through).
      { line: 3, email: `${"x".repeat(300)}@tout-ou-rien.test`, consentedAt: new Date() },
    ];
    await expect(
      importSubscribers(rows, { adminEmail: "a@studio.test", fileName: "x.csv" }),
    ).rejects.toThrow();
    expect(await byEmail(["premiere@tout-ou-rien.test"])).toEqual([]);
  });
});

describe("the owner's actions on one subscriber", () => {
  it("unsubscribes an active or pending subscriber with the date, once", async () => {
    const active = await subscriber("actif@actions.test", "active");
    const pending = await subscriber("attente@actions.test", "pending");
    const before = Date.now();
    expect(await unsubscribeSubscriber(active.id)).toEqual({
      outcome: "unsubscribed",
      email: "actif@actions.test",
    });
    expect(await unsubscribeSubscriber(pending.id)).toMatchObject({ outcome: "unsubscribed" });
    const rows = await byEmail(["actif@actions.test", "attente@actions.test"]);
    for (const row of rows) {
      expect(row).toMatchObject({ status: "unsubscribed", active: false });
      expect(row.unsubscribedAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
    const firstDate = rows[0]?.unsubscribedAt;
    expect(await unsubscribeSubscriber(active.id)).toEqual({
      outcome: "already",
      email: "actif@actions.test",
    });
    const [again] = await byEmail([rows[0]?.email.toLowerCase() ?? ""]);
    expect(again?.unsubscribedAt).toEqual(firstDate);
    expect(await unsubscribeSubscriber("00000000-0000-4000-8000-000000000000")).toEqual({
      outcome: "missing",
    });
  });

  it("deletes a subscriber, even one a sending has delivered to (the delivery stays, anonymous)", async () => {
    const reader = await subscriber("lecteur@actions.test", "active");
    const [article] = await db()
      .insert(blogArticles)
      .values({
        title: "Article envoyé",
        slug: "article-envoye-actions",
        excerpt: "Extrait",
        content: "<p>Texte</p>",
        author: "Claire",
        published: true,
        publishedAt: new Date(),
      })
      .returning();
    const sending = await createSending({ articleId: article?.id ?? "", createdBy: null });
    expect(sending.kind).toBe("created");
    // What a mail server answered about the address, which quotes it.
    const answer =
      "Adresse refusée (réponse du serveur : « 452 <Lecteur@actions.test> boîte pleine »)";
    await db()
      .update(newsletterDeliveries)
      .set({ error: answer })
      .where(eq(newsletterDeliveries.subscriberId, reader.id));
    await db()
      .insert(mailFailures)
      .values([
        { kind: "newsletter", recipient: "Lecteur@actions.test", error: answer },
        { kind: "contact", recipient: "studio@actions.test", error: "Connexion impossible" },
      ]);
    expect(await deleteSubscriber(reader.id)).toEqual({ email: "lecteur@actions.test" });
    expect(await byEmail(["lecteur@actions.test"])).toEqual([]);
    const deliveries = await db().select().from(newsletterDeliveries);
    expect(deliveries.some((delivery) => delivery.subscriberId === null)).toBe(true);
    // Erased everywhere: no answer quoting the address is left, the others' stay.
    expect(deliveries.map((delivery) => delivery.error)).not.toContain(answer);
    expect((await db().select().from(mailFailures)).map((failure) => failure.recipient)).toEqual([
      "studio@actions.test",
    ]);
    expect(await deleteSubscriber(reader.id)).toBeNull();
  });
});

describe("the list and its counts", () => {
  it("counts each state and pages, filters and searches the list", async () => {
    const before = await subscriberCounts();
    await db()
      .insert(blogNewsletterSubscribers)
      .values(
        Array.from({ length: SUBSCRIBERS_PAGE_SIZE + 3 }, (_, index) => ({
          email: `liste-${index}@pages.test`,
          status: index % 3 === 0 ? ("pending" as const) : ("active" as const),
          consentSource: "blog",
          subscribedAt: new Date(Date.now() - index * 60_000),
        })),
      );
    await subscriber("cent%pour_cent@pages.test", "unsubscribed");
    const after = await subscriberCounts();
    expect(after.pending - before.pending).toBe(18);
    expect(after.active - before.active).toBe(35);
    expect(after.unsubscribed - before.unsubscribed).toBe(1);

    const first = await subscriberPage({ state: null, search: "@pages.test" }, null);
    expect(first).toMatchObject({ matching: SUBSCRIBERS_PAGE_SIZE + 4, previous: null });
    expect(first.rows).toHaveLength(SUBSCRIBERS_PAGE_SIZE);
    // Newest first.
    expect(first.rows.slice(0, 2).map((row) => row.email)).toEqual([
      "cent%pour_cent@pages.test",
      "liste-0@pages.test",
    ]);
    // The next page starts after the last row shown (decision 0130: keyset pages, not numbers).
    const second = await subscriberPage(
      { state: null, search: "@pages.test" },
      { after: decodeCursor(SUBSCRIBER_LIST_ORDER, first.next) ?? [] },
    );
    expect(second.rows.map((row) => row.email)).toEqual(
      [49, 50, 51, 52].map((index) => `liste-${index}@pages.test`),
    );
    expect(second.next).toBeNull();

    const pending = await subscriberPage({ state: "pending", search: "@PAGES.test" }, null);
    expect(pending.matching).toBe(18);
    expect(pending.rows.every((row) => row.status === "pending")).toBe(true);
    // % and _ are searched for as such.
    expect(
      (await subscriberPage({ state: null, search: "%pour_" }, null)).rows.map((row) => row.email),
    ).toEqual(["cent%pour_cent@pages.test"]);
    expect((await subscriberPage({ state: null, search: "e%t" }, null)).matching).toBe(0);
  });
});

describe("the mail settings and the queue", () => {
  it("without SMTP_URL: e-mail is off, the site's address sends, and what is queued waits and is counted", async () => {
    const settings = await mailSettings({
      SMTP_URL: undefined,
      SMTP_FROM: undefined,
      DKIM_DOMAIN: undefined,
      DKIM_SELECTOR: undefined,
      MAIL_RATE_PER_MINUTE: 300,
    });
    expect(settings).toMatchObject({
      enabled: false,
      server: null,
      senderFromEnvironment: false,
      dkim: null,
      ratePerMinute: 300,
    });
    expect(settings.sender).toMatch(/^.+ <[^>]+@[^>]+>$/);

    const start = await waitingMail();
    await enqueueAdminMail({
      mail: { to: "a@studio.test", subject: "Lien", text: "Bonjour" },
    });
    await enqueueAdminMail({
      mail: { to: "b@studio.test", subject: "Lien", text: "Bonjour" },
    });
    const active = (await subscriberCounts()).active;
    const [article] = await db()
      .insert(blogArticles)
      .values({
        title: "Article en attente",
        slug: "article-en-attente-file",
        excerpt: "Extrait",
        content: "<p>Texte</p>",
        author: "Claire",
        published: true,
        publishedAt: new Date(),
      })
      .returning();
    expect(await createSending({ articleId: article?.id ?? "", createdBy: null })).toMatchObject({
      kind: "created",
      total: active,
    });
    const waiting = await waitingMail();
    expect(waiting.messages - start.messages).toBe(2);
    expect(waiting.newsletterEmails - start.newsletterEmails).toBe(active);
    expect(waiting.newsletterBatches - start.newsletterBatches).toBeGreaterThanOrEqual(1);
  });

  it("with SMTP_URL: the server without its password, the sender, DKIM's domain and selector", async () => {
    const settings = await mailSettings({
      SMTP_URL: "smtps://utilisateur:secret@smtp.example.fr",
      SMTP_FROM: "Studio <contact@example.fr>",
      DKIM_DOMAIN: "example.fr",
      DKIM_SELECTOR: "studio2026",
      MAIL_RATE_PER_MINUTE: 1200,
    });
    expect(settings).toEqual({
      enabled: true,
      server: "smtp.example.fr:465",
      secure: true,
      sender: "Studio <contact@example.fr>",
      senderFromEnvironment: true,
      dkim: { domain: "example.fr", selector: "studio2026" },
      ratePerMinute: 1200,
    });
    expect(JSON.stringify(settings)).not.toContain("secret");
    expect(
      (await mailSettings({ SMTP_URL: "smtp://smtp.example.fr", MAIL_RATE_PER_MINUTE: 300 }))
        .server,
    ).toBe("smtp.example.fr:587");
  });
});
