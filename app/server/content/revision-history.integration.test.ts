import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { articleInput } from "../../../tests/support/article-input";
import { useAppDatabase } from "../../../tests/support/database";
import type { ArticleInput } from "~/lib/admin-schemas";
import { articleSubject } from "~/lib/article-revision";
import {
  createArticle,
  getArticleForAdmin,
  restoreArticle,
  setArticlePublished,
  updateArticle,
} from "../blog/admin-articles.server";
import { articleHistory } from "../blog/article-form.server";
import { db } from "../db/client.server";
import { blogArticles, blogCategories, contentRevisions } from "../db/schema";
import { loadDocument, saveDocument, studioSubject, listStudios } from "./content-store.server";
import { documentHistory } from "./document-form.server";
import { loadRevisionHistory } from "./revision-history.server";

useAppDatabase();

const owner = { id: "", name: "Camille" };

function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error("valeur attendue");
  return value;
}
const page = (search = "") => new Request(`http://localhost/admin/tarifs${search}`);

const article = (overrides: Partial<ArticleInput> = {}) =>
  articleInput({
    title: "Mariage à Brive",
    content: "<p>Les mariés sont arrivés à midi.</p>",
    ...overrides,
  });

describe("a document's history", () => {
  it("says what each save changed, and what bringing an earlier version back would change", async () => {
    const seeded = await loadDocument("prices");
    const tab = seeded.tabs[0];
    const card = tab?.cards[0];
    if (!tab || !card) throw new Error("seed without a price card");
    const raised = structuredClone(seeded);
    (must(raised.tabs[0]).cards[0] ?? card).price = { kind: "fixed", euros: 999 };
    await saveDocument("prices", raised, owner);
    const renamed = structuredClone(raised);
    (must(renamed.tabs[0]).cards[0] ?? card).badge = "Nouveau";
    await saveDocument("prices", renamed, owner);

    const { revisions, viewed, changedSince } = await documentHistory("prices", page());
    expect(changedSince).toBe(false);
    expect(viewed).toBeNull();
    const where = `Onglets › « ${tab.label} » › Cartes › « ${card.title} »`;
    expect(revisions.map((revision) => revision.changed)).toEqual([
      `${where} › Badge`,
      `${where} › Prix`,
      "",
    ]);

    const seed = must(revisions[2]);
    const history = await documentHistory("prices", page(`?version=${seed.id}`));
    expect(history.viewed?.id).toBe(seed.id);
    expect(history.viewed?.changes).toEqual([
      {
        label: `${where} › Prix`,
        kind: "changed",
        before: "999\u00a0€",
        after: expect.any(String),
      },
      {
        label: `${where} › Badge`,
        kind: "changed",
        before: "Nouveau",
        after: card.badge || "(vide)",
      },
    ]);
    expect(history.viewed?.previews).toEqual([
      { label: "Voir la page Tarifs avec cette version", href: `/tarifs?apercu=${seed.id}` },
    ]);

    // The version online is not « an earlier version »; an id of another subject is nothing.
    expect(
      (await documentHistory("prices", page(`?version=${must(revisions[0]).id}`))).viewed,
    ).toBeNull();
    const [other] = await db()
      .select({ id: contentRevisions.id })
      .from(contentRevisions)
      .where(eq(contentRevisions.subject, "document:identity"));
    expect((await documentHistory("prices", page(`?version=${must(other).id}`))).viewed).toBeNull();
    expect((await documentHistory("prices", page("?version=pas-un-id"))).viewed).toBeNull();
  });

  it("names a studio's photo by its description, and links to the studio's page as it was", async () => {
    const [studio] = await listStudios();
    if (!studio) throw new Error("no studio");
    const subject = studioSubject(studio.id);
    const [seed] = await db()
      .select({ id: contentRevisions.id })
      .from(contentRevisions)
      .where(eq(contentRevisions.subject, subject));
    await db()
      .insert(contentRevisions)
      .values({
        subject,
        data: { slug: studio.slug, ...studio.data, phone: "05 55 00 00 00" },
        authorName: "Camille",
      });
    const history = await loadRevisionHistory(
      subject,
      new Request(`http://localhost/admin/studios/${studio.id}?version=${must(seed).id}`),
      { normalize: (value) => value },
    );
    expect(history.revisions[0]?.changed).toBe("Téléphone");
    expect(history.viewed?.changes).toEqual([
      { label: "Téléphone", kind: "changed", before: "05 55 00 00 00", after: studio.data.phone },
    ]);
  });
});

