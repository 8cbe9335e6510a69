import { inArray } from "drizzle-orm";
import { demoPhotos } from "~/content/demo-photos";
import { DOCUMENT_KEYS, documentSchemas, studioDataSchema } from "~/content/schemas";
import type { Database } from "../db/client.server";
import { contentRevisions, media, redirects, siteDocuments, studios } from "../db/schema";
import {
  DEMO_PREFIX,
  demoPhotoAlt,
  seedDocuments,
  seedRedirects,
  seedStudios,
} from "~/content/seed";

/** Author of the first revision of every seeded document and studio. */
export const SEED_AUTHOR = "Données de démonstration";

/** Markers of the collections already seeded once: emptied by the owner, they stay empty. */
const SEEDED_STUDIOS = "seeded:studios";
const SEEDED_REDIRECTS = "seeded:redirects";

/** Every `demo:{name}` string inside a value. */
function demoNames(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === "string" && value.startsWith(DEMO_PREFIX))
    found.add(value.slice(DEMO_PREFIX.length));
  else if (Array.isArray(value)) for (const item of value) demoNames(item, found);
  else if (value && typeof value === "object")
    for (const item of Object.values(value)) demoNames(item, found);
  return found;
}

/** The value with every `demo:{name}` replaced by the id of that demo photo's media row. */
function withMediaIds<T>(value: T, ids: ReadonlyMap<string, string>): T {
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) => {
    if (typeof item === "string" && item.startsWith(DEMO_PREFIX)) {
      const id = ids.get(item.slice(DEMO_PREFIX.length));
      if (!id) throw new Error(`Photo de démonstration inconnue : ${item}`);
      return id;
    }
    return item;
  }) as T;
}

/**
 * Writes the seed of what is missing (decision 0070): documents that do not exist yet, the studios and redirects
 * of the specification (docs/specification.md) when they were never seeded, and the demo photos they show. Runs after every migration, on a
 * new database and on one of an earlier version alike; what the owner changed is never touched.
 */
export async function ensureSiteContent(database: Database): Promise<void> {
  await database.transaction(async (tx) => {
    const present = new Set(
      (await tx.select({ key: siteDocuments.key }).from(siteDocuments)).map((row) => row.key),
    );
    const documents = DOCUMENT_KEYS.filter((key) => !present.has(key)).map((key) => ({
      key,
      value: seedDocuments[key] as unknown,
    }));
    const newStudios = present.has(SEEDED_STUDIOS) ? [] : seedStudios;
    const newRedirects = present.has(SEEDED_REDIRECTS) ? [] : seedRedirects;
    if (documents.length === 0 && newStudios.length === 0 && newRedirects.length === 0) return;

    const names = demoNames([documents.map((document) => document.value), newStudios]);
    const ids = new Map<string, string>();
    if (names.size > 0) {
      const rows = [...names].map((name) => {
        const facts = demoPhotos[name];
        if (!facts) throw new Error(`Photo de démonstration sans description : ${name}`);
        return {
          builtin: name,
          width: facts.width,
          height: facts.height,
          colour: facts.colour,
          alt: demoPhotoAlt(name),
        };
      });
      await tx.insert(media).values(rows).onConflictDoNothing({ target: media.builtin });
      const stored = await tx
        .select({ id: media.id, builtin: media.builtin })
        .from(media)
        .where(inArray(media.builtin, [...names]));
      for (const row of stored) if (row.builtin) ids.set(row.builtin, row.id);
    }

    for (const { key, value } of documents) {
      const data = documentSchemas[key].parse(withMediaIds(value, ids));
      await tx.insert(siteDocuments).values({ key, data }).onConflictDoNothing();
      await tx.insert(contentRevisions).values({
        subject: `document:${key}`,
        data,
        authorName: SEED_AUTHOR,
        summary: "Version d'origine",
      });
    }

    if (newStudios.length > 0) {
      for (const [position, studio] of newStudios.entries()) {
        const data = studioDataSchema.parse(withMediaIds(studio.data, ids));
        const [row] = await tx
          .insert(studios)
          .values({ slug: studio.slug, position, data })
          .onConflictDoNothing()
          .returning({ id: studios.id });
        if (row) {
          await tx.insert(contentRevisions).values({
            subject: `studio:${row.id}`,
            data: { slug: studio.slug, ...data },
            authorName: SEED_AUTHOR,
            summary: "Version d'origine",
          });
        }
      }
      await tx
        .insert(siteDocuments)
        .values({ key: SEEDED_STUDIOS, data: true })
        .onConflictDoNothing();
    }

    if (newRedirects.length > 0) {
      await tx
        .insert(redirects)
        .values(newRedirects.map((entry) => ({ fromPath: entry.from, toPath: entry.to })))
        .onConflictDoNothing();
      await tx
        .insert(siteDocuments)
        .values({ key: SEEDED_REDIRECTS, data: true })
        .onConflictDoNothing();
    }
  });
}
