/**
 * What a revision of an article keeps (decision 0114): the article as the owner writes it. Its address,
 * its publication and its newsletter are not part of it: bringing a version back never moves a published
 * article's address nor publishes, unpublishes or sends anything.
 */
export const ARTICLE_REVISION_FIELDS = [
  "title",
  "excerpt",
  "content",
  "author",
  "categoryId",
  "coverImageUrl",
  "coverFocalX",
  "coverFocalY",
  "seoImageUrl",
  "seoTitle",
  "seoDescription",
] as const;

export type ArticleRevisionData = {
  title: string;
  excerpt: string;
  content: string;
  author: string;
  categoryId: string | null;
  coverImageUrl: string | null;
  coverFocalX: number;
  coverFocalY: number;
  seoImageUrl: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
};

/** The subject of an article's revisions in `content_revisions`. */
export const articleSubject = (id: string) => `article:${id}` as const;
