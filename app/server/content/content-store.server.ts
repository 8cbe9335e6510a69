import { and, desc, eq, inArray, sql } from "drizzle-orm";
import {
  DOCUMENT_LABELS,
  documentSchemas,
  studioDataSchema,
  type DocumentKey,
  type Documents,
  type StudioData,
} from "~/content/schemas";
import { formatLongDateTimeFr } from "~/lib/dates";
import { db } from "../db/client.server";
import { contentRevisions, media, siteDocuments, studios } from "../db/schema";
import { moveStudioAddresses } from "./redirects.server";

/**
 * Writes of the site's content (decision 0070): every write is validated by the storage schema, checks that the
 * photos it names exist, and keeps a revision (who, when, the whole value) in the same transaction, so the
 * history is exactly what the site showed. Restoring a revision writes its value again as a new revision.
 */

export type Author = { id: string; name: string };

/** A document's value checked against its schema (throws on a value that does not have its shape). */
function parseDocumentStrict<K extends DocumentKey>(key: K, value: unknown): Documents[K] {
  return documentSchemas[key].parse(value) as Documents[K];
}

/** A write refused for a reason the owner can act on (the message is hers to read). */
export class ContentError extends Error {}

export type RevisionSummary = {
  id: string;
  authorName: string;
  createdAt: Date;
  summary: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Fields of documents holding the id of another record than a photo: a price card's session type (0127). */
const NOT_PHOTO_FIELDS = new Set(["sessionType"]);

/** Every media id a value names (the uuids in documents and studios are photo references, but the above). */
export function mediaIdsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === "string" && UUID.test(value)) found.add(value.toLowerCase());
  else if (Array.isArray(value)) for (const item of value) mediaIdsIn(item, found);
  else if (value && typeof value === "object") {
    for (const [field, item] of Object.entries(value)) {
      if (!NOT_PHOTO_FIELDS.has(field)) mediaIdsIn(item, found);
    }
  }
  return found;
}

type Tx = Parameters<Parameters<ReturnType<typeof db>["transaction"]>[0]>[0];

async function assertPhotosExist(tx: Tx, value: unknown): Promise<void> {
  const ids = [...mediaIdsIn(value)];
  if (ids.length === 0) return;
  // Locks the rows: a deletion of one of these photos waits for this write, then sees it in use.
  const rows = await tx
    .select({ id: media.id })
    .from(media)
    .where(inArray(media.id, ids))
    .for("key share");
  if (rows.length !== ids.length) {
    throw new ContentError(
      "Une photo choisie n'existe plus dans la médiathèque : choisissez-en une autre.",
    );
  }
}

export const documentSubject = (key: DocumentKey) => `document:${key}` as const;
export const studioSubject = (id: string) => `studio:${id}` as const;

/** Saves a document (validated), with its revision. Returns the stored value. */
export async function saveDocument<K extends DocumentKey>(
  key: K,
  value: Documents[K],
  author: Author,
  summary = "",
): Promise<Documents[K]> {
  const data = parseDocumentStrict(key, value);
  await db().transaction(async (tx) => {
    await assertPhotosExist(tx, data);
    await tx
      .insert(siteDocuments)
      .values({ key, data })
      .onConflictDoUpdate({
        target: siteDocuments.key,
        set: { data, updatedAt: sql`now()` },
      });
    await tx.insert(contentRevisions).values({
      subject: documentSubject(key),
      data,
      authorId: author.id || null,
      authorName: author.name,
      summary: summary || `${DOCUMENT_LABELS[key]} modifié`,
    });
  });
  return data;
}

/** A document as stored now (the seed's value until the first save). */
export async function loadDocument<K extends DocumentKey>(key: K): Promise<Documents[K]> {
  const [row] = await db()
    .select({ data: siteDocuments.data })
    .from(siteDocuments)
    .where(eq(siteDocuments.key, key));
  if (!row) throw new Error(`Document ${key} absent : les migrations ont-elles été appliquées ?`);
  return parseDocumentStrict(key, row.data);
}

export type StudioRow = {
  id: string;
  slug: string;
  position: number;
  retiredAt: Date | null;
  data: StudioData;
  updatedAt: Date;
};

/** Every studio, the retired ones included, in menu order. */
export async function listStudios(): Promise<StudioRow[]> {
  const rows = await db().select().from(studios).orderBy(studios.position, studios.createdAt);
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    position: row.position,
    retiredAt: row.retiredAt,
    data: studioDataSchema.parse(row.data),
    updatedAt: row.updatedAt,
  }));
}

/**
 * Creates a studio (id null) or saves one, with its revision. The slug names its pages
 * (/studio-{slug}, /contact-studio-{slug}): a slug already taken is refused.
 */
