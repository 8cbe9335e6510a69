import { sql } from "drizzle-orm";
import { createContext, type RouterContextProvider } from "react-router";
import {
  documentSchemas,
  DOCUMENT_KEYS,
  studioDataSchema,
  type DocumentKey,
  type Documents,
  type StudioData,
} from "~/content/schemas";
import { uploadedPicture, type SitePhoto } from "~/lib/media";
import { db } from "../db/client.server";
import { log } from "../logger.server";
import { demoPicture } from "./demo-photo-pictures.server";
import { seedDocuments } from "~/content/seed";
import type { SessionTypeValue } from "~/lib/booking/session-type-form";

/**
 * What the public pages show of the business, read from PostgreSQL (decision 0070): the documents, the studios
 * still open, the media library's photos and the redirects, as one immutable snapshot.
 *
 * One statement reads the content version and, only when it differs from the snapshot this process holds,
 * everything else with it: so a page costs one round trip for all of it, and none when the page cache has
 * just read the version for this request (the cache's read is this one). Writers raise the version in their
 * own transaction (triggers of migration 0008), so a snapshot is never older than the version it carries.
 */

export type StudioRecord = {
  id: string;
  slug: string;
  pagePath: `/studio-${string}`;
  contactPath: `/contact-studio-${string}`;
  data: StudioData;
};

export type SiteContent = {
  version: number;
  documents: Documents;
  /** Studios on the site (not retired), in menu order. */
  studios: StudioRecord[];
  /** Old address → new address (301). */
  redirects: ReadonlyMap<string, string>;
  /**
   * The rows of `site_documents` that are not documents (sealed settings, as the card's keys), by key:
   * only whether they exist, which the Content-Security-Policy needs on every answer.
   */
  otherRows: ReadonlySet<string>;
  /** The photo of the media library with this id (a neutral placeholder if it was removed meanwhile). */
  photo(id: string): SitePhoto;
  /** This request shows an administrator's unsaved changes (preview.server.ts): never cached. */
  preview?: boolean;
  /**
   * A session type as the administrator previews it (unsaved, or an earlier version), shown on the booking
   * pages of the studios it names; `id` null for one not created yet.
   */
  sessionTypePreview?: { id: string | null; value: SessionTypeValue };
};

type MediaRow = {
  id: string;
  builtin: string | null;
  file: string | null;
  widths: number[];
  width: number;
  height: number;
  alt: string;
  focal_x: number;
  focal_y: number;
  colour: string;
};

type SnapshotRow = {
  version: string;
  documents: Record<string, unknown> | null;
  studios: Array<{ id: string; slug: string; data: unknown }> | null;
  media: MediaRow[] | null;
  redirects: Record<string, string> | null;
};

export function studioPaths(slug: string) {
  return {
    pagePath: `/studio-${slug}` as const,
    contactPath: `/contact-studio-${slug}` as const,
  };
}

/** A document as stored, or its seed value when it is missing or no longer has its schema's shape. */
function parseDocument<K extends DocumentKey>(key: K, value: unknown): Documents[K] {
  if (value !== undefined) {
    const parsed = documentSchemas[key].safeParse(value);
    if (parsed.success) return parsed.data as Documents[K];
    log.error("site_document_invalid", { key, issues: parsed.error.issues.slice(0, 5) });
  }
  return seedDocuments[key];
}

const MISSING_PHOTO_SVG =
  "data:image/svg+xml;utf8," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><rect width="4" height="3" fill="#d6d3d1"/></svg>',
  );

function missingPhoto(id: string): SitePhoto {
  return {
    id,
    picture: { sources: {}, img: { src: MISSING_PHOTO_SVG, w: 1200, h: 900 } },
    alt: "",
    focal: { x: 50, y: 50 },
    colour: "#d6d3d1",
    demo: true,
  };
}

function resolveMedia(row: MediaRow): SitePhoto | undefined {
  const picture = row.builtin
    ? demoPicture(row.builtin)
    : row.file
      ? uploadedPicture(row.file, row.widths, row)
      : undefined;
  if (!picture) return undefined;
  return {
    id: row.id,
    picture,
    alt: row.alt,
    focal: { x: row.focal_x, y: row.focal_y },
    colour: row.colour,
    demo: row.builtin !== null,
  };
}

