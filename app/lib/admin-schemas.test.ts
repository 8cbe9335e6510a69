import { describe, expect, it } from "vitest";
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
