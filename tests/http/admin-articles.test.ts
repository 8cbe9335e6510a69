import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { blogArticles } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import {
  elementsWithText,
  formOf,
  intentButton,
  labelled,
  shownValue,
  typeInto,
} from "../support/admin-content";
import { flashedToast, pressButton } from "../support/admin-forms";
import { fetchPage, postForm, type FetchedPage } from "../support/html";
import { serverDatabase } from "../support/server-under-test";

/*
 * The article form and the article pages as the server answers them (issue 23): its own checks with
 * JavaScript off, the autosave's endpoint, the draft's preview. The editor itself is tests/e2e.
 */

const admin = useAdmin();
const marker = randomBytes(4).toString("hex");

afterAll(async () => {
  await serverDatabase()
    .delete(blogArticles)
    .where(like(blogArticles.slug, `%${marker}%`));
});

const articlesTitled = (title: string) =>
  serverDatabase().select().from(blogArticles).where(eq(blogArticles.title, title));

/** The new-article form as the server renders it, `changes` typed in, posted by the button `intent`. */
async function postNewArticle(changes: Record<string, string>, intent = "save") {
  const page = await fetchPage("/admin/articles/nouveau", { cookie: admin.cookie() });
  expect(page.status).toBe(200);
  const form = typeInto(formOf(page), changes);
  return pressButton("/admin/articles/nouveau", intentButton(form, intent), {
    cookie: admin.cookie(),
  });
}

describe("the article form without JavaScript", () => {
  it("the server applies the browser's rules and keeps what was typed", async () => {
    const answer = await postNewArticle({
      title: "Sans script",
      slug: "Mauvais Slug",
      excerpt: "Un extrait gardé",
    });
    expect(answer.status).toBe(400);
    const form = formOf(answer);
    for (const message of [
      "Le slug doit contenir uniquement des lettres minuscules, chiffres et tirets",
      "Le contenu est requis",
    ]) {
      expect(elementsWithText(form, message), message).toHaveLength(1);
    }
    expect(shownValue(labelled(form, "Extrait"))).toBe("Un extrait gardé");
    expect(shownValue(labelled(form, "Titre"))).toBe("Sans script");
    expect(await articlesTitled("Sans script")).toEqual([]);
  });

  it("refuses an inline image without alternative text", async () => {
    const answer = await postNewArticle({
      title: "Sans alt",
      slug: `sans-alt-${marker}`,
      excerpt: "x",
      content: '<p>x</p><img src="/uploads/blog-images/a.jpg">',
      author: "x",
    });
    expect(answer.status).toBe(400);
    expect(answer.html).toContain("Chaque image du contenu doit avoir un texte alternatif");
    expect(await articlesTitled("Sans alt")).toEqual([]);
  });

  it("'Publier' publishes the article", async () => {
    const title = `Sans script ${marker}`;
    const answer = await postNewArticle(
      {
        title,
        slug: `sans-script-${marker}`,
        excerpt: "Extrait",
        content: "<p>Texte</p>",
      },
      "publish",
    );
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/admin/dashboard");
    expect(flashedToast(answer.headers)).toMatchObject({ title: "Article publié" });
    const [row] = await articlesTitled(title);
    expect(row?.published).toBe(true);
    expect(row?.publishedAt).toBeInstanceOf(Date);
  });

  it("an unknown article sends back to the dashboard with 'Impossible de charger l'article'", async () => {
    const answer = await fetchPage(
      "/admin/articles/00000000-0000-4000-8000-000000000000/modifier",
      { cookie: admin.cookie() },
    );
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/admin/dashboard");
    expect(flashedToast(answer.headers)).toMatchObject({
      type: "error",
      description: "Impossible de charger l'article",
    });
  });
});

describe("the draft's autosave (/admin/articles/brouillon)", () => {
  it("never touches a published article, needs a title and a signed-in administrator", async () => {
    const [published] = await serverDatabase()
      .insert(blogArticles)
      .values({
        title: "Publié",
        slug: `publie-${marker}`,
        excerpt: "x",
        content: "<p>x</p>",
        author: "x",
        published: true,
        publishedAt: new Date(),
      })
      .returning();
    const post = (fields: Record<string, string>) =>
      postForm("/admin/articles/brouillon", fields, { cookie: admin.cookie() });

    const refused = await post({ id: published?.id ?? "", title: "Changé en douce" });
    expect(refused.status).toBe(409);
    const [after] = await serverDatabase()
      .select()
      .from(blogArticles)
      .where(eq(blogArticles.id, published?.id ?? ""));
    expect(after).toMatchObject({ title: "Publié", slug: `publie-${marker}` });

    const untitled = await post({ title: " ", excerpt: "x" });
    expect(untitled.status).toBe(400);
    expect(JSON.parse(untitled.html)).toMatchObject({ reason: "Le titre est requis" });

    const anonymous = await postForm("/admin/articles/brouillon", { title: "Anonyme" });
    expect(anonymous.status).toBe(401);
  });
});