export async function saveStudio(
  id: string | null,
  slug: string,
  value: StudioData,
  author: Author,
  summary = "",
): Promise<string> {
  const data = studioDataSchema.parse(value);
  return db().transaction(async (tx) => {
    await assertPhotosExist(tx, data);
    const [taken] = await tx.select({ id: studios.id }).from(studios).where(eq(studios.slug, slug));
    if (taken && taken.id !== id) {
      throw new ContentError("Cette adresse est déjà celle d'un autre studio.");
    }
    let studioId = id;
    // The studio's pages follow its slug: old addresses answer a 301 to the new ones (redirects.server.ts).
    const [previous] = id
      ? await tx
          .select({ slug: studios.slug })
          .from(studios)
          .where(eq(studios.id, id))
          .for("update")
      : [];
    await moveStudioAddresses(tx, previous?.slug ?? null, slug);
    if (studioId) {
      const [updated] = await tx
        .update(studios)
        .set({ slug, data, updatedAt: sql`now()` })
        .where(eq(studios.id, studioId))
        .returning({ id: studios.id });
      if (!updated) throw new ContentError("Studio inconnu");
    } else {
      const [created] = await tx
        .insert(studios)
        .values({
          slug,
          data,
          position: sql`(select coalesce(max(position), -1) + 1 from studios)`,
        })
        .returning({ id: studios.id });
      if (!created) throw new Error("studio not created");
      studioId = created.id;
    }
    await tx.insert(contentRevisions).values({
      subject: studioSubject(studioId),
      data: { slug, ...data },
      authorId: author.id || null,
      authorName: author.name,
      summary: summary || (id ? `${data.name} modifié` : `${data.name} créé`),
    });
    return studioId;
  });
}

/** Retires a studio (its pages leave the site; its messages stay) or brings it back. */
export async function setStudioRetired(id: string, retired: boolean): Promise<boolean> {
  const rows = await db()
    .update(studios)
    .set({ retiredAt: retired ? sql`now()` : null, updatedAt: sql`now()` })
    .where(eq(studios.id, id))
    .returning({ id: studios.id });
  return rows.length > 0;
}

/** The history of a subject, newest first. */
export async function listRevisions(subject: string, limit = 50): Promise<RevisionSummary[]> {
  return db()
    .select({
      id: contentRevisions.id,
      authorName: contentRevisions.authorName,
      createdAt: contentRevisions.createdAt,
      summary: contentRevisions.summary,
    })
    .from(contentRevisions)
    .where(eq(contentRevisions.subject, subject))
    .orderBy(desc(contentRevisions.createdAt), desc(contentRevisions.id))
    .limit(limit);
}

/** One revision's whole value, or undefined when it is not a revision of this subject. */
export async function loadRevision(subject: string, id: string): Promise<unknown> {
  const [row] = await db()
    .select({ data: contentRevisions.data })
    .from(contentRevisions)
    .where(and(eq(contentRevisions.subject, subject), eq(contentRevisions.id, id)));
  return row?.data;
}

/** A revision of `subject` and the summary its restoration is saved with, or undefined. */
async function revisionToRestore(subject: string, revisionId: string) {
  const [row] = await db()
    .select({ data: contentRevisions.data, createdAt: contentRevisions.createdAt })
    .from(contentRevisions)
    .where(and(eq(contentRevisions.subject, subject), eq(contentRevisions.id, revisionId)));
  return row
    ? {
        data: row.data,
        summary: `Restauration de la version du ${formatLongDateTimeFr(row.createdAt)}`,
      }
    : undefined;
}

/** A document as one of its revisions holds it, to check before restoring it; undefined when there is none. */
export async function documentAtRevision<K extends DocumentKey>(
  key: K,
  revisionId: string,
): Promise<Documents[K] | undefined> {
  const revision = await revisionToRestore(documentSubject(key), revisionId);
  return revision ? (documentSchemas[key].parse(revision.data) as Documents[K]) : undefined;
}

/** Brings a document back to one of its revisions (a new revision says so). False when there is none. */
export async function restoreDocument(
  key: DocumentKey,
  revisionId: string,
  author: Author,
): Promise<boolean> {
  const revision = await revisionToRestore(documentSubject(key), revisionId);
  if (!revision) return false;
  const value = documentSchemas[key].parse(revision.data) as Documents[typeof key];
  await saveDocument(key, value, author, revision.summary);
  return true;
}

/** Brings a studio back to one of its revisions (its address included). False when there is none. */
export async function restoreStudio(
  id: string,
  revisionId: string,
  author: Author,
): Promise<boolean> {
  const revision = await revisionToRestore(studioSubject(id), revisionId);
  if (!revision) return false;
  const { slug, ...rest } = revision.data as { slug: string } & Record<string, unknown>;
  await saveStudio(id, slug, studioDataSchema.parse(rest), author, revision.summary);
  return true;
}
