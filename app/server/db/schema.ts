import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";

/**
 * The database schema. Length limits mirror SPEC §9 so that the database refuses what the forms refuse.
 * `f_unaccent` is an IMMUTABLE wrapper around `unaccent` created by the first migration, so that
 * accent-insensitive search can use trigram indexes.
 */

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const blogCategories = pgTable("blog_categories", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: varchar("name", { length: 100 }).notNull(),
  slug: varchar("slug", { length: 200 }).notNull().unique(),
  description: text("description"),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const blogArticles = pgTable(
  "blog_articles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: varchar("title", { length: 200 }).notNull(),
    slug: varchar("slug", { length: 200 }).notNull().unique(),
    excerpt: varchar("excerpt", { length: 500 }).notNull(),
    content: text("content").notNull(),
    author: varchar("author", { length: 100 }).notNull(),
    categoryId: uuid("category_id").references(() => blogCategories.id, { onDelete: "set null" }),
    coverImageUrl: text("cover_image_url"),
    seoImageUrl: text("seo_image_url"),
    seoTitle: varchar("seo_title", { length: 60 }),
    seoDescription: varchar("seo_description", { length: 160 }),
    published: boolean("published").notNull().default(false),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    viewCount: integer("view_count").notNull().default(0),
  },
  (table) => [
    index("blog_articles_published_idx").on(table.published, table.publishedAt.desc()),
    index("blog_articles_category_idx").on(table.categoryId, table.publishedAt.desc()),
    index("blog_articles_title_search_idx").using(
      "gin",
      sql`f_unaccent(lower(${table.title})) gin_trgm_ops`,
    ),
    index("blog_articles_excerpt_search_idx").using(
      "gin",
      sql`f_unaccent(lower(${table.excerpt})) gin_trgm_ops`,
    ),
  ],
);

export const blogNewsletterSubscribers = pgTable(
  "blog_newsletter_subscribers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: varchar("email", { length: 255 }).notNull(),
    subscribedAt: timestamp("subscribed_at", { withTimezone: true }).notNull().defaultNow(),
    active: boolean("active").notNull().default(true),
    /** Which form the person consented on (e.g. "blog", "article"): proof of consent (RGPD). */
    consentSource: varchar("consent_source", { length: 50 }).notNull(),
    /** When the person last did anything with us, for the 18-month retention. */
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("blog_newsletter_subscribers_email_idx").on(sql`lower(${table.email})`),
    index("blog_newsletter_subscribers_date_idx").on(table.subscribedAt.desc()),
  ],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studio: varchar("studio", { length: 20 }).notNull(),
    shootingType: varchar("shooting_type", { length: 50 }).notNull(),
    prenom: varchar("prenom", { length: 100 }).notNull(),
    nom: varchar("nom", { length: 100 }).notNull(),
    email: varchar("email", { length: 255 }).notNull(),
    telephone: varchar("telephone", { length: 30 }),
    message: text("message").notNull(),
    source: varchar("source", { length: 50 }),
    createdAt: createdAt(),
    handledAt: timestamp("handled_at", { withTimezone: true }),
    /** When the e-mail to the studio was accepted by the SMTP server; null when not (yet) sent. */
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
  },
  (table) => [index("contact_messages_date_idx").on(table.createdAt.desc())],
);

/** Fixed-window counters for rate limits, shared by every app process. */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 300 }).primaryKey(),
  count: integer("count").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
});
