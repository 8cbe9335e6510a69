import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { ArticleDraftInput, ArticleInput } from "~/lib/admin-schemas";
import { db } from "../db/client.server";
import { blogArticles, blogCategories, newsletterSendings } from "../db/schema";
import type { CreateSendingOutcome } from "../newsletter/sending.server";
import { sanitizeArticleHtml } from "../sanitize.server";
import { enqueuePublication, sendIfAsked } from "../scheduled-publishing.server";

/**
 * The date an article is listed by on the dashboard, the one its row leads with: its publication when
 * published, its scheduled publication when scheduled, else its creation. Ordering by creation alone (SPEC
 * §7) put rows out of order by the dates they show (issue 24).
 */
const listedAt = sql`case when ${blogArticles.published}
  then coalesce(${blogArticles.publishedAt}, ${blogArticles.createdAt})
  else coalesce(${blogArticles.scheduledAt}, ${blogArticles.createdAt}) end`;

/** The dashboard's list: every article, drafts included, newest first by the date each row leads with. */
export function listArticlesForAdmin() {
  return db()
    .select({
      id: blogArticles.id,
      title: blogArticles.title,
      slug: blogArticles.slug,
      published: blogArticles.published,
      publishedAt: blogArticles.publishedAt,
      viewCount: blogArticles.viewCount,
      createdAt: blogArticles.createdAt,
      scheduledAt: blogArticles.scheduledAt,
      newsletterOnPublish: blogArticles.newsletterOnPublish,
      /** A draft the sweep cannot publish: its autosave emptied the excerpt or the content. */
      incomplete: sql<boolean>`${blogArticles.excerpt} = '' or ${blogArticles.content} = ''`,
      categoryName: blogCategories.name,
      sending: { id: newsletterSendings.id, createdAt: newsletterSendings.createdAt },
    })
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .leftJoin(newsletterSendings, eq(newsletterSendings.articleId, blogArticles.id))
    .orderBy(desc(listedAt), desc(blogArticles.createdAt), desc(blogArticles.id));
}

/** The newsletter sending of an article (at most one), or null when it was never sent. */
export async function getArticleSending(articleId: string) {
  const [sending] = await db()
    .select({ id: newsletterSendings.id, createdAt: newsletterSendings.createdAt })
    .from(newsletterSendings)
    .where(eq(newsletterSendings.articleId, articleId));
  return sending ?? null;
}

/** The columns that publish an article; the first publication sets the date, later ones keep it. */
const publication = () => ({
  published: true,
  publishedAt: sql`coalesce(${blogArticles.publishedAt}, now())`,
});

/**
 * Publishes or unpublishes; publishing now replaces a scheduled time, and sends the newsletter the owner
 * asked for at publication (same transaction). An autosaved draft may still lack its excerpt or content:
 * it cannot be published until the form has them (null, as for an unknown id).
 */
export async function setArticlePublished(
  id: string,
  published: boolean,
  { by = null }: { by?: string | null } = {},
): Promise<{ sending: CreateSendingOutcome | null } | null> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(blogArticles)
      .set({
        ...(published ? { ...publication(), scheduledAt: null } : { published: false }),
        updatedAt: new Date(),
      })
      .where(
        published
          ? and(eq(blogArticles.id, id), ne(blogArticles.excerpt, ""), ne(blogArticles.content, ""))
          : eq(blogArticles.id, id),
      )
      .returning({ id: blogArticles.id, newsletterOnPublish: blogArticles.newsletterOnPublish });
    if (!row) return null;
    return { sending: published ? await sendIfAsked(row, by, tx) : null };
  });
}

export async function deleteArticle(id: string): Promise<boolean> {
  const rows = await db()
    .delete(blogArticles)
    .where(eq(blogArticles.id, id))
    .returning({ id: blogArticles.id });
  return rows.length > 0;
}

export async function getArticleForAdmin(id: string) {
  const [article] = await db()
    .select({
      article: blogArticles,
      category: { id: blogCategories.id, name: blogCategories.name, slug: blogCategories.slug },
    })
    .from(blogArticles)
    .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
    .where(eq(blogArticles.id, id))
    .limit(1);
  if (!article) return null;
  return { ...article.article, category: article.category?.id ? article.category : null };
}

export type AdminArticle = NonNullable<Awaited<ReturnType<typeof getArticleForAdmin>>>;

/** Categories for the article form's select, by name. */
export function listCategoryOptions() {
  return db()
    .select({ id: blogCategories.id, name: blogCategories.name })
    .from(blogCategories)
    .orderBy(asc(blogCategories.name));
}

export class SlugTakenError extends Error {
  override name = "SlugTakenError";
}
export class UnknownCategoryError extends Error {
  override name = "UnknownCategoryError";
}

function values(input: ArticleInput | ArticleDraftInput) {
  return {
    title: input.title,
    slug: input.slug,
    excerpt: input.excerpt,
    content: sanitizeArticleHtml(input.content),
    author: input.author,
    categoryId: input.category_id,
    coverImageUrl: input.cover_image_url,
    coverFocalX: input.cover_focal_x,
    coverFocalY: input.cover_focal_y,
    seoImageUrl: input.seo_image_url,
    seoTitle: input.seo_title,
    seoDescription: input.seo_description,
  };
}

