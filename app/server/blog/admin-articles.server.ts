import { and, asc, count, desc, eq, gt, isNotNull, ne, sql, type SQL } from "drizzle-orm";
import { type ArticleDraftInput, type ArticleInput, LIMITS } from "~/lib/admin-schemas";
import {
  ARTICLE_REVISION_FIELDS,
  type ArticleRevisionData,
  articleSubject,
} from "~/lib/article-revision";
import { formatLongDateTimeFr } from "~/lib/dates";
import type { Author } from "../content/content-store.server";
import { db } from "../db/client.server";
import { blogArticles, blogCategories, contentRevisions, newsletterSendings } from "../db/schema";
import type { CreateSendingOutcome } from "../newsletter/sending.server";
import { sanitizeArticleHtml } from "../sanitize.server";
import { enqueuePublication, sendIfAsked } from "./scheduled-publishing.server";
import {
  cursorColumn,
  keysetPage,
  likePattern,
  type KeysetOrder,
  type PagePosition,
} from "../db/keyset.server";

/**
 * The date an article is listed by on the dashboard, the one its row leads with: its publication when
 * published, its scheduled publication when scheduled, else its creation. Ordering by creation alone (SPEC
 * §7) put rows out of order by the dates they show.
 */
const listedAt = sql`case when ${blogArticles.published}
  then coalesce(${blogArticles.publishedAt}, ${blogArticles.createdAt})
  else coalesce(${blogArticles.scheduledAt}, ${blogArticles.createdAt}) end`;

/** The dashboard's order: newest first by the date each row leads with, the id breaking ties. */
export const ARTICLE_LIST_ORDER: KeysetOrder = {
  keys: [
    { expression: listedAt, type: "timestamptz" },
    { expression: blogArticles.createdAt, type: "timestamptz" },
    { expression: blogArticles.id, type: "uuid" },
  ],
  direction: "desc",
};

/** The dashboard's filters (its query string): `publies`, `brouillons` (scheduled ones included). */
export const ARTICLE_STATE_FILTERS = { publies: true, brouillons: false } as const;
export type ArticleStateFilter = keyof typeof ARTICLE_STATE_FILTERS;

export type ArticleListFilters = { search: string; state: ArticleStateFilter | null };

function articleFilters({ search, state }: ArticleListFilters): SQL[] {
  const conditions: SQL[] = [];
  if (state) conditions.push(eq(blogArticles.published, ARTICLE_STATE_FILTERS[state]));
  if (search) conditions.push(sql`${blogArticles.title} ilike ${likePattern(search)}`);
  return conditions;
}

/**
 * One page of the dashboard's list (drafts included), newest first by the date each row leads with:
 * a page, never every article (decision 0130).
 */
export function listArticlesForAdmin(filters: ArticleListFilters, position: PagePosition) {
  return keysetPage(ARTICLE_LIST_ORDER, position, ({ where, orderBy, limit }) =>
    db()
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
        cursor: cursorColumn(ARTICLE_LIST_ORDER),
      })
      .from(blogArticles)
      .leftJoin(blogCategories, eq(blogArticles.categoryId, blogCategories.id))
      .leftJoin(newsletterSendings, eq(newsletterSendings.articleId, blogArticles.id))
      .where(and(...articleFilters(filters), where))
      .orderBy(...orderBy)
      .limit(limit),
  );
}

/** The dashboard's cards, counted by the database: every article and the published ones. */
export async function articleCounts(): Promise<{ total: number; published: number }> {
  const [row] = await db()
    .select({
      total: count(),
      published: sql<number>`(count(*) filter (where ${blogArticles.published}))::int`,
    })
    .from(blogArticles);
  return row ?? { total: 0, published: 0 };
}

