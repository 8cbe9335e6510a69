import { and, eq, gt, lt, sql } from "drizzle-orm";
import {
  documentSchemas,
  STUDIO_SLUG_PATTERN,
  studioDataSchema,
  type DocumentKey,
  type StudioData,
} from "~/content/schemas";
import { isUuid } from "~/lib/forms";
import { getAdmin } from "../admin/guard.server";
import { db } from "../db/client.server";
import { contentPreviews, contentRevisions } from "../db/schema";
import type { SessionTypeValue } from "~/lib/booking/session-type-form";
import type { Author } from "./content-store.server";
import { studioPaths, type SiteContent } from "./site-content.server";

/**
 * « Prévisualiser » (decision 0070): the owner sees a public page with her unsaved changes before they go
 * live. The form's action stores the unsaved value (`createPreview`) and sends her to the page with
 * `?apercu={id}`; for an administrator's request, the site's content of that request is the snapshot with
 * this value in place of the saved one, so the page renders exactly as it would once saved. Visitors, and
 * anyone without an administrator's session, get the saved page; such answers are never cached
 * (cache-policy.server.ts).
 */

export const PREVIEW_PARAM = "apercu";
const PREVIEW_LIFETIME = sql`interval '1 day'`;

export type PreviewSubject = `document:${DocumentKey}` | "studio" | "session-type";

type StudioPreview = { id: string | null; slug: string; data: StudioData };

/** Stores an unsaved document; returns the preview's id. The value must have the storage shape. */
export async function createDocumentPreview<K extends DocumentKey>(
  key: K,
  value: unknown,
  author: Author,
): Promise<string> {
  const data = documentSchemas[key].parse(value);
  return insertPreview(`document:${key}`, data, author);
}

/** Stores an unsaved studio (id null: one not created yet); returns the preview's id. */
export async function createStudioPreview(studio: StudioPreview, author: Author): Promise<string> {
  if (!STUDIO_SLUG_PATTERN.test(studio.slug)) throw new Error("invalid slug");
  const data: StudioPreview = { ...studio, data: studioDataSchema.parse(studio.data) };
  return insertPreview("studio", data, author);
}

/** Stores an unsaved session type (id null: one not created yet); returns the preview's id. */
export function createSessionTypePreview(
  id: string | null,
  value: SessionTypeValue,
  author: Author,
): Promise<string> {
  return insertPreview("session-type", { id, value }, author);
}

async function insertPreview(subject: string, data: unknown, author: Author): Promise<string> {
  // Old previews go as new ones come: nothing else needs them.
  await db()
    .delete(contentPreviews)
    .where(lt(contentPreviews.createdAt, sql`now() - ${PREVIEW_LIFETIME}`));
  const [row] = await db()
    .insert(contentPreviews)
    .values({ subject, data, authorId: author.id || null })
    .returning({ id: contentPreviews.id });
  if (!row) throw new Error("preview not stored");
  return row.id;
}

/** The address of a page showing a preview. */
export function previewHref(path: string, id: string): string {
  return `${path}${path.includes("?") ? "&" : "?"}${PREVIEW_PARAM}=${id}`;
}

/** The preview id a request asks for, if any (an address with `?apercu=`): a preview's or a revision's. */
export function requestedPreview(url: URL): string | undefined {
  const id = url.searchParams.get(PREVIEW_PARAM);
  return id && isUuid(id) ? id : undefined;
}

/** An unsaved value stored by « Prévisualiser » (one day). */
async function unsavedValue(id: string) {
  const [row] = await db()
    .select({ subject: contentPreviews.subject, data: contentPreviews.data })
    .from(contentPreviews)
    .where(
      and(
        eq(contentPreviews.id, id),
        gt(contentPreviews.createdAt, sql`now() - ${PREVIEW_LIFETIME}`),
      ),
    );
  return row;
}

/**
 * An earlier version of a document or a studio (« Voir la page avec cette version » in a history), in the
 * shape of a preview.
 */
async function earlierVersion(id: string) {
  const [row] = await db()
    .select({ subject: contentRevisions.subject, data: contentRevisions.data })
    .from(contentRevisions)
    .where(eq(contentRevisions.id, id));
  if (!row) return undefined;
  if (row.subject.startsWith("document:")) return row;
  if (row.subject.startsWith("session-type:")) {
    const id = row.subject.slice("session-type:".length);
    return { subject: "session-type", data: { id, value: row.data } };
  }
  if (!row.subject.startsWith("studio:")) return undefined;
  const { slug, ...data } = row.data as { slug: string };
  const studio: StudioPreview = {
    id: row.subject.slice("studio:".length),
    slug,
    data: data as StudioData,
  };
  return { subject: "studio", data: studio };
}

/**
 * The content of a request that asks for a preview: the snapshot with the unsaved value in place, when the
 * request comes from an administrator and the preview exists; the snapshot itself otherwise.
 */
export async function withPreview(
  content: SiteContent,
  previewId: string,
  request: Request,
): Promise<SiteContent> {
  if (!(await getAdmin(request))) return content;
  const row = (await unsavedValue(previewId)) ?? (await earlierVersion(previewId));
  if (!row) return content;
  if (row.subject === "session-type") {
    const preview = row.data as NonNullable<SiteContent["sessionTypePreview"]>;
    return { ...content, sessionTypePreview: preview, preview: true };
  }
  if (row.subject === "studio") {
    const studio = row.data as StudioPreview;
    const data = studioDataSchema.parse(studio.data);
    const record = {
      id: studio.id ?? "apercu",
      slug: studio.slug,
      ...studioPaths(studio.slug),
      data,
    };
    const index = content.studios.findIndex((candidate) => candidate.id === studio.id);
    const studios =
      index >= 0
        ? content.studios.map((candidate, at) => (at === index ? record : candidate))
        : [...content.studios, record];
    return { ...content, studios, preview: true };
  }
  const key = row.subject.replace(/^document:/, "") as DocumentKey;
  if (!(key in documentSchemas)) return content;
  const data = documentSchemas[key].parse(row.data);
  return { ...content, documents: { ...content.documents, [key]: data }, preview: true };
}
