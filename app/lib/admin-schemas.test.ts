import { describe, expect, it } from "vitest";
import { parisDateTimeInputValue } from "./dates";
import {
  articleDraftSchema,
  articleSchema,
  categorySchema,
  htmlHasText,
  imagesHaveAlt,
  loginSchema,
} from "./admin-schemas";

const valid = {
  title: "Été à Brive",
  slug: "ete-a-brive",
  excerpt: "Extrait",
  content: "<p>Texte</p>",
  author: "Studio",
  category_id: "",
  cover_image_url: "",
  seo_image_url: "",
  seo_title: "",
  seo_description: "  ",
};

describe("admin schemas", () => {
  it("login: 'Email invalide' then the password rule", () => {
    const result = loginSchema.safeParse({ email: "x", password: "123" });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      "Email invalide",
      "Le mot de passe doit contenir au moins 6 caractères",
    ]);
  });

  it("article: empty category and SEO values become null", () => {
    expect(articleSchema.parse(valid)).toMatchObject({
      category_id: null,
      cover_image_url: null,
      seo_title: null,
      seo_description: null,
    });
  });

  it("article: the limits of SPEC §9 with their messages", () => {
    const result = articleSchema.safeParse({
      ...valid,
      title: "a".repeat(201),
      slug: "a".repeat(201),
      excerpt: "a".repeat(501),
      author: "a".repeat(101),
      seo_title: "a".repeat(61),
      seo_description: "a".repeat(161),
    });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      "Le titre est trop long",
      "Le slug est trop long",
      "L'extrait est trop long",
      "Le nom de l'auteur est trop long",
      "Le titre SEO est trop long",
      "La description SEO est trop longue",
    ]);
  });

  it("article: images must be files of this site", () => {
    expect(
      articleSchema.safeParse({ ...valid, cover_image_url: "javascript:alert(1)" }).success,
    ).toBe(false);
    expect(
      articleSchema.safeParse({ ...valid, cover_image_url: "//evil.example/x.jpg" }).success,
    ).toBe(false);
    expect(
      articleSchema.safeParse({ ...valid, cover_image_url: "/uploads/blog-images/a-1.jpg" })
        .success,
    ).toBe(true);
  });

  it("article: an editor with nothing in it has no content", () => {
    expect(htmlHasText("<p></p>")).toBe(false);
    expect(htmlHasText("<p>&nbsp;</p>")).toBe(false);
    expect(htmlHasText('<p><img src="/x.jpg"></p>')).toBe(true);
  });

  it("category: name and slug required and trimmed, description null when empty", () => {
    expect(categorySchema.safeParse({ name: " ", slug: "x" }).error?.issues[0]?.message).toBe(
      "Le nom et le slug sont requis",
    );
    expect(
      categorySchema.parse({ name: " Mariages ", slug: " mariages ", description: " " }),
    ).toEqual({
      name: "Mariages",
      slug: "mariages",
      description: null,
    });
  });
});

describe("article images and drafts", () => {
  it("imagesHaveAlt requires a non-blank alt on every image", () => {
    expect(imagesHaveAlt('<p>x</p><img src="/a.jpg" alt="Les mariés">')).toBe(true);
    expect(imagesHaveAlt('<img src="/a.jpg" alt="Un">x<img src="/b.jpg">')).toBe(false);
    expect(imagesHaveAlt('<img src="/a.jpg" alt="  ">')).toBe(false);
    expect(imagesHaveAlt("<p>sans image</p>")).toBe(true);
  });

  it("a draft needs only a title; its slug follows the title when empty", () => {
    const draft = articleDraftSchema.parse({ title: "Été à Brive", content: "<p></p>" });
    expect(draft).toMatchObject({
      title: "Été à Brive",
      slug: "ete-a-brive",
      excerpt: "",
      content: "",
      author: "",
      cover_focal_x: 50,
      cover_focal_y: 50,
    });
    expect(articleDraftSchema.safeParse({ title: " " }).success).toBe(false);
    expect(articleDraftSchema.safeParse({ title: "x", slug: "Pas Bon" }).success).toBe(false);
    expect(articleDraftSchema.safeParse({ title: "x", cover_focal_x: "101" }).success).toBe(false);
  });
});

describe("scheduling an article", () => {
  const inParis = (offsetMs: number) => parisDateTimeInputValue(new Date(Date.now() + offsetMs));
  const messages = (input: Record<string, string>) =>
    articleSchema.safeParse(input).error?.issues.map((issue) => [issue.path[0], issue.message]);

  it("reads the date and time typed in Paris as an instant, and the newsletter box", () => {
    const article = articleSchema.parse({
      ...valid,
      scheduled_at: "2999-07-14T10:00",
      newsletter_on_publish: "on",
    });
    expect(article.scheduled_at?.toISOString()).toBe("2999-07-14T08:00:00.000Z");
    expect(article.newsletter_on_publish).toBe(true);
    expect(articleSchema.parse(valid)).toMatchObject({
      scheduled_at: null,
      newsletter_on_publish: false,
    });
  });

  it("refuses a time that is past or no time at all, in French", () => {
    expect(messages({ ...valid, scheduled_at: inParis(-60_000) })).toEqual([
      ["scheduled_at", "La date de publication programmée doit être dans le futur"],
    ]);
    expect(messages({ ...valid, scheduled_at: "2999-02-30T10:00" })).toEqual([
      ["scheduled_at", "Date et heure de publication invalides"],
    ]);
    expect(articleSchema.safeParse({ ...valid, scheduled_at: inParis(3_600_000) }).success).toBe(
      true,
    );
  });

  it("says a past time along with the other fields' messages", () => {
    expect(messages({ ...valid, title: "", scheduled_at: inParis(-60_000) })).toEqual([
      ["title", "Le titre est requis"],
      ["scheduled_at", "La date de publication programmée doit être dans le futur"],
    ]);
  });

  it("« Publier » publishes now: a past time left in the field does not stop it", () => {
    expect(
      articleSchema.safeParse({ ...valid, scheduled_at: inParis(-60_000), intent: "publish" })
        .success,
    ).toBe(true);
  });

  it("the autosave of a draft ignores the scheduling fields", () => {
    const draft = articleDraftSchema.parse({
      title: "x",
      scheduled_at: "hier",
      newsletter_on_publish: "on",
    });
    expect(draft).not.toHaveProperty("scheduled_at");
    expect(draft).not.toHaveProperty("newsletter_on_publish");
  });
});
