import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { articleInput } from "../../../tests/support/article-input";
import { useAppDatabase } from "../../../tests/support/database";
import {
  createArticle,
  setArticlePublished,
  SlugTakenError,
  updateArticle,
} from "./admin-articles.server";
import { setClockForTests } from "../clock.server";
import { db } from "../db/client.server";
import {
  blogArticles,
  blogNewsletterSubscribers,
  newsletterDeliveries,
  newsletterSendings,
} from "../db/schema";
import { startWorkers } from "../boot/jobs.server";
import { publishDueArticles } from "./scheduled-publishing.server";

useAppDatabase({ jobs: true });

const SUBSCRIBERS = 3;

beforeAll(async () => {
  await db()
    .insert(blogNewsletterSubscribers)
    .values([
      ...Array.from({ length: SUBSCRIBERS }, (_, index) => ({
        email: `abonne-${index}@example.com`,
        consentSource: "blog",
        status: "active" as const,
      })),
      { email: "en-attente@example.com", consentSource: "blog", status: "pending" as const },
    ]);
});

afterEach(() => setClockForTests(null));

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000);
const unique = () => randomBytes(4).toString("hex");

const input = articleInput;

/** A draft as stored, its time possibly already past (the form would refuse it; the clock moves on). */
async function draft(values: Partial<typeof blogArticles.$inferInsert> = {}) {
  const marker = unique();
  const [row] = await db()
    .insert(blogArticles)
    .values({
      title: `Brouillon ${marker}`,
      slug: `brouillon-${marker}`,
      excerpt: "Un extrait.",
      content: "<p>Un texte.</p>",
      author: "Claire",
      ...values,
    })
    .returning();
  if (!row) throw new Error("no article");
  return row;
}

async function article(id: string) {
  const [row] = await db().select().from(blogArticles).where(eq(blogArticles.id, id));
  if (!row) throw new Error(`no article ${id}`);
  return row;
}

async function contentVersion(): Promise<number> {
  const result = await db().execute<{ version: string }>(sql`select version from content_version`);
  return Number(result.rows[0]?.version);
}

async function sendingsOf(articleId: string) {
  return db().select().from(newsletterSendings).where(eq(newsletterSendings.articleId, articleId));
}

/** The publication jobs waiting in the queue, by the time they start. */
async function publicationJobs(): Promise<Date[]> {
  const result = await db().execute<{ start_after: Date }>(
    sql`select start_after from pgboss.job where name = 'publish' and state = 'created' order by start_after`,
  );
  return result.rows.map((row) => new Date(row.start_after));
}

describe("publishDueArticles", () => {
  it("publishes the drafts whose time has come, dated from that time, and no other", async () => {
    const scheduledAt = new Date(Date.now() - 90_000);
    const due = await draft({ scheduledAt });
    const later = await draft({ scheduledAt: inSeconds(3600) });
    const plain = await draft();
    // Its autosave emptied the content: it waits, as « Publier » would refuse it.
    const incomplete = await draft({ scheduledAt, content: "" });
    const versionBefore = await contentVersion();

    expect(await publishDueArticles()).toEqual([due.id]);

    expect(await article(due.id)).toMatchObject({
      published: true,
      publishedAt: scheduledAt,
      scheduledAt: null,
    });
    expect(await contentVersion()).toBeGreaterThan(versionBefore);
    expect(await article(later.id)).toMatchObject({ published: false, publishedAt: null });
    expect((await article(later.id)).scheduledAt).toBeInstanceOf(Date);
    expect(await article(plain.id)).toMatchObject({ published: false });
    expect(await article(incomplete.id)).toMatchObject({ published: false, scheduledAt });
    // Without the newsletter box, nothing is sent.
    expect(await sendingsOf(due.id)).toEqual([]);

    // Nothing is due any more: the version stays, nothing is published twice.
    const versionAfter = await contentVersion();
    expect(await publishDueArticles()).toEqual([]);
    expect(await contentVersion()).toBe(versionAfter);
    await db().delete(blogArticles).where(eq(blogArticles.id, incomplete.id));
  });

  it("publishes a draft once the server's clock reaches its time, without waiting for that time", async () => {
    const scheduledAt = new Date(Math.ceil(inSeconds(30).getTime() / 1000) * 1000);
    const soon = await draft({ scheduledAt });
    expect(await publishDueArticles()).toEqual([]);

    setClockForTests(scheduledAt);
    expect(await publishDueArticles()).toEqual([soon.id]);
    expect(await article(soon.id)).toMatchObject({ published: true, publishedAt: scheduledAt });
  });

  it("sends the newsletter asked for in the publishing transaction: one sending to the active subscribers", async () => {
    const due = await draft({
      scheduledAt: new Date(Date.now() - 1000),
      newsletterOnPublish: true,
    });
    expect(await publishDueArticles()).toEqual([due.id]);
    const [sending, ...others] = await sendingsOf(due.id);
    expect(others).toEqual([]);
    expect(sending).toMatchObject({ total: SUBSCRIBERS, status: "sending" });
    const deliveries = await db()
      .select()
      .from(newsletterDeliveries)
      .where(eq(newsletterDeliveries.sendingId, sending?.id ?? ""));
    expect(deliveries).toHaveLength(SUBSCRIBERS);
    const jobs = await db().execute<{ count: string }>(
      sql`select count(*) from pgboss.job where name = 'newsletter' and data->>'sendingId' = ${sending?.id ?? ""}`,
    );
    expect(Number(jobs.rows[0]?.count)).toBeGreaterThan(0);
  });

  it("two sweeps at once publish each article once and create one sending", async () => {
    for (let round = 0; round < 5; round++) {
      const articles = await Promise.all(
        Array.from({ length: 3 }, () =>
          draft({ scheduledAt: new Date(Date.now() - 1000), newsletterOnPublish: true }),
        ),
      );
      const [first, second] = await Promise.all([publishDueArticles(), publishDueArticles()]);
      const published = [...first, ...second].sort();
      expect(published).toEqual(articles.map((row) => row.id).sort());
      for (const row of articles) {
        expect(await sendingsOf(row.id)).toHaveLength(1);
        expect(await article(row.id)).toMatchObject({ published: true, scheduledAt: null });
      }
    }
  });

  it("the sweep and « Publier » at once: published once, one sending", async () => {
    for (let round = 0; round < 5; round++) {
      const row = await draft({
        scheduledAt: new Date(Date.now() - 1000),
        newsletterOnPublish: true,
      });
      const [swept, clicked] = await Promise.all([
        publishDueArticles(),
        setArticlePublished(row.id, true, { by: null }),
      ]);
      expect(clicked).not.toBeNull();
      expect(await sendingsOf(row.id)).toHaveLength(1);
      const stored = await article(row.id);
      expect(stored).toMatchObject({ published: true, scheduledAt: null });
      // Whoever came first published it and created the sending; the other found it done.
      expect(swept.length + (clicked?.sending?.kind === "created" ? 1 : 0)).toBe(1);
    }
  });
});