describe("an article's history", () => {
  it("keeps a version at each save with the form, the one before its first save included", async () => {
    const { id } = await createArticle(article(), { author: owner });
    // Written before articles had a history: no version yet.
    await db()
      .delete(contentRevisions)
      .where(eq(contentRevisions.subject, articleSubject(id)));
    const first = must(await getArticleForAdmin(id));
    await updateArticle(id, article({ slug: first.slug, title: "Mariage au lac" }), {
      author: owner,
    });
    await updateArticle(
      id,
      article({
        slug: first.slug,
        title: "Mariage au lac",
        content: "<p>Les mariés sont arrivés à 14 h.</p>",
      }),
      { author: owner },
    );

    const current = must(await getArticleForAdmin(id));
    const request = new Request(`http://localhost/admin/articles/${id}/modifier`);
    const { revisions } = await articleHistory(current, request);
    expect(revisions.map((revision) => [revision.authorName, revision.changed])).toEqual([
      ["Camille", "Contenu"],
      ["Camille", "Titre"],
      ["Version antérieure", ""],
    ]);

    const before = must(revisions[2]);
    const { viewed } = await articleHistory(
      current,
      new Request(`${request.url}?version=${before.id}`),
    );
    expect(viewed?.changes).toEqual([
      { label: "Titre", kind: "changed", before: "Mariage au lac", after: first.title },
      {
        label: "Contenu",
        kind: "changed",
        before: "Les mariés sont arrivés à 14 h.",
        after: "Les mariés sont arrivés à midi.",
      },
    ]);
    expect(viewed?.previews[0]?.href).toBe(`/admin/articles/${id}/apercu?version=${before.id}`);
  });

  it("brings a version back without moving its address nor its publication", async () => {
    const [category] = await db()
      .insert(blogCategories)
      .values({ name: "Reportages", slug: `reportages-${crypto.randomUUID().slice(0, 8)}` })
      .returning();
    const { id } = await createArticle(article({ category_id: must(category).id }), {
      author: owner,
    });
    const original = must(await getArticleForAdmin(id));
    await setArticlePublished(id, true);
    await updateArticle(
      id,
      article({ slug: original.slug, title: "Titre raté", excerpt: "Oups", category_id: null }),
      { author: owner },
    );
    await db()
      .delete(blogCategories)
      .where(eq(blogCategories.id, must(category).id));

    const [oldest] = await db()
      .select({ id: contentRevisions.id })
      .from(contentRevisions)
      .where(eq(contentRevisions.subject, articleSubject(id)))
      .orderBy(contentRevisions.createdAt)
      .limit(1);
    expect(await restoreArticle(id, must(oldest).id, { id: "", name: "Claire" })).toBe(true);
    const restored = must(await getArticleForAdmin(id));
    expect(restored).toMatchObject({
      title: original.title,
      excerpt: original.excerpt,
      content: original.content,
      slug: original.slug,
      published: true,
      // Its category was deleted since: left empty rather than refused.
      categoryId: null,
    });
    const { revisions } = await articleHistory(
      restored,
      new Request(`http://localhost/admin/articles/${id}/modifier`),
    );
    expect(revisions[0]?.authorName).toBe("Claire");
    expect(revisions[0]?.summary).toMatch(/^Restauration de la version du /);

    expect(await restoreArticle(id, crypto.randomUUID(), owner)).toBe(false);
    await db().delete(blogArticles).where(eq(blogArticles.id, id));
  });

  it("tells a draft's autosaved changes from its last version", async () => {
    const { id } = await createArticle(article(), { author: owner });
    await db().update(blogArticles).set({ title: "Tapé depuis" }).where(eq(blogArticles.id, id));
    const current = must(await getArticleForAdmin(id));
    const [only] = (await articleHistory(current, new Request("http://localhost/"))).revisions;
    const history = await articleHistory(
      current,
      new Request(`http://localhost/?version=${must(only).id}`),
    );
    expect(history.changedSince).toBe(true);
    expect(history.viewed?.changes).toEqual([
      {
        label: "Titre",
        kind: "changed",
        before: "Tapé depuis",
        after: expect.stringMatching(/^Mariage à Brive/),
      },
    ]);
  });
});