function buildSnapshot(row: SnapshotRow): SiteContent {
  const stored = row.documents ?? {};
  const documents = Object.fromEntries(
    DOCUMENT_KEYS.map((key) => [key, parseDocument(key, stored[key])]),
  ) as Documents;
  const studios: StudioRecord[] = [];
  for (const studio of row.studios ?? []) {
    const parsed = studioDataSchema.safeParse(studio.data);
    if (!parsed.success) {
      log.error("studio_invalid", { slug: studio.slug, issues: parsed.error.issues.slice(0, 5) });
      continue;
    }
    studios.push({
      id: studio.id,
      slug: studio.slug,
      ...studioPaths(studio.slug),
      data: parsed.data,
    });
  }
  const photos = new Map<string, SitePhoto>();
  for (const media of row.media ?? []) {
    const photo = resolveMedia(media);
    if (photo) photos.set(media.id, photo);
    else log.error("media_unresolvable", { id: media.id, builtin: media.builtin });
  }
  return {
    version: Number(row.version),
    documents,
    studios,
    redirects: new Map(Object.entries(row.redirects ?? {})),
    otherRows: new Set(
      Object.keys(stored).filter((key) => !(DOCUMENT_KEYS as readonly string[]).includes(key)),
    ),
    photo: (id) => photos.get(id) ?? missingPhoto(id),
  };
}

let snapshot: SiteContent | undefined;
let reading: Promise<SiteContent> | undefined;

/** Forgets the content read: a test file with a database of its own. Refused outside tests. */
export function forgetSiteContentForTests(): void {
  if (!process.env.VITEST) throw new Error("forgetSiteContentForTests is for tests only");
  snapshot = undefined;
}

async function read(): Promise<SiteContent> {
  const known = snapshot?.version ?? -1;
  const result = await db().execute<SnapshotRow>(sql`
    select v.version::text as version,
      case when v.version <> ${known} then (
        select coalesce(json_object_agg(d.key, d.data), '{}'::json) from site_documents d
      ) end as documents,
      case when v.version <> ${known} then (
        select coalesce(json_agg(json_build_object('id', s.id, 'slug', s.slug, 'data', s.data)
          order by s.position, s.created_at), '[]'::json)
        from studios s where s.retired_at is null
      ) end as studios,
      case when v.version <> ${known} then (
        select coalesce(json_agg(json_build_object('id', m.id, 'builtin', m.builtin, 'file', m.file,
          'widths', m.widths, 'width', m.width, 'height', m.height, 'alt', m.alt,
          'focal_x', m.focal_x, 'focal_y', m.focal_y, 'colour', m.colour)), '[]'::json)
        from media m
      ) end as media,
      case when v.version <> ${known} then (
        select coalesce(json_object_agg(r.from_path, r.to_path), '{}'::json) from redirects r
      ) end as redirects
    from content_version v
  `);
  const row = result.rows[0];
  if (!row)
    throw new Error("content_version n'a pas de ligne : la migration 0004 l'a-t-elle créée ?");
  if (snapshot && row.documents === null) {
    // Unchanged. (Another read may have brought a newer snapshot meanwhile: keep the newer.)
    return snapshot;
  }
  const next = buildSnapshot(row);
  if (!snapshot || next.version >= snapshot.version) snapshot = next;
  return snapshot;
}

/**
 * The current content, read with one round trip (the version, and the rest only when it changed). Calls
 * that arrive while a read is running share it.
 */
export function readSiteContent(): Promise<SiteContent> {
  if (!reading) {
    reading = read().finally(() => {
      reading = undefined;
    });
  }
  return reading;
}

let queued: Promise<SiteContent> | undefined;

/**
 * Like `readSiteContent`, but never a read that was already running when called: whatever was committed
 * before the call is seen. Calls that arrive while one read runs share the next one.
 */
export function readSiteContentAfterNow(): Promise<SiteContent> {
  if (!reading) return readSiteContent();
  const ignore = () => undefined;
  queued ??= reading.then(ignore, ignore).then(() => {
    queued = undefined;
    return readSiteContent();
  });
  return queued;
}

/**
 * The page cache's version read: the same statement, so the content it validates is in memory afterwards.
 * It starts after the call, so a change committed before the request arrived is always seen.
 */
export async function readContentVersionWithContent(): Promise<number> {
  return (await readSiteContentAfterNow()).version;
}

/** The snapshot in memory, as fresh as the last read (for a render that follows a read of the version). */
export function currentSiteContent(): SiteContent | undefined {
  return snapshot;
}

/** Forgets the snapshot (tests that replace the database under a running process). */
export function forgetSiteContent(): void {
  snapshot = undefined;
}

/**
 * The site's content for this request: set by the HTTP layer. When the page cache has read the version
 * for this request, the snapshot it brought is used as it is; otherwise one round trip reads it.
 */
export const siteContentContext = createContext<() => Promise<SiteContent>>(readSiteContent);

/** In a loader: the site's content for this request. */
export function siteContent(context: Readonly<RouterContextProvider>): Promise<SiteContent> {
  return context.get(siteContentContext)();
}

/** The studio of a slug among those on the site, or undefined. */
export function studioBySlug(content: SiteContent, slug: string): StudioRecord | undefined {
  return content.studios.find((studio) => studio.slug === slug);
}