/** How many articles the dashboard's search and filter match. */
export async function countArticles(filters: ArticleListFilters): Promise<number> {
  const [row] = await db()
    .select({ count: count() })
    .from(blogArticles)
    .where(and(...articleFilters(filters)));
  return row?.count ?? 0;
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

type Database = Pick<ReturnType<typeof db>, "select">;

/**
 * The address a new article gets when `slug` is already held by a draft the autosave left unfinished (no
 * one chose that address by hand): the next free `slug-2`, `slug-3`… An address held by an article saved
 * by hand stays refused (SlugTakenError), as before.
 */
async function slugFreeOfAutosavedDrafts(
  database: Database,
  slug: string,
  exceptId: string | null,
): Promise<string> {
  const holderOf = async (candidate: string) => {
    const [holder] = await database
      .select({ id: blogArticles.id, autosaved: isNotNull(blogArticles.autosaveSession) })
      .from(blogArticles)
      .where(eq(blogArticles.slug, candidate));
    return holder && holder.id !== exceptId ? holder : null;
  };
  const holder = await holderOf(slug);
  if (!holder?.autosaved) return slug;
  for (let number = 2; ; number += 1) {
    const suffix = `-${number}`;
    const candidate = `${slug.slice(0, LIMITS.slug - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!(await holderOf(candidate))) return candidate;
  }
}

/** How long an unfinished autosaved draft is offered on « Nouvel article ». */
const UNFINISHED_DRAFT_DAYS = 7;

/**
 * The drafts `adminId`'s autosave created on « Nouvel article » and she never saved with the form's
 * buttons, changed in the last week, newest first: what the page offers to resume.
 */
export function listUnfinishedDrafts(adminId: string) {
  return db()
    .select({ id: blogArticles.id, title: blogArticles.title, updatedAt: blogArticles.updatedAt })
    .from(blogArticles)
    .where(
      and(
        eq(blogArticles.autosavedBy, adminId),
        isNotNull(blogArticles.autosaveSession),
        eq(blogArticles.published, false),
        gt(blogArticles.updatedAt, sql`now() - make_interval(days => ${UNFINISHED_DRAFT_DAYS})`),
      ),
    )
    .orderBy(desc(blogArticles.updatedAt))
    .limit(3);
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
  /** The address saved, when it is not the one typed (an unfinished autosaved draft held it). */
  movedToSlug: string | null;
};

type SaveOptions = {
  publish?: boolean;
  by?: string | null;
  /** Who saves, as the article's history names her (« Administrateur » when unknown). */
  author?: Author;
  /** « Nouvel article »: an address held by an unfinished autosaved draft gives way to the next free one. */
  yieldToAutosavedDrafts?: boolean;
};

/**
 * New articles start as drafts unless the owner chose 'Publier'. A draft may be scheduled: its time and
 * the job that publishes it are one write.
 */
export async function createArticle(
  input: ArticleInput,
  { publish = false, by = null, author, yieldToAutosavedDrafts = false }: SaveOptions = {},
): Promise<SavedArticle> {
  try {
    return await db().transaction(async (tx) => {
      const scheduledAt = publish ? null : input.scheduled_at;
      const slug = yieldToAutosavedDrafts
        ? await slugFreeOfAutosavedDrafts(tx, input.slug, null)
        : input.slug;
      const [row] = await tx
        .insert(blogArticles)
        .values({
          ...values(input),
          slug,
          published: publish,
          publishedAt: publish ? new Date() : null,
          scheduledAt,
          newsletterOnPublish: input.newsletter_on_publish,
        })
        .returning({ id: blogArticles.id, newsletterOnPublish: blogArticles.newsletterOnPublish });
      if (!row) throw new Error("insert returned nothing");
      await recordRevision(tx, row.id, author ?? { id: by ?? "", name: "" });
      if (scheduledAt) await enqueuePublication(scheduledAt, tx);
      const sending = publish ? await sendIfAsked(row, by, tx) : null;
      return {
        id: row.id,
        scheduledAt,
        unscheduled: false,
        sending,
        movedToSlug: slug === input.slug ? null : slug,
      };
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
  { publish = false, by = null, author, yieldToAutosavedDrafts = false }: SaveOptions = {},
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
      await keepVersionBeforeHistory(tx, id);
      const draft = !before.published && !publish;
      const scheduledAt = draft ? input.scheduled_at : null;
      const slug = yieldToAutosavedDrafts
        ? await slugFreeOfAutosavedDrafts(tx, input.slug, id)
        : input.slug;
      const [row] = await tx
        .update(blogArticles)
        .set({
          ...values(input),
          slug,
          // Saved by her hand: no longer an unfinished draft to offer.
          autosaveSession: null,
          autosavedBy: null,
          ...(publish ? publication() : {}),
          scheduledAt,
          // A published article's form has no such box: its choice stays what it was.
          ...(before.published ? {} : { newsletterOnPublish: input.newsletter_on_publish }),
          updatedAt: new Date(),
        })
        .where(eq(blogArticles.id, id))
        .returning({ id: blogArticles.id, newsletterOnPublish: blogArticles.newsletterOnPublish });
      if (!row) return null;
      await recordRevision(tx, id, author ?? { id: by ?? "", name: "" });
      if (scheduledAt && scheduledAt.getTime() !== before.scheduledAt?.getTime()) {
        await enqueuePublication(scheduledAt, tx);
      }
      const sending = publish && !before.published ? await sendIfAsked(row, by, tx) : null;
      return {
        id,
        scheduledAt,
        unscheduled: before.scheduledAt !== null && scheduledAt === null,
        sending,
        movedToSlug: slug === input.slug ? null : slug,
      };
    });
  } catch (error) {
    translateConstraintError(error);
  }
}

type Tx = Parameters<Parameters<ReturnType<typeof db>["transaction"]>[0]>[0];

const revisionColumns = Object.fromEntries(
  ARTICLE_REVISION_FIELDS.map((field) => [field, blogArticles[field]]),
) as { [K in (typeof ARTICLE_REVISION_FIELDS)[number]]: (typeof blogArticles)[K] };

/**
 * Keeps the article as this save left it in its history (decision 0114), in the save's transaction: a
 * save with the form's buttons or a restore, not an autosave (a draft's every pause would fill it).
 */
async function recordRevision(tx: Tx, id: string, author: Author, summary = "") {
  const [data] = await tx.select(revisionColumns).from(blogArticles).where(eq(blogArticles.id, id));
  if (!data) return;
  await tx.insert(contentRevisions).values({
    subject: articleSubject(id),
    data: data satisfies ArticleRevisionData,
    authorId: author.id || null,
    authorName: author.name || "Administrateur",
    summary,
  });
}

/** One version of an article (its values as saved then, and when), or null when it is not one of its. */
export async function loadArticleVersion(id: string, revisionId: string) {
  const [revision] = await db()
    .select({ data: contentRevisions.data, createdAt: contentRevisions.createdAt })
    .from(contentRevisions)
    .where(
      and(eq(contentRevisions.subject, articleSubject(id)), eq(contentRevisions.id, revisionId)),
    );
  return revision
    ? { data: revision.data as Partial<ArticleRevisionData>, createdAt: revision.createdAt }
    : null;
}

/**
 * An article written before articles had a history, or autosaved only, has no version yet: before its
 * first save with the form, what it held is kept, dated from its last change, so that this save can be
 * undone too.
 */
async function keepVersionBeforeHistory(tx: Tx, id: string) {
  const [kept] = await tx
    .select({ id: contentRevisions.id })
    .from(contentRevisions)
    .where(eq(contentRevisions.subject, articleSubject(id)))
    .limit(1);
  if (kept) return;
  const [article] = await tx
    .select({ ...revisionColumns, updatedAt: blogArticles.updatedAt })
    .from(blogArticles)
    .where(eq(blogArticles.id, id));
  if (!article) return;
  const { updatedAt, ...data } = article;
  await tx.insert(contentRevisions).values({
    subject: articleSubject(id),
    data: data satisfies ArticleRevisionData,
    authorName: "Version antérieure",
    summary: "L'article tel qu'il était avant son premier enregistrement dans l'historique",
    createdAt: updatedAt,
  });
}

/**
 * Brings an article back to one of its versions (what it said, its photos, its search-engine texts; never
 * its address nor its publication), with a revision saying so. A category deleted since is left empty.
 * False when `revisionId` is not one of this article's versions, null when the article is gone.
 */
export async function restoreArticle(
  id: string,
  revisionId: string,
  author: Author,
): Promise<boolean | null> {
  return db().transaction(async (tx) => {
    const revision = await loadArticleVersion(id, revisionId);
    if (!revision) return false;
    const stored = revision.data;
    const [article] = await tx
      .select(revisionColumns)
      .from(blogArticles)
      .where(eq(blogArticles.id, id))
      .for("update");
    if (!article) return null;
    const value: ArticleRevisionData = { ...article, ...stored };
    const [category] = value.categoryId
      ? await tx
          .select({ id: blogCategories.id })
          .from(blogCategories)
          .where(eq(blogCategories.id, value.categoryId))
      : [];
    await tx
      .update(blogArticles)
      .set({
        ...value,
        content: sanitizeArticleHtml(value.content),
        categoryId: category?.id ?? null,
        updatedAt: new Date(),
      })
      .where(eq(blogArticles.id, id));
    await recordRevision(
      tx,
      id,
      author,
      `Restauration de la version du ${formatLongDateTimeFr(revision.createdAt)}`,
    );
    return true;
  });
}

/** What an autosave answers: the draft's id, when it was saved and its address. */
const draftAnswer = {
  id: blogArticles.id,
  updatedAt: blogArticles.updatedAt,
  slug: blogArticles.slug,
};

export class ArticlePublishedError extends Error {
  override name = "ArticlePublishedError";
}

/**
 * The autosave of a draft: creates it (id null) or updates it, never publishes. A published article is
 * never autosaved (its changes would go live unreviewed): ArticlePublishedError. On « Nouvel article »,
 * `session` names the visit: a second save of the same visit without the id (its first answer lost, or a
 * save sent as the page closed) updates the draft that visit created instead of adding another; an
 * address held by an unfinished autosaved draft gives way to the next free one. Returns the id and the
 * address saved, or null for an unknown id.
 */
export async function saveDraft(
  id: string | null,
  input: ArticleDraftInput,
  { session = null, by = null }: { session?: string | null; by?: string | null } = {},
) {
  const returned = draftAnswer;
  try {
    return await db().transaction(async (tx) => {
      const draftId = id ?? (session ? await findSessionDraft(session, tx) : null);
      // A new visit writing the title of her unfinished draft goes on with that draft (decision 0130).
      const twin =
        draftId === null && session && by ? await findTwinDraft(tx, by, input.title) : null;
      if (twin) return mergeIntoTwin(tx, twin, input, session ?? "");
      const slug = await slugFreeOfAutosavedDrafts(tx, input.slug, draftId);
      if (draftId === null) {
        const [row] = await tx
          .insert(blogArticles)
          .values({
            ...values(input),
            slug,
            published: false,
            autosaveSession: session,
            autosavedBy: session ? by : null,
          })
          .returning(returned);
        if (!row) throw new Error("insert returned nothing");
        return row;
      }
      const [row] = await tx
        .update(blogArticles)
        .set({ ...values(input), slug, updatedAt: new Date() })
        .where(and(eq(blogArticles.id, draftId), eq(blogArticles.published, false)))
        .returning(returned);
      if (row) return row;
      const [existing] = await tx
        .select({ id: blogArticles.id })
        .from(blogArticles)
        .where(eq(blogArticles.id, draftId));
      if (existing) throw new ArticlePublishedError("article publié");
      return null;
    });
  } catch (error) {
    if (error instanceof ArticlePublishedError) throw error;
    translateConstraintError(error);
  }
}

/**
 * The unfinished draft of `adminId` (autosaved on « Nouvel article », never saved with the form's buttons,
 * changed in the last week) whose title is `title`, spaces and case aside: the twin a new visit would
 * otherwise start beside it. Locked, so that two visits merge into it one after the other.
 */
async function findTwinDraft(tx: Tx, adminId: string, title: string) {
  const [twin] = await tx
    .select({ id: blogArticles.id, ...revisionColumns, updatedAt: blogArticles.updatedAt })
    .from(blogArticles)
    .where(
      and(
        eq(blogArticles.autosavedBy, adminId),
        isNotNull(blogArticles.autosaveSession),
        eq(blogArticles.published, false),
        gt(blogArticles.updatedAt, sql`now() - make_interval(days => ${UNFINISHED_DRAFT_DAYS})`),
        sql`lower(btrim(${blogArticles.title})) = lower(btrim(${title}))`,
      ),
    )
    .orderBy(desc(blogArticles.updatedAt))
    .limit(1)
    .for("update");
  return twin ?? null;
}

/**
 * The new visit's autosave written over its twin: what it typed replaces the twin's fields, a field it left
 * empty keeps the twin's, and the twin as it was stays in its history (« Restaurer » brings it back).
 * The twin now belongs to this visit (its later saves without the id update it too).
 */
async function mergeIntoTwin(
  tx: Tx,
  twin: NonNullable<Awaited<ReturnType<typeof findTwinDraft>>>,
  input: ArticleDraftInput,
  session: string,
) {
  const { id, updatedAt, ...before } = twin;
  await tx.insert(contentRevisions).values({
    subject: articleSubject(id),
    data: before satisfies ArticleRevisionData,
    authorName: "Version antérieure",
    summary:
      "Le brouillon tel qu'il était avant d'être repris par une autre visite de « Nouvel article »",
    createdAt: updatedAt,
  });
  const typed = values(input);
  const kept = (field: keyof ArticleRevisionData) =>
    typed[field] === "" || typed[field] === null ? { [field]: before[field] } : {};
  const [row] = await tx
    .update(blogArticles)
    .set({
      ...typed,
      ...kept("excerpt"),
      ...kept("content"),
      ...kept("author"),
      ...kept("categoryId"),
      ...kept("coverImageUrl"),
      ...kept("seoImageUrl"),
      ...kept("seoTitle"),
      ...kept("seoDescription"),
      slug: await slugFreeOfAutosavedDrafts(tx, input.slug, id),
      autosaveSession: session,
      updatedAt: new Date(),
    })
    .where(eq(blogArticles.id, id))
    .returning(draftAnswer);
  if (!row) throw new Error("twin draft vanished");
  return { ...row, merged: true };
}

/** The article the autosave of the visit `session` created, if any (it may have been published since). */
export async function findSessionDraft(
  session: string,
  database: Database = db(),
): Promise<string | null> {
  const [row] = await database
    .select({ id: blogArticles.id })
    .from(blogArticles)
    .where(eq(blogArticles.autosaveSession, session));
  return row?.id ?? null;
}
