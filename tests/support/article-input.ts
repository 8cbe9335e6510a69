import { randomBytes } from "node:crypto";
import type { ArticleInput } from "../../app/lib/admin-schemas";

/** What the article form gives the server once validated: a draft of its own address, `overrides` typed. */
export function articleInput(overrides: Partial<ArticleInput> = {}): ArticleInput {
  const marker = randomBytes(4).toString("hex");
  return {
    title: `Séance de printemps ${marker}`,
    slug: `seance-printemps-${marker}`,
    excerpt: "Les premières fleurs au studio de Brive.",
    content: "<p>Un texte complet.</p>",
    author: "Claire",
    category_id: null,
    cover_image_url: null,
    cover_focal_x: 50,
    cover_focal_y: 50,
    seo_image_url: null,
    seo_title: null,
    seo_description: null,
    scheduled_at: null,
    newsletter_on_publish: false,
    intent: "save",
    ...overrides,
  };
}
