import { desc, eq, inArray } from "drizzle-orm";
import {
  describeChanges,
  type HistoryLabels,
  type PreviewLink,
  type RevisionHistoryData,
  summariseChanges,
} from "~/lib/revision-changes";
import { db } from "../db/client.server";
import { blogCategories, contentRevisions, media } from "../db/schema";
import { mediaIdsIn } from "./content-store.server";

/**
 * The history of a document, a studio or an article as its page shows it (decision 0114): each save with
 * who made it, when, and what it changed; and, for the version the owner asks to see (`?version=<id>`),
 * what bringing it back would change and a link to the page as it would look.
 */

/** The search parameter naming the version the owner looks at. */
export const VERSION_PARAM = "version";

export type { RevisionHistoryData };

/** How many saves a history lists. */
const LISTED = 50;

type HistoryOptions = {
  /** The stored value as today's schema reads it (new fields get their defaults: not a change). */
  normalize: (data: unknown) => unknown;
  /**
   * The value in use now, when it may differ from the last version (a draft's autosave): a restore's
   * changes are told from it, and the last version can then be brought back too.
   */
  current?: unknown;
  /** Fields holding HTML, compared by their visible text. */
  html?: readonly string[];
  /** What the record's form calls its fields (its field table's history labels). */
  labels?: HistoryLabels;
  /** Where a version can be seen, from its revision id and value (none when there is no such page). */
  previews?: (revisionId: string, data: unknown) => PreviewLink[];
};

/** What the owner calls the photos and categories `values` name, by id. */
async function namesOf(values: readonly unknown[]): Promise<Map<string, string>> {
  const ids = new Set<string>();
  for (const value of values) mediaIdsIn(value, ids);
  if (ids.size === 0) return new Map();
  const list = [...ids];
  const [photos, categories] = await Promise.all([
    db()
      .select({ id: media.id, alt: media.alt, originalName: media.originalName })
      .from(media)
      .where(inArray(media.id, list)),
    db()
      .select({ id: blogCategories.id, name: blogCategories.name })
      .from(blogCategories)
      .where(inArray(blogCategories.id, list)),
  ]);
  return new Map([
    ...photos.map(
      (photo) =>
        [photo.id, `photo « ${photo.alt || photo.originalName || "sans titre"} »`] as const,
    ),
    ...categories.map((category) => [category.id, `« ${category.name} »`] as const),
  ]);
}

/** A value read through `normalize`, or as stored when today's schema refuses it. */
function readWith(normalize: HistoryOptions["normalize"], data: unknown): unknown {
  try {
    return normalize(data);
  } catch {
    return data;
  }
}

/**
 * The history of `subject`, newest first (the first is the version online), with the version `request`
 * asks to see when it is one of this subject's earlier versions.
 */
export async function loadRevisionHistory(
  subject: string,
  request: Request,
  options: HistoryOptions,
): Promise<RevisionHistoryData> {
  const rows = await db()
    .select({
      id: contentRevisions.id,
      authorName: contentRevisions.authorName,
      createdAt: contentRevisions.createdAt,
      summary: contentRevisions.summary,
      data: contentRevisions.data,
    })
    .from(contentRevisions)
    .where(eq(contentRevisions.subject, subject))
    .orderBy(desc(contentRevisions.createdAt), desc(contentRevisions.id))
    // One more than listed: the last listed save is told from the one before it.
    .limit(LISTED + 1);
  const values = rows.map((row) => readWith(options.normalize, row.data));
  const requested = new URL(request.url).searchParams.get(VERSION_PARAM);
  const names = await namesOf(
    options.current === undefined ? values : [...values, options.current],
  );
  const compare = (before: unknown, after: unknown) =>
    describeChanges(before, after, { names, html: options.html, labels: options.labels });
  const now = options.current ?? values[0];
  const changedSince = options.current !== undefined && compare(values[0], now).length > 0;
  // An earlier version among those listed (the page shows it under its line).
  const viewedAt = rows.findIndex(
    (row, index) => (index > 0 || changedSince) && index < LISTED && row.id === requested,
  );

  const revisions = rows.slice(0, LISTED).map((row, index) => ({
    id: row.id,
    authorName: row.authorName,
    createdAt: row.createdAt.toISOString(),
    summary: row.summary,
    changed:
      index + 1 < values.length ? summariseChanges(compare(values[index + 1], values[index])) : "",
  }));
  const viewedRow = rows[viewedAt];
  const viewed = viewedRow
    ? {
        id: viewedRow.id,
        changes: compare(now, values[viewedAt]),
        previews: options.previews?.(viewedRow.id, values[viewedAt]) ?? [],
      }
    : null;
  return { revisions, viewed, changedSince };
}