describe("the draft's preview", () => {
  it("renders through the published article's component, the cover around its focal point", async () => {
    const slug = `meme-rendu-${marker}`;
    const [article] = await serverDatabase()
      .insert(blogArticles)
      .values({
        title: `Même rendu ${marker}`,
        slug,
        excerpt: "Extrait",
        content:
          "<h2>Section</h2><p>Un <strong>texte</strong>.</p><blockquote><p>Citation</p></blockquote>",
        author: "Studio",
        coverImageUrl: `/uploads/blog-images/inexistante-${marker}.jpg`,
        coverFocalX: 20,
        coverFocalY: 80,
        published: true,
        publishedAt: new Date(),
      })
      .returning();
    const parts = ({ document }: FetchedPage) => {
      const view = document.querySelector("[data-article-view]");
      return {
        article: view?.getAttribute("class"),
        header: view?.querySelector("header")?.outerHTML,
        cover: view?.querySelector("img")?.outerHTML,
        body: view?.querySelector("[data-article-body]")?.outerHTML,
      };
    };
    const preview = parts(
      await fetchPage(`/admin/articles/${article?.id}/apercu`, { cookie: admin.cookie() }),
    );
    const published = parts(await fetchPage(`/blog/${slug}`));
    expect(preview.header).toContain(`Même rendu ${marker}`);
    expect(preview.body).toContain("<blockquote>");
    expect(preview).toEqual(published);
    expect(published.cover).toContain("object-position:20% 80%");

    const blog = await fetchPage("/blog");
    const card = [...blog.document.querySelectorAll("article")].find((each) =>
      each.textContent?.includes(`Même rendu ${marker}`),
    );
    expect(card?.querySelector("img")?.getAttribute("style")).toContain("object-position:20% 80%");
  });
});

describe("the SEO title and description (issue 24, item 9)", () => {
  const longSeoTitle = "Séance photo de naissance à domicile en Corrèze : nos conseils";

  it("are never cut: counted and previewed in the server's HTML, a longer title refused at its field and kept", async () => {
    const page = await fetchPage("/admin/articles/nouveau", { cookie: admin.cookie() });
    const empty = formOf(page);
    // A `maxlength` cuts a pasted title mid-word without a word: the counter says the length instead.
    expect(labelled(empty, "Titre SEO (facultatif)").hasAttribute("maxlength")).toBe(false);
    expect(labelled(empty, "Description SEO (facultative)").hasAttribute("maxlength")).toBe(false);
    expect(elementsWithText(empty, "0 / 60 caractères")).toHaveLength(1);
    expect(elementsWithText(empty, "0 / 160 caractères")).toHaveLength(1);
    expect(elementsWithText(empty, "Aperçu dans les résultats de recherche")).toHaveLength(1);

    const title = `Titre SEO trop long ${marker}`;
    const answer = await postNewArticle({
      title,
      slug: `seo-trop-long-${marker}`,
      excerpt: "Extrait",
      content: "<p>Texte</p>",
      seo_title: longSeoTitle,
    });
    expect(answer.status).toBe(400);
    const form = formOf(answer);
    const seoTitle = labelled(form, "Titre SEO (facultatif)");
    expect(shownValue(seoTitle)).toBe(longSeoTitle);
    const [message] = elementsWithText(form, "Le titre SEO est trop long");
    expect(seoTitle.getAttribute("aria-describedby")).toContain(message?.id);
    expect(
      elementsWithText(form, `${longSeoTitle.length} / 60 caractères : 2 de trop`),
    ).toHaveLength(1);
    expect(await articlesTitled(title)).toEqual([]);
  });

  it("the published article's <title> is the SEO title as typed, else the whole title", async () => {
    const seoTitle = `Séance naissance à Brive : nos conseils ${marker} pour bébé`;
    expect(seoTitle.length).toBeLessThanOrEqual(60);
    const withSeo = `Avec titre SEO ${marker}`;
    const longTitle = `Un très long titre d'article qui dépasse largement soixante caractères ${marker}`;
    for (const [fields, expected] of [
      [{ title: withSeo, slug: `avec-seo-${marker}`, seo_title: seoTitle }, seoTitle],
      [{ title: longTitle, slug: `sans-seo-${marker}` }, longTitle],
    ] as const) {
      const answer = await postNewArticle(
        { excerpt: "Extrait", content: "<p>Texte</p>", ...fields },
        "publish",
      );
      expect(answer.status).toBe(302);
      const article = await fetchPage(`/blog/${fields.slug}`);
      expect(article.document.title).toBe(expected);
    }
  });
});
