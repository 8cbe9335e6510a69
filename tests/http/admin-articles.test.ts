import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { blogArticles } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import {
  askWithoutScript,
  elementsWithText,
  formOf,
  intentButton,
  labelled,
  linksNamed,
  regionNamed,
  shownValue,
  typeInto,
} from "../support/admin-content";
import { buttonLabelled, flashedToast, pressButton } from "../support/admin-forms";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { serverDatabase } from "../support/server-under-test";

/*
 * The article form and the article pages as the server answers them (decision 0120): its own checks with
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

describe("an article's history, seen before it is restored", () => {
  it("each save is kept: a version is seen, previewed and brought back, its address unchanged", async () => {
    const slug = `historique-${marker}`;
    const first = `Premier jet ${marker}`;
    const created = await postNewArticle({
      title: first,
      slug,
      excerpt: "Extrait",
      content: "<p>Texte du premier jet.</p>",
    });
    expect(created.status).toBe(302);
    const [row] = await articlesTitled(first);
    const path = `/admin/articles/${row?.id}/modifier`;
    const editPage = await fetchPage(path, { cookie: admin.cookie() });
    const revised = `Texte revu ${marker}`;
    const saved = await pressButton(
      path,
      intentButton(
        typeInto(formOf(editPage), { title: revised, content: "<p>Texte revu et corrigé.</p>" }),
        "save",
      ),
      { cookie: admin.cookie() },
    );
    expect(flashedToast(saved.headers)).toMatchObject({ title: "Article mis à jour" });

    const page = await fetchPage(path, { cookie: admin.cookie() });
    const history = regionNamed(page, "Historique de l'article");
    const lines = [...history.querySelectorAll("ol > li")];
    expect(lines).toHaveLength(2);
    expect(textOf(lines[0])).toContain("Modifié : Titre et Contenu");
    expect(textOf(lines[0])).toContain("Version en ligne");

    const see = linksNamed(lines[1] as Element, /^Voir cette version/)[0];
    const seen = await fetchPage(see?.getAttribute("href") ?? "", { cookie: admin.cookie() });
    const panel = seen.document.querySelector("section[id^='version-']");
    expect(textOf(panel)).toContain(`TitreActuellement${revised}Cette version${first}`);
    expect(textOf(panel)).toContain(
      "ContenuActuellementTexte revu et corrigé.Cette versionTexte du premier jet.",
    );
    const preview = linksNamed(panel as Element, /^Voir l'article avec cette version/)[0];
    const previewed = await fetchPage(preview?.getAttribute("href") ?? "", {
      cookie: admin.cookie(),
    });
    expect(textOf(previewed.document.querySelector("h1"))).toBe(first);
    expect(textOf(previewed.document.querySelector('[role="status"]'))).toMatch(
      /^Aperçu — la version du .* de ce brouillon, visible des seuls administrateurs\.Modifier l.article$/,
    );

    const { confirm } = await askWithoutScript(
      buttonLabelled(lines[1] as Element, "Restaurer cette version"),
      admin.cookie(),
    );
    const restored = await confirm();
    expect(restored.headers.get("location")).toBe(path);
    expect(flashedToast(restored.headers)).toMatchObject({ title: "Version restaurée" });
    const [back] = await articlesTitled(first);
    expect(back).toMatchObject({ slug, content: "<p>Texte du premier jet.</p>", published: false });
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

describe("the SEO title and description, never cut", () => {
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

describe("autosaved drafts of « Nouvel article », offered and not in the way", () => {
  /** A visit of the new-article page: its form and the visit's autosave. */
  async function visitNewArticle() {
    const page = await fetchPage("/admin/articles/nouveau", { cookie: admin.cookie() });
    expect(page.status).toBe(200);
    const session = formOf(page).querySelector('[name="draft_session"]')?.getAttribute("value");
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const autosave = async (fields: Record<string, string>) => {
      const answer = await postForm(
        "/admin/articles/brouillon",
        { draft_session: session ?? "", ...fields },
        { cookie: admin.cookie() },
      );
      const body = JSON.parse(answer.html) as {
        id?: string;
        slug?: string;
        reason?: string;
        merged?: boolean;
      };
      return { status: answer.status, ...body };
    };
    return { page, autosave };
  }

  it("one visit autosaves one draft, even when the page never got its id back", async () => {
    const title = `Une visite ${marker}`;
    const visit = await visitNewArticle();
    const first = await visit.autosave({ title });
    expect(first.status).toBe(201);
    // The first answer was lost (the tab closed, the network dropped): the page still sends no id.
    const second = await visit.autosave({ title, excerpt: "La suite." });
    expect(second.status).toBeLessThan(300);
    expect(second.id).toBe(first.id);
    const rows = await articlesTitled(title);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ excerpt: "La suite.", slug: `une-visite-${marker}` });
  });

  it("the next visit offers the unfinished draft, and the same title goes on with it instead of a twin", async () => {
    const title = `Même titre ${marker}`;
    const slug = `meme-titre-${marker}`;
    const left = await (await visitNewArticle()).autosave({ title, excerpt: "Le début." });
    expect(left.status).toBe(201);

    const next = await visitNewArticle();
    const offer = linksNamed(
      next.page.document,
      new RegExp(
        `^Reprendre le brouillon « ${title} » enregistré le (?:1er|\\d{1,2}) \\S+ \\d{4} à \\d{2}:\\d{2}$`,
      ),
    );
    expect(offer).toHaveLength(1);
    expect(offer[0]?.getAttribute("href")).toBe(`/admin/articles/${left.id}/modifier`);

    // Her autosave in this visit, under the same title, merges into that draft (decision 0130): one
    // draft, what she left empty kept from the first visit, the first version in its history; the answer
    // says so, and the page then opens that draft.
    const again = await next.autosave({ title: `  ${title} `, content: "<p>La suite.</p>" });
    expect(again).toMatchObject({ status: 200, id: left.id, slug, merged: true });
    const [merged, ...twins] = await articlesTitled(title);
    expect(twins).toEqual([]);
    expect(merged).toMatchObject({ excerpt: "Le début.", content: "<p>La suite.</p>" });
    const history = await fetchPage(`/admin/articles/${left.id}/modifier`, {
      cookie: admin.cookie(),
    });
    expect(textOf(history.document.body)).toContain("Version antérieure");
    const offered = linksNamed(
      (await visitNewArticle()).page.document,
      new RegExp(`^Reprendre le brouillon « ${title} »`),
    );
    expect(offered).toHaveLength(1);

    // Saved by hand (without JavaScript, from another visit): a new article, the address said in the message.
    const third = await fetchPage("/admin/articles/nouveau", { cookie: admin.cookie() });
    const form = typeInto(formOf(third), {
      title,
      slug,
      excerpt: "Extrait",
      content: "<p>Texte</p>",
    });
    const saved = await pressButton("/admin/articles/nouveau", intentButton(form, "save"), {
      cookie: admin.cookie(),
    });
    expect(saved.status).toBe(302);
    expect(flashedToast(saved.headers)).toMatchObject({
      title: "Article créé",
      description: `Adresse de l'article : /blog/${slug}-2 (/blog/${slug} est celle d'un brouillon enregistré automatiquement).`,
    });
    expect((await articlesTitled(title)).map((row) => row.slug).sort()).toEqual([
      slug,
      `${slug}-2`,
    ]);
  });

  it("a draft saved with the form's buttons is no longer offered", async () => {
    const title = `Terminé ${marker}`;
    const draft = await (await visitNewArticle()).autosave({ title });
    const edit = await fetchPage(`/admin/articles/${draft.id}/modifier`, {
      cookie: admin.cookie(),
    });
    const form = typeInto(formOf(edit), {
      excerpt: "Extrait",
      content: "<p>Texte</p>",
      author: "Studio",
    });
    const saved = await pressButton(
      `/admin/articles/${draft.id}/modifier`,
      intentButton(form, "save"),
      { cookie: admin.cookie() },
    );
    expect(saved.status).toBe(302);
    const next = await fetchPage("/admin/articles/nouveau", { cookie: admin.cookie() });
    expect(linksNamed(next.document, new RegExp(`« ${title} »`))).toEqual([]);
  });
});
