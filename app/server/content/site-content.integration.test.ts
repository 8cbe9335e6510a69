import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { readContentVersion } from "../content-version.server";
import { db } from "../db/client.server";
import { contentRevisions, media, redirects, siteDocuments, studios } from "../db/schema";
import {
  ContentError,
  documentSubject,
  listRevisions,
  listStudios,
  loadDocument,
  restoreDocument,
  saveDocument,
  saveStudio,
} from "./content-store.server";
import { ensureSiteContent, SEED_AUTHOR } from "./ensure-seed.server";
import { readSiteContent } from "./site-content.server";

useAppDatabase();

const owner = { id: "", name: "Camille" };

describe("the site's content in PostgreSQL", () => {
  it("is seeded by the migrations: documents, the three studios, the redirects and their demo photos", async () => {
    const content = await readSiteContent();
    expect(content.documents.identity.brand).toBe("Studio Photo Exemple");
    expect(content.studios.map((studio) => studio.slug)).toEqual(["ussel", "brive", "limoges"]);
    expect(content.studios[0]?.pagePath).toBe("/studio-ussel");
    expect(content.redirects.get("/contact-brive")).toBe("/contact-studio-brive");
    const hero = content.photo(content.documents.pagePhotos.slots["accueil.hero"]);
    expect(hero.demo).toBe(true);
    expect(hero.alt).toBe("Séance photo en studio");
    const [{ value: photos } = { value: 0 }] = await db().select({ value: count() }).from(media);
    expect(photos).toBeGreaterThan(50);
    const history = await listRevisions(documentSubject("prices"));
    expect(history).toHaveLength(1);
    expect(history[0]?.authorName).toBe(SEED_AUTHOR);
  });

  it("seeds again only what is missing, never what the owner changed or emptied", async () => {
    await db().delete(redirects);
    await db()
      .update(siteDocuments)
      .set({ data: sql`jsonb_set(data, '{brand}', '"Atelier Lumière"')` })
      .where(eq(siteDocuments.key, "identity"));
    await db().delete(siteDocuments).where(eq(siteDocuments.key, "testimonials"));
    await ensureSiteContent(db());
    expect((await loadDocument("identity")).brand).toBe("Atelier Lumière");
    expect((await loadDocument("testimonials")).grossesse).toHaveLength(2);
    expect(await db().select().from(redirects)).toEqual([]);
    expect(await listStudios()).toHaveLength(3);
  });

  it("keeps a revision of each save and brings an earlier version back", async () => {
    const [user] = await db()
      .execute<{ id: string }>(
        sql`insert into users (id, name, email, role) values ('u1', 'Camille', 'camille@example.com', 'admin') returning id`,
      )
      .then((result) => result.rows);
    const author = { ...owner, id: user?.id ?? "" };
    const before = await loadDocument("prices");
    const changed = structuredClone(before);
    const card = changed.tabs[0]?.cards[0];
    if (!card) throw new Error("no card");
    card.price = { kind: "fixed", euros: 85 };
    const versionBefore = await readContentVersion();
    await saveDocument("prices", changed, author);
    expect(await readContentVersion()).toBeGreaterThan(versionBefore);
    expect((await readSiteContent()).documents.prices.tabs[0]?.cards[0]?.price).toEqual({
      kind: "fixed",
      euros: 85,
    });

    const history = await listRevisions(documentSubject("prices"));
    expect(history.map((revision) => revision.authorName)).toEqual(["Camille", SEED_AUTHOR]);
    const original = history[1];
    if (!original) throw new Error("no original");
    expect(await restoreDocument("prices", original.id, author)).toBe(true);
    expect((await loadDocument("prices")).tabs[0]?.cards[0]?.price).toEqual({
      kind: "fixed",
      euros: 79,
    });
    const after = await listRevisions(documentSubject("prices"));
    expect(after).toHaveLength(3);
    expect(after[0]?.summary).toMatch(/^Restauration de la version du /);
  });

  it("refuses a photo that is not in the media library, and a studio address already taken", async () => {
    const identity = await loadDocument("identity");
    await expect(
      saveDocument(
        "identity",
        { ...identity, shareImage: "00000000-0000-4000-8000-000000000000" },
        owner,
      ),
    ).rejects.toBeInstanceOf(ContentError);
    const [ussel] = await listStudios();
    if (!ussel) throw new Error("no studio");
    await expect(saveStudio(null, "ussel", ussel.data, owner)).rejects.toThrow(
      "Cette adresse est déjà celle d'un autre studio.",
    );
    const id = await saveStudio(null, "tulle", { ...ussel.data, name: "Studio de Tulle" }, owner);
    const content = await readSiteContent();
    expect(content.studios.map((studio) => studio.slug)).toContain("tulle");
    const revisions = await db()
      .select()
      .from(contentRevisions)
      .where(eq(contentRevisions.subject, `studio:${id}`));
    expect(revisions).toHaveLength(1);
    await db().delete(studios).where(eq(studios.id, id));
  });
});