describe("scheduling from the article form", () => {
  it("stores the time and its publication job in one transaction", async () => {
    const at = inSeconds(3600);
    const jobsBefore = await publicationJobs();
    const saved = await createArticle(input({ scheduled_at: at, newsletter_on_publish: true }));
    expect(saved).toMatchObject({ scheduledAt: at, unscheduled: false, sending: null });
    expect(await article(saved.id)).toMatchObject({
      published: false,
      scheduledAt: at,
      newsletterOnPublish: true,
    });
    const jobsAfter = await publicationJobs();
    expect(jobsAfter).toHaveLength(jobsBefore.length + 1);
    expect(jobsAfter.map((date) => date.getTime())).toContain(at.getTime());

    // A refused save (slug in use) leaves no job behind.
    const taken = (await article(saved.id)).slug;
    await expect(
      createArticle(input({ slug: taken, scheduled_at: inSeconds(7200) })),
    ).rejects.toBeInstanceOf(SlugTakenError);
    expect(await publicationJobs()).toHaveLength(jobsAfter.length);

    // Saving again at the same time adds no second job.
    await updateArticle(saved.id, input({ slug: taken, scheduled_at: at }));
    expect(await publicationJobs()).toHaveLength(jobsAfter.length);
  });

  it("unscheduling and rescheduling: the older time's job finds nothing due", async () => {
    const unscheduled = await createArticle(input({ scheduled_at: inSeconds(1.5) }));
    const cleared = await updateArticle(unscheduled.id, input({ scheduled_at: null }));
    expect(cleared).toMatchObject({ scheduledAt: null, unscheduled: true });

    const rescheduled = await createArticle(input({ scheduled_at: inSeconds(1.5) }));
    const later = inSeconds(3600);
    expect(await updateArticle(rescheduled.id, input({ scheduled_at: later }))).toMatchObject({
      scheduledAt: later,
      unscheduled: false,
    });

    // The first times pass (the server's clock moved a minute on, decision 0146): nothing is due.
    setClockForTests(inSeconds(60));
    expect(await publishDueArticles()).toEqual([]);
    expect(await article(unscheduled.id)).toMatchObject({ published: false, scheduledAt: null });
    expect(await article(rescheduled.id)).toMatchObject({ published: false, scheduledAt: later });
  });

  it("« Publier » publishes now, clears the time and sends when the box is ticked", async () => {
    const scheduled = await createArticle(
      input({ scheduled_at: inSeconds(3600), newsletter_on_publish: true }),
    );
    const before = Date.now();
    const published = await updateArticle(
      scheduled.id,
      input({ scheduled_at: inSeconds(3600), newsletter_on_publish: true, intent: "publish" }),
      { publish: true, by: null },
    );
    expect(published).toMatchObject({
      scheduledAt: null,
      unscheduled: true,
      sending: { kind: "created", total: SUBSCRIBERS },
    });
    const stored = await article(scheduled.id);
    expect(stored).toMatchObject({ published: true, scheduledAt: null });
    expect(stored.publishedAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);

    // Saved again once published (a published article's form has no scheduling): nothing planned, not sent twice.
    expect(
      await updateArticle(scheduled.id, input({ scheduled_at: inSeconds(60) }), { publish: false }),
    ).toMatchObject({ scheduledAt: null, sending: null });
    expect(await article(scheduled.id)).toMatchObject({
      scheduledAt: null,
      newsletterOnPublish: true,
    });
    expect(await sendingsOf(scheduled.id)).toHaveLength(1);

    // The dashboard's « Publier » replaces a scheduled time too; without the box, nothing is sent.
    const other = await createArticle(input({ scheduled_at: inSeconds(3600) }));
    expect(await setArticlePublished(other.id, true)).toEqual({ sending: null });
    expect(await article(other.id)).toMatchObject({ published: true, scheduledAt: null });
    expect(await sendingsOf(other.id)).toEqual([]);
  });
});

describe("the job queue publishes at the scheduled time", () => {
  it("publishes a draft a few seconds after its time, with no sweep called by hand", async () => {
    await startWorkers({ mail: null });
    const at = inSeconds(2);
    const saved = await createArticle(input({ scheduled_at: at }));
    await expect
      .poll(async () => (await article(saved.id)).published, { timeout: 15_000, interval: 250 })
      .toBe(true);
    expect(await article(saved.id)).toMatchObject({ publishedAt: at, scheduledAt: null });
  });
});