function translateConstraintError(error: unknown): never {
  const cause = (error as { cause?: { code?: string; constraint?: string } }).cause;
  if (cause?.code === "23505" && cause.constraint === "blog_articles_slug_unique") {
    throw new SlugTakenError("slug déjà utilisé", { cause: error });
  }
  if (
    cause?.code === "23503" &&
    cause.constraint === "blog_articles_category_id_blog_categories_id_fk"
  ) {
    throw new UnknownCategoryError("catégorie inconnue", { cause: error });
  }
  // Anything else (the newsletter's writes of a publication included) is a failure, not a field's fault.
  throw error;
}

/** What saving the article form did, for the owner's message. */
export type SavedArticle = {
  id: string;
  /** The scheduled publication now planned (a draft's), or null. */
  scheduledAt: Date | null;
  /** A scheduled publication was cancelled by this save. */
  unscheduled: boolean;
  /** The newsletter sent on publication (« Publier » with the box ticked), or null. */
  sending: CreateSendingOutcome | null;
};

type SaveOptions = { publish?: boolean; by?: string | null };

/**
 * New articles start as drafts unless the owner chose 'Publier'. A draft may be scheduled: its time and
 * the job that publishes it are one write.
 */
export async function createArticle(
  input: ArticleInput,
  { publish = false, by = null }: SaveOptions = {},
): Promise<SavedArticle> {
  try {
    return await db().transaction(async (tx) => {
      const scheduledAt = publish ? null : input.scheduled_at;
      const [row] = await tx
        .insert(blogArticles)
        .values({
          ...values(input),
          published: publish,
          publishedAt: publish ? new Date() : null,
          scheduledAt,
          newsletterOnPublish: input.newsletter_on_publish,
        })
        .returning({ id: blogArticles.id, newsletterOnPublish: blogArticles.newsletterOnPublish });
      if (!row) throw new Error("insert returned nothing");
      if (scheduledAt) await enqueuePublication(scheduledAt, tx);
      const sending = publish ? await sendIfAsked(row, by, tx) : null;
      return { id: row.id, scheduledAt, unscheduled: false, sending };
    });
  } catch (error) {
    translateConstraintError(error);
  }
}

/**
 * Saves the form over article `id` (null when there is none). A draft's publication time is stored,
 * changed or cleared with the job for the new time in the same transaction (a job of an older time finds
 * nothing due when it runs); publishing (now, or a published article's save) clears it.
 */
export async function updateArticle(
  id: string,
  input: ArticleInput,
  { publish = false, by = null }: SaveOptions = {},
): Promise<SavedArticle | null> {
  try {
    return await db().transaction(async (tx) => {
      // Locked: the scheduled publication waits for this save (or this save for it).
      const [before] = await tx
        .select({ published: blogArticles.published, scheduledAt: blogArticles.scheduledAt })
        .from(blogArticles)
        .where(eq(blogArticles.id, id))
        .for("update");
      if (!before) return null;
      const draft = !before.published && !publish;
      const scheduledAt = draft ? input.scheduled_at : null;
      const [row] = await tx
        .update(blogArticles)
        .set({
          ...values(input),
          ...(publish ? publication() : {}),
          scheduledAt,
          // A published article's form has no such box: its choice stays what it was.
          ...(before.published ? {} : { newsletterOnPublish: input.newsletter_on_publish }),
          updatedAt: new Date(),
        })
        .where(eq(blogArticles.id, id))
        .returning({ id: blogArticles.id, newsletterOnPublish: blogArticles.newsletterOnPublish });
      if (!row) return null;
      if (scheduledAt && scheduledAt.getTime() !== before.scheduledAt?.getTime()) {
        await enqueuePublication(scheduledAt, tx);
      }
      const sending = publish && !before.published ? await sendIfAsked(row, by, tx) : null;
      return {
        id,
        scheduledAt,
        unscheduled: before.scheduledAt !== null && scheduledAt === null,
        sending,
      };
    });
  } catch (error) {
    translateConstraintError(error);
  }
}

export class ArticlePublishedError extends Error {
  override name = "ArticlePublishedError";
}

/**
 * The autosave of a draft: creates it (id null) or updates it, never publishes. A published article is
 * never autosaved (its changes would go live unreviewed): ArticlePublishedError. Returns the id, or null
 * for an unknown id.
 */
export async function saveDraft(id: string | null, input: ArticleDraftInput) {
  try {
    if (id === null) {
      const [row] = await db()
        .insert(blogArticles)
        .values({ ...values(input), published: false })
        .returning({ id: blogArticles.id, updatedAt: blogArticles.updatedAt });
      if (!row) throw new Error("insert returned nothing");
      return row;
    }
    const [row] = await db()
      .update(blogArticles)
      .set({ ...values(input), updatedAt: new Date() })
      .where(and(eq(blogArticles.id, id), eq(blogArticles.published, false)))
      .returning({ id: blogArticles.id, updatedAt: blogArticles.updatedAt });
    if (row) return row;
    const [existing] = await db()
      .select({ id: blogArticles.id })
      .from(blogArticles)
      .where(eq(blogArticles.id, id));
    if (existing) throw new ArticlePublishedError("article publié");
    return null;
  } catch (error) {
    if (error instanceof ArticlePublishedError) throw error;
    translateConstraintError(error);
  }
}
