import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  jsonb,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import type {
  BookingActor,
  BookingEventKind,
  BookingSource,
  BookingState,
  SessionMode,
  SessionVisibility,
} from "../../lib/booking/model";
import type { BookableHours, BookingQuestion } from "../../lib/booking/session-types";
import type { DepositRule } from "../../lib/booking/deposit";
import {
  INVOICE_KINDS,
  INVOICE_SERIES,
  type InvoiceBuyer,
  type InvoiceKind,
  type InvoiceLineInput,
  type InvoiceSeller,
  type InvoiceSeries,
  type VatShare,
} from "../../lib/invoices/model";
import {
  ATTEMPT_STATUSES,
  JOURNAL_KINDS,
  OFFLINE_MEANS,
  ORDER_KINDS,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PROVIDER_NAMES,
  REFUND_STATUSES,
  VOUCHER_VAT_MODES,
  type AttemptStatus,
  type JournalKind,
  type OfflineMeans,
  type OrderKind,
  type OrderStatus,
  type PaymentMethod,
  type ProviderName,
  type RefundStatus,
  type ReportedStatus,
  type VoucherVatMode,
} from "../../lib/payments/model";
import type { SubscriberStatus } from "../../lib/newsletter";

/**
 * The database schema. Length limits mirror SPEC §9 so that the database refuses what the forms refuse.
 * `f_unaccent` is an IMMUTABLE wrapper around `unaccent` created by the first migration, so that
 * accent-insensitive search can use trigram indexes.
 */

/** PostgreSQL's full-text document type; drizzle has none of its own. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

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
    /** The cover's subject, in % of its width and height: where a cropped cover stays centred. */
    coverFocalX: smallint("cover_focal_x").notNull().default(50),
    coverFocalY: smallint("cover_focal_y").notNull().default(50),
    seoImageUrl: text("seo_image_url"),
    seoTitle: varchar("seo_title", { length: 60 }),
    seoDescription: varchar("seo_description", { length: 160 }),
    published: boolean("published").notNull().default(false),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** A draft to publish at this time (the job queue publishes it); null when none is planned. */
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    /** Send the article to the subscribers when the scheduled publication happens. */
    newsletterOnPublish: boolean("newsletter_on_publish").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    viewCount: integer("view_count").notNull().default(0),
    /**
     * The visit of « Nouvel article » whose autosave created this draft: its later autosaves update this
     * row even when the first answer never reached the page. Null once saved with the form's buttons: a
     * draft still holding it was left unfinished, and « Nouvel article » offers to resume it.
     */
    autosaveSession: uuid("autosave_session").unique(),
    /** Who that autosave was: the offer to resume goes to her only. */
    autosavedBy: text("autosaved_by").references((): AnyPgColumn => users.id, {
      onDelete: "set null",
    }),
    /**
     * Title and excerpt, lower-case and without accents, kept by PostgreSQL itself: what the search
     * matches, under one trigram index. The line break keeps a term from matching across the two.
     */
    searchText: text("search_text").generatedAlwaysAs(
      sql`f_unaccent(lower(title || chr(10) || excerpt))`,
    ),
    /**
     * The words of title (weight A), excerpt (B) and body (C, its HTML tags removed), stemmed without
     * accents by the `french_unaccent` text search configuration of migration 0014: what the search ranks.
     * A body may weigh 4 MiB but a tsvector holds at most 1 MiB of words: only its first 200,000
     * characters (far more than any real article) are read, so that no save can fail on it.
     */
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql`setweight(to_tsvector('french_unaccent'::regconfig, title), 'A') || setweight(to_tsvector('french_unaccent'::regconfig, excerpt), 'B') || setweight(to_tsvector('french_unaccent'::regconfig, left(regexp_replace(content, '<[^>]*>', ' ', 'g'), 200000)), 'C')`,
    ),
  },
  (table) => [
    check(
      "blog_articles_cover_focal_check",
      sql`${table.coverFocalX} between 0 and 100 and ${table.coverFocalY} between 0 and 100`,
    ),
    index("blog_articles_published_idx").on(table.published, table.publishedAt.desc()),
    index("blog_articles_category_idx").on(table.categoryId, table.publishedAt.desc()),
    index("blog_articles_search_idx").using("gin", sql`${table.searchText} gin_trgm_ops`),
    index("blog_articles_search_vector_idx").using("gin", table.searchVector),
    index("blog_articles_scheduled_idx")
      .on(table.scheduledAt)
      .where(sql`${table.scheduledAt} is not null`),
    // The dashboard's pages (decision 0130): the date each row leads with, as articles.server.ts's
    // listedAt writes it, then the creation and the id (read backwards for newest first).
    index("blog_articles_admin_list_idx").on(
      sql`(case when published then coalesce(published_at, created_at) else coalesce(scheduled_at, created_at) end)`,
      table.createdAt,
      table.id,
    ),
  ],
);

/**
 * Every word (three characters or more, with a letter, without accents) of the titles and excerpts of
 * published articles, with how many articles hold it: where a search that finds nothing looks for the words
 * the visitor may have meant. Triggers of migration 0014 keep it as articles change.
 */
export const blogSearchWords = pgTable(
  "blog_search_words",
  {
    word: text("word").primaryKey(),
    articles: integer("articles").notNull(),
  },
  (table) => [index("blog_search_words_trigram_idx").using("gin", sql`${table.word} gin_trgm_ops`)],
);

/**
 * One row whose number grows, in the same transaction, with every change to what the public blog shows
 * (articles and categories; a view counted is not a change). Triggers of migration 0004 keep it; the page
 * cache serves a stored page only while this number is still the one the page was rendered under.
 */
export const contentVersion = pgTable(
  "content_version",
  {
    id: boolean("id").primaryKey().default(true),
    version: bigint("version", { mode: "number" }).notNull().default(0),
  },
  (table) => [check("content_version_single_row", sql`${table.id}`)],
);

export const blogNewsletterSubscribers = pgTable(
  "blog_newsletter_subscribers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: varchar("email", { length: 255 }).notNull(),
    /** When the person signed up (or was imported); a new sign-up after leaving sets it again. */
    subscribedAt: timestamp("subscribed_at", { withTimezone: true }).notNull().defaultNow(),
    status: varchar("status", { length: 20 })
      .$type<SubscriberStatus>()
      .notNull()
      .default("pending"),
    /** SPEC's field, kept by PostgreSQL: true while the status is 'active'. */
    active: boolean("active")
      .notNull()
      .generatedAlwaysAs(sql`status = 'active'`),
    /** Which form the person consented on (e.g. "blog", "article", "import"): proof of consent (RGPD). */
    consentSource: varchar("consent_source", { length: 50 }).notNull(),
    /** The address of the page the form was on, and the consent sentence it showed (CNIL: proof). */
    consentPage: varchar("consent_page", { length: 500 }),
    consentText: text("consent_text"),
    /** When the confirmation e-mail was last queued (a new sign-up resends it at most once an hour). */
    confirmationSentAt: timestamp("confirmation_sent_at", { withTimezone: true }),
    /** When the person confirmed through the e-mailed link (or, for an import, the consent date given). */
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    /** When the person last did anything with us, for the 18-month retention. */
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("blog_newsletter_subscribers_email_idx").on(sql`lower(${table.email})`),
    // The list's pages, all or by state (decision 0130): the date, then the id that breaks ties.
    index("blog_newsletter_subscribers_date_idx").on(table.subscribedAt, table.id),
    index("blog_newsletter_subscribers_status_idx").on(table.status, table.subscribedAt, table.id),
    check(
      "blog_newsletter_subscribers_status_check",
      sql`${table.status} in ('pending', 'active', 'unsubscribed')`,
    ),
  ],
);

/** One newsletter: an article sent by e-mail to the active subscribers, once (one sending per article). */
export const newsletterSendings = pgTable(
  "newsletter_sendings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The article sent; null once the article is deleted (the sending's record stays). */
    articleId: uuid("article_id").references(() => blogArticles.id, { onDelete: "set null" }),
    /** What was sent, as it was sent: the subject, and the HTML and text with the unsubscribe placeholder. */
    subject: varchar("subject", { length: 300 }).notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    /** 'sending' while deliveries are pending, 'done' when none is. */
    status: varchar("status", { length: 20 })
      .$type<"sending" | "done">()
      .notNull()
      .default("sending"),
    total: integer("total").notNull().default(0),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("newsletter_sendings_article_idx")
      .on(table.articleId)
      .where(sql`${table.articleId} is not null`),
    index("newsletter_sendings_date_idx").on(table.createdAt.desc()),
  ],
);

/** One e-mail of a sending: to one subscriber, sent once. The queue's jobs carry batches of them. */
export const newsletterDeliveries = pgTable(
  "newsletter_deliveries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    sendingId: uuid("sending_id")
      .notNull()
      .references(() => newsletterSendings.id, { onDelete: "cascade" }),
    /** Null once the subscriber is deleted: the delivery's outcome stays counted. */
    subscriberId: uuid("subscriber_id").references(() => blogNewsletterSubscribers.id, {
      onDelete: "set null",
    }),
    /** The job that carries it: deliveries are sent in batches. */
    batch: integer("batch").notNull(),
    status: varchar("status", { length: 20 })
      .$type<"pending" | "sent" | "failed" | "skipped">()
      .notNull()
      .default("pending"),
    attempts: smallint("attempts").notNull().default(0),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    error: text("error"),
  },
  (table) => [
    uniqueIndex("newsletter_deliveries_subscriber_idx").on(table.sendingId, table.subscriberId),
    // Deleting a subscriber sets their deliveries' subscriber to null: found by this index, not a scan.
    index("newsletter_deliveries_subscriber_only_idx").on(table.subscriberId),
    index("newsletter_deliveries_batch_idx").on(table.sendingId, table.batch, table.status),
  ],
);

/** The last failed attempts to send an e-mail, in French, for the admin (kept 30 days). */
export const mailFailures = pgTable(
  "mail_failures",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** 'newsletter', 'confirmation', 'contact' or 'admin'. */
    kind: varchar("kind", { length: 30 }).notNull(),
    recipient: varchar("recipient", { length: 255 }),
    /** What happened, in French, for the owner. */
    error: text("error").notNull(),
    /** False when the e-mail will be tried again; true when it is given up. */
    final: boolean("final").notNull().default(false),
    /** The outbox's job of the e-mail (pg-boss's id): what an order's history says of each e-mail. */
    jobId: uuid("job_id"),
  },
  (table) => [
    index("mail_failures_date_idx").on(table.at.desc()),
    index("mail_failures_job_idx")
      .on(table.jobId)
      .where(sql`${table.jobId} is not null`),
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
    /** The form's spam trap was filled in: a bot most likely, or a visitor's autofill. Never e-mailed. */
    suspectedSpam: boolean("suspected_spam").notNull().default(false),
  },
  // The list's pages (decision 0130): the date, then the id that breaks ties.
  (table) => [index("contact_messages_date_idx").on(table.createdAt, table.id)],
);

/** Fixed-window counters for rate limits, shared by every app process. */
export const rateLimits = pgTable("rate_limits", {
  key: varchar("key", { length: 300 }).primaryKey(),
  count: integer("count").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
});

/*
 * Sign-in (better-auth, decision 0040). Column names follow better-auth's fields; the adapter maps its models
 * (user, session, account, verification, twoFactor) to these tables. `role` decides who is an administrator.
 */
const authTimestamps = () => ({
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: varchar("email", { length: 255 }).notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: varchar("role", { length: 20 }).notNull().default("user"),
  twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
  ...authTimestamps(),
});

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...authTimestamps(),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...authTimestamps(),
  },
  (table) => [index("accounts_user_idx").on(table.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...authTimestamps(),
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

export const twoFactors = pgTable(
  "two_factors",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (table) => [
    index("two_factors_user_idx").on(table.userId),
    index("two_factors_secret_idx").on(table.secret),
  ],
);

/*
 * The business's facts, edited from the admin (decision 0070). Shapes of the JSON documents are the zod schemas
 * of app/content/schemas.ts, which every write goes through. Every change raises `content_version`
 * (migration 0008), like articles do, so cached pages follow at once.
 */

/** One JSON document per subject: identity, legal details, prices, gendarmerie offer, photos… */
export const siteDocuments = pgTable("site_documents", {
  key: varchar("key", { length: 60 }).primaryKey(),
  data: jsonb("data").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The studios: each gets /studio-{slug} and /contact-studio-{slug} while it is not retired. */
export const studios = pgTable(
  "studios",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: varchar("slug", { length: 60 }).notNull().unique(),
    position: smallint("position").notNull().default(0),
    /** A retired studio keeps its messages but leaves the site: no page, menu entry or contact form. */
    retiredAt: timestamp("retired_at", { withTimezone: true }),
    data: jsonb("data").notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("studios_slug_check", sql`${table.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`)],
);

/**
 * The media library: every photo a page can show. A demo photo of the build (`builtin`, the name of its
 * file in app/assets/photos) or an upload, stored as `{file}-{width}.{avif,webp,jpg}` in
 * DATA_DIR/uploads/media at the widths of `widths`.
 */
export const media = pgTable(
  "media",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    builtin: varchar("builtin", { length: 100 }).unique(),
    file: varchar("file", { length: 100 }).unique(),
    widths: integer("widths")
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    alt: varchar("alt", { length: 300 }).notNull(),
    focalX: smallint("focal_x").notNull().default(50),
    focalY: smallint("focal_y").notNull().default(50),
    /** The dominant colour (#rrggbb), shown while the photo loads. */
    colour: varchar("colour", { length: 7 }).notNull().default("#d6d3d1"),
    originalName: varchar("original_name", { length: 255 }),
    bytes: integer("bytes").notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [
    check("media_one_source", sql`(${table.builtin} is null) <> (${table.file} is null)`),
    check(
      "media_focal_check",
      sql`${table.focalX} between 0 and 100 and ${table.focalY} between 0 and 100`,
    ),
    index("media_date_idx").on(table.createdAt.desc()),
  ],
);

/** Old addresses answered with a permanent redirect (301) to a page of the site. */
export const redirects = pgTable("redirects", {
  id: uuid("id").primaryKey().defaultRandom(),
  fromPath: varchar("from_path", { length: 500 }).notNull().unique(),
  toPath: varchar("to_path", { length: 500 }).notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every version of every document and studio, newest last: who saved it, when, and the whole value, so
 * that the owner can see what changed and bring an earlier version back. `subject` is `document:{key}` or
 * `studio:{id}`.
 */
export const contentRevisions = pgTable(
  "content_revisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subject: varchar("subject", { length: 80 }).notNull(),
    data: jsonb("data").notNull(),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    /** The author's name at the time (kept when the account is deleted); « Données de démonstration » for the seed. */
    authorName: varchar("author_name", { length: 255 }).notNull(),
    /** What the change was, in the owner's words (« Restauration de la version du … »). */
    summary: varchar("summary", { length: 300 }).notNull().default(""),
    createdAt: createdAt(),
  },
  (table) => [index("content_revisions_subject_idx").on(table.subject, table.createdAt.desc())],
);

/**
 * Unsaved values the owner asked to preview (« Prévisualiser »): a public page opened with `?apercu={id}` by
 * an administrator shows this value in place of the saved one. Kept one day.
 */
export const contentPreviews = pgTable("content_previews", {
  id: uuid("id").primaryKey().defaultRandom(),
  subject: varchar("subject", { length: 80 }).notNull(),
  data: jsonb("data").notNull(),
  authorId: text("author_id").references(() => users.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
});

/** A photo of a client gallery moves through these states; only `ready` photos reach the client. */
export const GALLERY_PHOTO_STATUSES = ["uploaded", "processing", "ready", "failed"] as const;
export type GalleryPhotoStatus = (typeof GALLERY_PHOTO_STATUSES)[number];

/**
 * A client gallery (decision 0103): photos delivered privately after a session, reached at /galerie-client/{id}
 * with an access code. `id` is the client's unguessable address; the code is the second factor, stored
 * readable because the owner reads it to the client on the phone. `access_version` grows when the code
 * changes, which voids every client's cookie. Files live in the storage module under `galleries/{id}/`.
 */
export const galleries = pgTable(
  "galleries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: varchar("title", { length: 200 }).notNull(),
    clientName: varchar("client_name", { length: 200 }).notNull(),
    clientEmail: varchar("client_email", { length: 255 }).notNull(),
    /** The studio that answers the client: reply-to, signature and the address of the selection e-mail. */
    studioId: uuid("studio_id").references(() => studios.id, { onDelete: "set null" }),
    sessionDate: date("session_date", { mode: "string" }),
    /** The end of the expiry day (Europe/Paris): from then on the client reads « Cette galerie a expiré ». */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** When the retention job deletes the gallery and its files; never before the expiry. */
    purgeAt: timestamp("purge_at", { withTimezone: true }).notNull(),
    accessCode: varchar("access_code", { length: 16 }).notNull(),
    accessVersion: integer("access_version").notNull().default(1),
    downloadsAllowed: boolean("downloads_allowed").notNull().default(false),
    watermark: boolean("watermark").notNull().default(false),
    /** Grows when the web sizes must be made again (watermark on or off); part of their file names. */
    variantRevision: integer("variant_revision").notNull().default(1),
    coverPhotoId: uuid("cover_photo_id").references((): AnyPgColumn => galleryPhotos.id, {
      onDelete: "set null",
    }),
    /** Where the cover stays centred when its box crops it, in % of its width and height (decision 0134). */
    coverFocalX: smallint("cover_focal_x").notNull().default(50),
    coverFocalY: smallint("cover_focal_y").notNull().default(50),
    /** When the mail server accepted the last invitation, and for which address. */
    invitationSentAt: timestamp("invitation_sent_at", { withTimezone: true }),
    invitationSentTo: varchar("invitation_sent_to", { length: 255 }),
    /** When the owner last asked for the invitation: it leaves through the mail queue, later. */
    invitationRequestedAt: timestamp("invitation_requested_at", { withTimezone: true }),
    /**
     * The photos the client's package includes (decision 0184): null, every photo (as before sales);
     * otherwise that many of her validated selection, the others sold at `extra_photo_price_cents` each
     * or all together at `all_photos_price_cents` (TTC, cents), whichever is cheaper.
     */
    includedPhotos: integer("included_photos"),
    extraPhotoPriceCents: integer("extra_photo_price_cents"),
    allPhotosPriceCents: integer("all_photos_price_cents"),
    /** Set when the client validated the selection: favourites and comments are locked from then on. */
    selectionValidatedAt: timestamp("selection_validated_at", { withTimezone: true }),
    /**
     * While the owner has reopened the selection (decision 0184): the photos its package included at its
     * last validation, which stay the client's until she validates again; null otherwise.
     */
    packagePhotoIds: uuid("package_photo_ids").array(),
    lastClientActivityAt: timestamp("last_client_activity_at", { withTimezone: true }),
    /** The retention (or the owner) started deleting it: it answers 404 from then on. */
    deletingAt: timestamp("deleting_at", { withTimezone: true }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("galleries_purge_after_expiry", sql`${table.purgeAt} >= ${table.expiresAt}`),
    check(
      "galleries_photo_sales_check",
      sql`(${table.includedPhotos} is null or ${table.includedPhotos} >= 0) and (${table.extraPhotoPriceCents} is null or ${table.extraPhotoPriceCents} > 0) and (${table.allPhotosPriceCents} is null or ${table.allPhotosPriceCents} > 0)`,
    ),
    check(
      "galleries_cover_focal_check",
      sql`${table.coverFocalX} between 0 and 100 and ${table.coverFocalY} between 0 and 100`,
    ),
    index("galleries_purge_idx").on(table.purgeAt),
    // The admin list's pages (decision 0130): the date, then the id that breaks ties.
    index("galleries_date_idx").on(table.createdAt, table.id),
  ],
);

/**
 * The photos of a gallery, in `position` order. The owner's upload is kept as `upload.{ext}` until the
 * processing writes the cleaned delivery original (no GPS; HEIC becomes JPEG) with its size and CRC-32 (the
 * ZIP needs both before streaming), the web sizes and the placeholder.
 */
export const galleryPhotos = pgTable(
  "gallery_photos",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    galleryId: uuid("gallery_id")
      .notNull()
      .references(() => galleries.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    originalName: varchar("original_name", { length: 255 }).notNull(),
    status: varchar("status", { length: 12 })
      .$type<GalleryPhotoStatus>()
      .notNull()
      .default("uploaded"),
    /** Why the processing failed, in French, for the owner. */
    error: varchar("error", { length: 300 }),
    /** jpg, png or heic: the upload's format. */
    sourceExtension: varchar("source_extension", { length: 5 }).notNull(),
    /** Upright dimensions (after the orientation tag). */
    width: integer("width"),
    height: integer("height"),
    /** The web widths written (never enlarged), for `variant_revision`. */
    widths: integer("widths")
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    variantRevision: integer("variant_revision").notNull().default(0),
    originalBytes: bigint("original_bytes", { mode: "number" }),
    originalCrc32: bigint("original_crc32", { mode: "number" }),
    /** jpg or png: the delivery original's format. */
    originalExtension: varchar("original_extension", { length: 5 }),
    thumbhash: varchar("thumbhash", { length: 48 }),
    colour: varchar("colour", { length: 7 }),
    favourite: boolean("favourite").notNull().default(false),
    favouriteComment: varchar("favourite_comment", { length: 1000 }),
    favouritedAt: timestamp("favourited_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    check(
      "gallery_photos_status_check",
      sql`${table.status} in ('uploaded', 'processing', 'ready', 'failed')`,
    ),
    index("gallery_photos_order_idx").on(table.galleryId, table.position),
    index("gallery_photos_favourites_idx")
      .on(table.galleryId)
      .where(sql`${table.favourite}`),
  ],
);

/**
 * An upload in pieces (resumable after a dropped connection): the parts received so far and where they go in
 * the storage module. Found again by gallery, name, size and modification date when the owner drops the same
 * files after a reload. Removed 48 hours after its last part when never completed.
 */
export const resumableUploads = pgTable(
  "resumable_uploads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    galleryId: uuid("gallery_id").references(() => galleries.id, { onDelete: "cascade" }),
    /** The photo row made at completion. */
    photoId: uuid("photo_id"),
    fileName: varchar("file_name", { length: 255 }).notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    contentType: varchar("content_type", { length: 100 }).notNull(),
    lastModified: bigint("last_modified", { mode: "number" }),
    chunkSize: integer("chunk_size").notNull(),
    received: bigint("received", { mode: "number" }).notNull().default(0),
    storageKey: varchar("storage_key", { length: 300 }).notNull(),
    storageUploadId: text("storage_upload_id").notNull(),
    /** The parts' ETags, numbered from 1 (S3 needs them to complete; not every store lists them). */
    parts: jsonb("parts").$type<{ part: number; etag: string }[]>().notNull().default([]),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (table) => [
    index("resumable_uploads_match_idx").on(
      table.galleryId,
      table.fileName,
      table.size,
      table.lastModified,
    ),
    index("resumable_uploads_stale_idx")
      .on(table.updatedAt)
      .where(sql`${table.completedAt} is null`),
  ],
);

/*
 * Online booking (decision record 0113). Bookings are instants; what each one occupies (its studio,
 * its photographer, its buffers, the travel that keeps the photographer from other studios) is a set of
 * time ranges in `booking_occupancies`, under exclusion constraints that migration 0017 adds by hand: a slot
 * can never be sold twice, whatever the timing or the number of app servers.
 */

/** PostgreSQL's range of timestamptz, `[start, end)`; drizzle has none of its own. */
const tstzrange = customType<{ data: string }>({ dataType: () => "tstzrange" });

/** The people who do the sessions. One is made for the owner when there is none (app/server/booking/seed). */
export const photographers = pgTable("photographers", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: varchar("name", { length: 100 }).notNull(),
  /** An inactive photographer keeps the bookings made with her but gets no new one. */
  active: boolean("active").notNull().default(true),
  position: smallint("position").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The studios each photographer works at: bookings of a studio go to one of its photographers. */
export const photographerStudios = pgTable(
  "photographer_studios",
  {
    photographerId: uuid("photographer_id")
      .notNull()
      .references(() => photographers.id, { onDelete: "cascade" }),
    studioId: uuid("studio_id")
      .notNull()
      .references(() => studios.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.photographerId, table.studioId] }),
    index("photographer_studios_studio_idx").on(table.studioId),
  ],
);

/**
 * The owner's travel time between two studios, the same both ways: one row per pair, the smaller id first.
 * A pair without a row counts UNKNOWN_TRAVEL_MINUTES (app/lib/booking/model.ts).
 */
export const travelTimes = pgTable(
  "travel_times",
  {
    studioA: uuid("studio_a")
      .notNull()
      .references(() => studios.id, { onDelete: "cascade" }),
    studioB: uuid("studio_b")
      .notNull()
      .references(() => studios.id, { onDelete: "cascade" }),
    minutes: integer("minutes").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.studioA, table.studioB] }),
    check("travel_times_pair_order", sql`${table.studioA} < ${table.studioB}`),
    check("travel_times_minutes_check", sql`${table.minutes} between 0 and 1440`),
  ],
);

/** What a visitor books: « Séance portrait, 1 h, 129 € ». The JSON columns' shapes: app/lib/booking/session-types.ts. */
export const sessionTypes = pgTable(
  "session_types",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: varchar("slug", { length: 100 }).notNull().unique(),
    name: varchar("name", { length: 150 }).notNull(),
    description: text("description").notNull().default(""),
    photoId: uuid("photo_id").references(() => media.id, { onDelete: "set null" }),
    durationMinutes: integer("duration_minutes").notNull(),
    bufferBeforeMinutes: integer("buffer_before_minutes").notNull().default(0),
    bufferAfterMinutes: integer("buffer_after_minutes").notNull().default(0),
    priceText: varchar("price_text", { length: 200 }).notNull().default(""),
    includedText: text("included_text").notNull().default(""),
    minimumNoticeHours: integer("minimum_notice_hours").notNull().default(24),
    horizonDays: integer("horizon_days").notNull().default(90),
    stepMinutes: integer("step_minutes").notNull().default(30),
    mode: varchar("mode", { length: 10 }).$type<SessionMode>().notNull().default("instant"),
    /** How long the owner has to answer a request; its slot is held until then. */
    responseDeadlineHours: integer("response_deadline_hours").notNull().default(48),
    /** « Acompte de 30 € à régler au studio » (no card payment); null: none. */
    depositText: text("deposit_text"),
    /** The deposit paid online when booking (app/lib/booking/deposit.ts, decision 0186); null: none. */
    deposit: jsonb("deposit").$type<DepositRule>(),
    visibility: varchar("visibility", { length: 10 })
      .$type<SessionVisibility>()
      .notNull()
      .default("public"),
    /** The secret of a private type's link (`visibility` private): who has it may book it. */
    privateToken: varchar("private_token", { length: 64 }).unique(),
    questions: jsonb("questions").$type<BookingQuestion[]>().notNull().default([]),
    /** Per weekday, hours replacing the studio's for this type; null: the studio's hours. */
    bookableHours: jsonb("bookable_hours").$type<BookableHours>(),
    /** A client may cancel or move until this many hours before the start. */
    cancellationCutoffHours: integer("cancellation_cutoff_hours").notNull().default(48),
    position: smallint("position").notNull().default(0),
    /** An archived type is no longer offered; its bookings keep it. */
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("session_types_slug_check", sql`${table.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    check("session_types_mode_check", sql`${table.mode} in ('instant', 'request')`),
    check("session_types_visibility_check", sql`${table.visibility} in ('public', 'private')`),
    check(
      "session_types_private_token_check",
      sql`${table.visibility} = 'public' or ${table.privateToken} is not null`,
    ),
    check(
      "session_types_minutes_check",
      sql`${table.durationMinutes} between 5 and 1440 and ${table.bufferBeforeMinutes} between 0 and 600 and ${table.bufferAfterMinutes} between 0 and 600 and ${table.stepMinutes} between 5 and 720`,
    ),
    check(
      "session_types_hours_check",
      sql`${table.minimumNoticeHours} between 0 and 8760 and ${table.horizonDays} between 1 and 730 and ${table.responseDeadlineHours} between 1 and 720 and ${table.cancellationCutoffHours} between 0 and 8760`,
    ),
  ],
);

/** The studios that offer each session type. */
export const sessionTypeStudios = pgTable(
  "session_type_studios",
  {
    sessionTypeId: uuid("session_type_id")
      .notNull()
      .references(() => sessionTypes.id, { onDelete: "cascade" }),
    studioId: uuid("studio_id")
      .notNull()
      .references(() => studios.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.sessionTypeId, table.studioId] }),
    index("session_type_studios_studio_idx").on(table.studioId),
  ],
);

/**
 * A booking: one session of one type, at one studio, with one photographer, between two instants. Its
 * buffers are copied from the type when it is made, so that a later change of the type does not move what
 * an existing booking occupies. The client's manage link holds a random token; only its SHA-256 is kept.
 */
export const bookings = pgTable(
  "bookings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionTypeId: uuid("session_type_id")
      .notNull()
      .references(() => sessionTypes.id, { onDelete: "restrict" }),
    studioId: uuid("studio_id")
      .notNull()
      .references(() => studios.id, { onDelete: "restrict" }),
    photographerId: uuid("photographer_id")
      .notNull()
      .references(() => photographers.id, { onDelete: "restrict" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    bufferBeforeMinutes: integer("buffer_before_minutes").notNull().default(0),
    bufferAfterMinutes: integer("buffer_after_minutes").notNull().default(0),
    state: varchar("state", { length: 20 }).$type<BookingState>().notNull(),
    /**
     * A request's answer deadline, or the end of an awaited deposit's payment window (decision 0186): until
     * then it holds its slot (see booking_occupancies.holds_until).
     */
    respondBy: timestamp("respond_by", { withTimezone: true }),
    source: varchar("source", { length: 10 }).$type<BookingSource>().notNull().default("client"),
    clientName: varchar("client_name", { length: 200 }).notNull(),
    /** Empty for a booking the owner took by phone without an address (decision 0138): no e-mail goes. */
    clientEmail: varchar("client_email", { length: 255 }).notNull(),
    clientPhone: varchar("client_phone", { length: 30 }).notNull().default(""),
    /** Answers to the type's questions, by question id (app/lib/booking/session-types.ts). */
    answers: jsonb("answers").$type<Record<string, string>>().notNull().default({}),
    /** The owner's own note on a booking she took by phone (decision 0138): never shown to the client. */
    internalNote: text("internal_note").notNull().default(""),
    /**
     * False: the site never e-mails the client about this booking (the owner took it by phone without an
     * address, or ticked « Ne pas envoyer d'e-mail au client », decision 0138).
     */
    clientMail: boolean("client_mail").notNull().default(true),
    /** When the client accepted the terms (null for a booking the owner took by phone). */
    consentAt: timestamp("consent_at", { withTimezone: true }),
    /** SHA-256 (hex) of the client's manage token. */
    manageTokenHash: varchar("manage_token_hash", { length: 64 }).notNull().unique(),
    /**
     * SHA-256 (hex) of the visitor's booking form's key: the same form posted twice finds this booking.
     * Null by phone.
     */
    idempotencyKey: varchar("idempotency_key", { length: 100 }).unique(),
    /**
     * SHA-256 (hex) of what that form posted (its time and fields): the same key with other content (a
     * page shown again by « Précédent », then changed) is refused instead of answered with this booking.
     */
    requestFingerprint: varchar("request_fingerprint", { length: 64 }),
    /** The calendar event's SEQUENCE: grows with every move and the cancellation. */
    icsSequence: integer("ics_sequence").notNull().default(0),
    /** The order of its deposit (decision 0186); null: none asked (yet). */
    depositOrderId: uuid("deposit_order_id").references(() => orders.id, { onDelete: "restrict" }),
    /** The deposit's rules as the client accepted them when she booked (decision 0186). */
    depositRules: jsonb("deposit_rules").$type<DepositRule>(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("bookings_times_check", sql`${table.endsAt} > ${table.startsAt}`),
    check(
      "bookings_state_check",
      sql`${table.state} in ('pending', 'awaiting_payment', 'confirmed', 'declined', 'expired', 'cancelled', 'no_show', 'done')`,
    ),
    check("bookings_source_check", sql`${table.source} in ('client', 'owner')`),
    check(
      "bookings_request_deadline_check",
      sql`${table.state} <> 'pending' or ${table.respondBy} is not null`,
    ),
    // The agenda's days, and the list view's pages (decision 0130): the start, then the id.
    index("bookings_starts_idx").on(table.startsAt, table.id),
    index("bookings_studio_starts_idx").on(table.studioId, table.startsAt),
    index("bookings_email_idx").on(table.clientEmail, table.createdAt.desc()),
    index("bookings_pending_idx")
      .on(table.respondBy)
      .where(sql`${table.state} = 'pending'`),
    index("bookings_deposit_order_idx").on(table.depositOrderId),
  ],
);

/** A booking's history: what happened, when, by whom (the agenda shows it). */
export const bookingEvents = pgTable(
  "booking_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bookingId: uuid("booking_id")
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    kind: varchar("kind", { length: 20 }).$type<BookingEventKind>().notNull(),
    actor: varchar("actor", { length: 10 }).$type<BookingActor>().notNull(),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Who it was at the time (the client's name, the administrator's), kept when an account goes. */
    actorName: varchar("actor_name", { length: 255 }).notNull().default(""),
    /** What changed: the times before and after a move, the owner's message to the client… */
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("booking_events_booking_idx").on(table.bookingId, table.at)],
);

/**
 * Time off the agenda: « congés » of a photographer (no studio), works at a studio (no photographer), or
 * « séance en extérieur » of a photographer seen from a studio (both). Occupies like a booking without buffers.
 */
export const blockedPeriods = pgTable(
  "blocked_periods",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studioId: uuid("studio_id").references(() => studios.id, { onDelete: "cascade" }),
    photographerId: uuid("photographer_id").references(() => photographers.id, {
      onDelete: "cascade",
    }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    label: varchar("label", { length: 200 }).notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (table) => [
    check("blocked_periods_times_check", sql`${table.endsAt} > ${table.startsAt}`),
    check(
      "blocked_periods_subject_check",
      sql`${table.studioId} is not null or ${table.photographerId} is not null`,
    ),
    index("blocked_periods_starts_idx").on(table.startsAt),
  ],
);

/**
 * What each active booking (pending or confirmed) and each blocked period occupies, as time ranges: a real
 * row (its studio and photographer, buffers included) and, for every other studio, a travel margin (`real`
 * false: the photographer cannot be there then). Migration 0017's exclusion constraints forbid two real
 * rows of one studio or one photographer at once, and a real row of a photographer at a studio inside one of
 * her margins there. Rows go with their booking's state change, in the same transaction.
 */
export const bookingOccupancies = pgTable(
  "booking_occupancies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bookingId: uuid("booking_id").references(() => bookings.id, { onDelete: "cascade" }),
    blockedPeriodId: uuid("blocked_period_id").references(() => blockedPeriods.id, {
      onDelete: "cascade",
    }),
    studioId: uuid("studio_id").references(() => studios.id, { onDelete: "cascade" }),
    photographerId: uuid("photographer_id").references(() => photographers.id, {
      onDelete: "cascade",
    }),
    during: tstzrange("during").notNull(),
    real: boolean("real").notNull(),
    /**
     * A request holds its slot until its answer deadline; past it, the rows no longer count for free slots
     * and the next booking's transaction deletes them (an accept then takes the slot again if still free).
     */
    holdsUntil: timestamp("holds_until", { withTimezone: true }),
  },
  (table) => [
    check(
      "booking_occupancies_owner_check",
      sql`(${table.bookingId} is null) <> (${table.blockedPeriodId} is null)`,
    ),
    check(
      "booking_occupancies_subject_check",
      sql`${table.studioId} is not null or ${table.photographerId} is not null`,
    ),
    check("booking_occupancies_during_check", sql`not isempty(${table.during})`),
    index("booking_occupancies_booking_idx").on(table.bookingId),
    index("booking_occupancies_blocked_idx").on(table.blockedPeriodId),
    index("booking_occupancies_lapsing_idx")
      .on(table.holdsUntil)
      .where(sql`${table.holdsUntil} is not null`),
  ],
);

/**
 * The reminders sent (48 h and 2 h before, decision 0115), one row per booking, kind and start: the job
 * writes the row and queues the e-mail in one transaction, so a reminder never leaves twice; a booking moved
 * to another start is reminded again for its new time.
 */
export const bookingReminders = pgTable(
  "booking_reminders",
  {
    bookingId: uuid("booking_id")
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    kind: varchar("kind", { length: 5 }).$type<"48h" | "2h">().notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.bookingId, table.kind, table.startsAt] }),
    check("booking_reminders_kind_check", sql`${table.kind} in ('48h', '2h')`),
  ],
);

/** How far a run is: a backup's tables then files; a restore's steps (the safety backup's own progress). */
export type BackupRunProgress = {
  step: "tables" | "files" | "download" | "check" | "safety" | "restore";
  done: number;
  total: number;
};

/** What a check (or a restore) of an archive found, for the owner's page. */
export type BackupRunReport = {
  createdAt: string;
  encrypted: boolean;
  tables: number;
  rows: number;
  files: number;
  bytes: number;
  counts: Record<string, number>;
  /** The archive's migration level (how many of the site's migrations it was taken after). */
  migrations?: { count: number; last: string | null };
  /** A restore: the safety backup taken of the site just before. */
  safetyBackup?: string | null;
};

/**
 * Each backup the site ran (decision 0117): when, why (the nightly schedule, « Sauvegarder maintenant », the
 * safety backup before a restore), how it went and how far it is. Not itself backed up nor restored: after a
 * restore it still tells the site's real history of backups.
 */
export const backupRuns = pgTable(
  "backup_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /**
     * What ran (decision 0118): a backup, the check of one (« Vérifier cette sauvegarde ») or the restore
     * of one; for the last two `file` is the archive they read and `report` what they found.
     */
    kind: varchar("kind", { length: 20 })
      .notNull()
      .default("backup")
      .$type<"backup" | "check" | "restore">(),
    reason: varchar("reason", { length: 20 }).notNull().$type<"schedule" | "manual" | "safety">(),
    /** `queued`: asked from the page, waiting for the job queue (one backup, check or restore at a time). */
    status: varchar("status", { length: 20 })
      .notNull()
      .default("running")
      .$type<"queued" | "running" | "done" | "failed">(),
    /** Who asked (« Sauvegarder maintenant »), by name: kept when the account goes, never a foreign key (a
     * restore replaces the users, not this history). */
    requestedBy: varchar("requested_by", { length: 255 }),
    /**
     * Where it was started (decision 0143): by the site's server (the page's request or the nightly job, run
     * by the `backup` queue) or by `npm run backup` / `npm run restore` in a process of its own, which the
     * page shows as « ligne de commande ».
     */
    origin: varchar("origin", { length: 20 })
      .notNull()
      .default("server")
      .$type<"server" | "command-line">(),
    /** The archive's file name once written. */
    file: varchar("file", { length: 200 }),
    bytes: bigint("bytes", { mode: "number" }),
    /** What went wrong, for the owner and the operator. */
    error: text("error"),
    /** How far it is: tables and files done out of how many (a restore: its step). */
    progress: jsonb("progress").$type<BackupRunProgress>(),
    /** What a check or a restore found (BackupRunReport). */
    report: jsonb("report").$type<BackupRunReport>(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [index("backup_runs_started_idx").on(table.startedAt.desc())],
);

/**
 * The files of a restore waiting under their staging prefix (decision 0128): written in the restore's own
 * transaction, so a row exists exactly when the tables that name those files were committed. The files are
 * then moved to their keys and the row deleted; a process killed in between leaves the row, and the next
 * backup, restore or look at the backups finishes the move. Not backed up, never restored.
 */
export const restoreFileSwitches = pgTable("restore_file_switches", {
  prefix: varchar("prefix", { length: 100 }).primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The administrators who asked for a download link by e-mail each month (decision 0139), and the last month
 * (YYYY-MM, Paris) whose e-mail was queued: the job claims a month by moving `last_month` to it in the
 * transaction that queues the e-mail, so one month gives one e-mail, however many servers run the job. No
 * foreign key and not backed up: a restore replaces `users` and must not bring back an older month, which
 * would send this month's e-mail again.
 */
export const backupLinkMails = pgTable("backup_link_mails", {
  userId: text("user_id").primaryKey(),
  /** Switched off, the row stays: switched on again the same month, the month stays claimed. */
  enabled: boolean("enabled").notNull().default(true),
  createdAt: createdAt(),
  lastMonth: varchar("last_month", { length: 7 }),
  /** When the mail server accepted the last one (shown on the page). */
  lastSentAt: timestamp("last_sent_at", { withTimezone: true }),
});

/**
 * The owner's own calendar feed of every booking (decision 0116): a secret address to subscribe to from her
 * phone. Only the SHA-256 of its token is kept; « Générer un nouveau lien » replaces the row, so the old
 * address stops working at once.
 */
export const bookingCalendarFeeds = pgTable("booking_calendar_feeds", {
  id: uuid("id").primaryKey().defaultRandom(),
  tokenHash: varchar("token_hash", { length: 64 }).notNull().unique(),
  createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

/**
 * A photographer's own calendar (an iCal address the owner gives, decision 0116): its busy times are imported
 * every 15 minutes into `booking_external_busy` so that no one books her when she is taken elsewhere.
 */
export const bookingExternalCalendars = pgTable("booking_external_calendars", {
  id: uuid("id").primaryKey().defaultRandom(),
  photographerId: uuid("photographer_id")
    .notNull()
    .unique()
    .references(() => photographers.id, { onDelete: "cascade" }),
  url: text("url").notNull(),
  lastSyncedAt: timestamp("last_synced_at", { withTimezone: true }),
  /** Why the last import failed, in French for the settings page; null after a success. */
  lastError: text("last_error"),
  createdAt: createdAt(),
});

/** The busy times of the photographers' own calendars, as of their last import (replaced at each). */
export const bookingExternalBusy = pgTable(
  "booking_external_busy",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    calendarId: uuid("calendar_id")
      .notNull()
      .references(() => bookingExternalCalendars.id, { onDelete: "cascade" }),
    photographerId: uuid("photographer_id")
      .notNull()
      .references(() => photographers.id, { onDelete: "cascade" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    check("booking_external_busy_times_check", sql`${table.endsAt} > ${table.startsAt}`),
    index("booking_external_busy_photographer_idx").on(table.photographerId, table.startsAt),
  ],
);

/*
 * Payments (decision 0162): orders, their lines, the attempts to pay them, the providers' webhook inbox,
 * refunds and the append-only money journal. Amounts are integer cents, the currency EUR. Every enumerated
 * column is checked against the lists of app/lib/payments/model.ts.
 */

/** `column in ('a', 'b')` for a check constraint, from one of the model's lists. */
const oneOf = (values: readonly string[]) =>
  sql.raw(`(${values.map((value) => `'${value}'`).join(", ")})`);

/** How a journal row's money moved: a way of paying, or how the owner was paid offline. */
export const JOURNAL_METHODS = [...new Set([...PAYMENT_METHODS, ...OFFLINE_MEANS])];

/**
 * What a buyer ordered and where its payment stands. The amount is the order's, never a provider's; the
 * buyer reaches it from /commande/{token}, of which only the SHA-256 is kept. Orders are accounting
 * records: kept 10 years, never in the personal-data purge (decision 0162).
 */
export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: varchar("kind", { length: 20 }).$type<OrderKind>().notNull(),
    status: varchar("status", { length: 20 })
      .$type<OrderStatus>()
      .notNull()
      .default("awaiting_payment"),
    amountCents: integer("amount_cents").notNull(),
    currency: varchar("currency", { length: 3 }).notNull().default("EUR"),
    method: varchar("method", { length: 10 }).$type<PaymentMethod>().notNull(),
    buyerName: varchar("buyer_name", { length: 200 }).notNull(),
    buyerEmail: varchar("buyer_email", { length: 255 }).notNull(),
    buyerPhone: varchar("buyer_phone", { length: 30 }).notNull().default(""),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }).notNull(),
    /** The withdrawal and cancellation rules as the buyer saw them when ordering. */
    rulesSnapshot: jsonb("rules_snapshot").$type<Record<string, unknown>>().notNull(),
    /** SHA-256 (hex) of the order page's token (as bookings.manage_token_hash). */
    tokenHash: varchar("token_hash", { length: 64 }).notNull().unique(),
    /** The order form's key: a second submit of the same form finds this order instead of a new one. */
    idempotencyKey: varchar("idempotency_key", { length: 100 }).notNull().unique(),
    /**
     * SHA-256 (hex) of what the form asked for: the same key posted with other content (a form shown again
     * by the browser's « Précédent », then changed) is refused instead of answered with this order. Null
     * for orders made before it was kept.
     */
    requestFingerprint: varchar("request_fingerprint", { length: 64 }),
    /** What the buyer writes on a transfer (`BC-7K3Q`); null for the other methods. */
    transferReference: varchar("transfer_reference", { length: 16 }).unique(),
    /** When an unpaid order is released: the transfer's deadline, a card checkout's end; null at the studio. */
    payBy: timestamp("pay_by", { withTimezone: true }),
    /** Paid after it had expired or been called off (the money is real: applied, shown to the owner). */
    latePayment: boolean("late_payment").notNull().default(false),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    studioId: uuid("studio_id").references(() => studios.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("orders_amount_check", sql`${table.amountCents} > 0`),
    check("orders_currency_check", sql`${table.currency} = 'EUR'`),
    check("orders_kind_check", sql`${table.kind} in ${oneOf(ORDER_KINDS)}`),
    check("orders_status_check", sql`${table.status} in ${oneOf(ORDER_STATUSES)}`),
    check("orders_method_check", sql`${table.method} in ${oneOf(PAYMENT_METHODS)}`),
    check(
      "orders_transfer_reference_check",
      sql`${table.method} <> 'transfer' or ${table.transferReference} is not null`,
    ),
    check("orders_paid_at_check", sql`${table.status} <> 'paid' or ${table.paidAt} is not null`),
    // The admin's list, newest first, paged by (created_at, id) (decision 0130).
    index("orders_created_idx").on(table.createdAt, table.id),
    index("orders_status_created_idx").on(table.status, table.createdAt),
    // The expiry job: unpaid orders past their deadline.
    index("orders_unpaid_pay_by_idx")
      .on(table.payBy)
      .where(sql`${table.status} = 'awaiting_payment'`),
  ],
);

/** What an order holds, as the buyer's page and a future invoice show it; prices TTC. */
export const orderLines = pgTable(
  "order_lines",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    position: smallint("position").notNull(),
    label: varchar("label", { length: 300 }).notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    /** TVA in basis points (2000 = 20 %); null: no TVA (franchise en base, article 293 B du CGI). */
    vatRate: integer("vat_rate"),
    /** A gift voucher's TVA treatment (single- or multi-purpose); null for anything else. */
    voucherVatMode: varchar("voucher_vat_mode", { length: 10 }).$type<VoucherVatMode>(),
  },
  (table) => [
    check("order_lines_quantity_check", sql`${table.quantity} > 0`),
    check("order_lines_unit_price_check", sql`${table.unitPriceCents} >= 0`),
    check(
      "order_lines_vat_rate_check",
      sql`${table.vatRate} is null or ${table.vatRate} between 0 and 10000`,
    ),
    check(
      "order_lines_voucher_vat_mode_check",
      sql`${table.voucherVatMode} is null or ${table.voucherVatMode} in ${oneOf(VOUCHER_VAT_MODES)}`,
    ),
    uniqueIndex("order_lines_position_idx").on(table.orderId, table.position),
  ],
);

/**
 * One attempt to pay an order: a card checkout, a transfer awaited, a payment at the studio. Only
 * applyPaymentStatus changes its status, by compare-and-set.
 */
export const paymentAttempts = pgTable(
  "payment_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    provider: varchar("provider", { length: 10 }).$type<ProviderName>().notNull(),
    /** The provider's checkout (a Checkout Session id, a transfer reference); null until it answered. */
    providerReference: varchar("provider_reference", { length: 255 }),
    /** The payment itself (a PaymentIntent), which a refund names; null before the payment. */
    paymentReference: varchar("payment_reference", { length: 255 }),
    amountCents: integer("amount_cents").notNull(),
    status: varchar("status", { length: 10 }).$type<AttemptStatus>().notNull().default("open"),
    /** How the owner was paid, when she marked it paid. */
    means: varchar("means", { length: 15 }).$type<OfflineMeans>(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Sent with the provider's creation: a retried creation makes one checkout. */
    idempotencyKey: varchar("idempotency_key", { length: 100 }).notNull().unique(),
    redirectUrl: text("redirect_url"),
    /** Why a report was held for the owner (the provider's total or currency differs from ours). */
    heldReason: text("held_reason"),
    /**
     * What the provider said it took when the attempt was held (decision 0172): the amount the owner
     * accepts or refunds; null when it did not say (ours) or the attempt was never held.
     */
    heldAmountCents: integer("held_amount_cents"),
    heldCurrency: varchar("held_currency", { length: 3 }),
    /** Paid an order another attempt had already paid: its money is owed back to the buyer. */
    duplicate: boolean("duplicate").notNull().default(false),
    /** The last error of the provider's creation (the buyer may try again: a new attempt). */
    error: text("error"),
    succeededAt: timestamp("succeeded_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("payment_attempts_amount_check", sql`${table.amountCents} > 0`),
    check("payment_attempts_provider_check", sql`${table.provider} in ${oneOf(PROVIDER_NAMES)}`),
    check("payment_attempts_status_check", sql`${table.status} in ${oneOf(ATTEMPT_STATUSES)}`),
    check(
      "payment_attempts_means_check",
      sql`${table.means} is null or ${table.means} in ${oneOf(OFFLINE_MEANS)}`,
    ),
    uniqueIndex("payment_attempts_provider_reference_idx").on(
      table.provider,
      table.providerReference,
    ),
    index("payment_attempts_order_idx").on(table.orderId, table.createdAt),
    // The expiry and reconciliation jobs: attempts still open, by their end and their age.
    index("payment_attempts_open_expiry_idx")
      .on(table.expiresAt)
      .where(sql`${table.status} = 'open'`),
    index("payment_attempts_open_created_idx")
      .on(table.createdAt)
      .where(sql`${table.status} = 'open'`),
  ],
);

/** The payment state an inbox event carries (ProviderPaymentState), as stored. */
export type StoredPaymentState = {
  providerReference: string;
  status: ReportedStatus | "open";
  amountCents: number | null;
  currency: string | null;
  paymentReference: string | null;
};

/**
 * What an inbox event says of a refund (ProviderRefundState, decision 0171): one refund by its reference
 * (or our refund's id the provider carries), or — `refundReference` and `refundId` null — every refund
 * still pending on one payment, to ask the provider about.
 */
export type StoredRefundState = {
  refundReference: string | null;
  refundId: string | null;
  paymentReference: string | null;
  status: "pending" | "succeeded" | "failed" | null;
  failureReason: string | null;
};

/**
 * The providers' webhook inbox: each verified event once (provider + event id), applied by the job
 * `payments.apply-event`, which marks it processed or records why it failed (and retries).
 */
export const providerEvents = pgTable(
  "provider_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    provider: varchar("provider", { length: 10 }).$type<ProviderName>().notNull(),
    eventId: varchar("event_id", { length: 255 }).notNull(),
    type: varchar("type", { length: 100 }).notNull(),
    payload: jsonb("payload").notNull(),
    /** What it says of a checkout; null for an event about a refund (`refund`). */
    payment: jsonb("payment").$type<StoredPaymentState>(),
    /** What it says of a refund (decision 0171); null for an event about a checkout. */
    refund: jsonb("refund").$type<StoredRefundState>(),
    /** When the provider says the event happened. */
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
    /** What applying it answered (applied, already_applied, held…), for the order's timeline. */
    outcome: varchar("outcome", { length: 20 }),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
  },
  (table) => [
    check("provider_events_provider_check", sql`${table.provider} in ${oneOf(PROVIDER_NAMES)}`),
    check(
      "provider_events_subject_check",
      sql`${table.payment} is not null or ${table.refund} is not null`,
    ),
    uniqueIndex("provider_events_event_idx").on(table.provider, table.eventId),
    index("provider_events_unprocessed_idx")
      .on(table.receivedAt)
      .where(sql`${table.processedAt} is null`),
    index("provider_events_reference_idx").on(
      table.provider,
      sql`(${table.payment} ->> 'providerReference')`,
    ),
    index("provider_events_received_idx").on(table.provider, table.receivedAt),
    // An order's history finds the events about its payments' refunds (decision 0171).
    index("provider_events_refund_payment_idx")
      .on(sql`(${table.refund} ->> 'paymentReference')`)
      .where(sql`${table.refund} is not null`),
  ],
);

/**
 * Money given back: through the provider (`pending` until it confirms), or by the owner for an offline
 * payment (`to_refund_offline` until she marks it done). Never more than was paid, checked under the
 * order's lock.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    attemptId: uuid("attempt_id")
      .notNull()
      .references(() => paymentAttempts.id, { onDelete: "restrict" }),
    amountCents: integer("amount_cents").notNull(),
    reason: text("reason").notNull().default(""),
    status: varchar("status", { length: 20 }).$type<RefundStatus>().notNull(),
    providerReference: varchar("provider_reference", { length: 255 }),
    idempotencyKey: varchar("idempotency_key", { length: 100 }).notNull().unique(),
    error: text("error"),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("refunds_amount_check", sql`${table.amountCents} > 0`),
    check("refunds_status_check", sql`${table.status} in ${oneOf(REFUND_STATUSES)}`),
    index("refunds_order_idx").on(table.orderId, table.createdAt),
    index("refunds_open_idx")
      .on(table.createdAt)
      .where(sql`${table.status} in ('pending', 'to_refund_offline')`),
  ],
);

/**
 * The money journal: every euro in or out (payments, refunds, vouchers issued and redeemed), append-only
 * (a trigger refuses UPDATE, DELETE and TRUNCATE), each row's hash chained to the previous one's, and one
 * `closure` row per Paris day with its totals. References are plain uuids (no foreign key: the journal
 * outlives what it names and nothing cascades into it). Kept 10 years (decision 0162).
 */
export const moneyJournal = pgTable(
  "money_journal",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: varchar("kind", { length: 25 }).$type<JournalKind>().notNull(),
    orderId: uuid("order_id"),
    attemptId: uuid("attempt_id"),
    refundId: uuid("refund_id"),
    voucherId: uuid("voucher_id"),
    /** Signed: money in is positive, money out negative; 0 for a closure (its totals are in details). */
    amountCents: integer("amount_cents").notNull(),
    method: varchar("method", { length: 15 }),
    providerReference: varchar("provider_reference", { length: 255 }),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    /** The Paris day a closure row closes; null for the others. */
    day: date("day", { mode: "string" }),
    previousHash: varchar("previous_hash", { length: 64 }).notNull(),
    hash: varchar("hash", { length: 64 }).notNull().unique(),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (table) => [
    check("money_journal_kind_check", sql`${table.kind} in ${oneOf(JOURNAL_KINDS)}`),
    check(
      "money_journal_method_check",
      sql`${table.method} is null or ${table.method} in ${oneOf(JOURNAL_METHODS)}`,
    ),
    check(
      "money_journal_closure_day_check",
      sql`(${table.kind} = 'closure') = (${table.day} is not null)`,
    ),
    uniqueIndex("money_journal_closure_day_idx")
      .on(table.day)
      .where(sql`${table.kind} = 'closure'`),
    index("money_journal_at_idx").on(table.at),
    index("money_journal_order_idx").on(table.orderId),
  ],
);

/*
 * Gift vouchers (decision 0167): one per voucher order, issued (its code, `active`) when the order is paid,
 * redeemed by compare-and-set, never twice. `voucher_uses` lists every redemption (an amount's partial uses).
 */

export const VOUCHER_KINDS = ["session", "amount"] as const;
export const VOUCHER_STATUSES = [
  "awaiting_payment",
  "active",
  "used",
  "expired",
  "cancelled",
] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];
export const VOUCHER_SEND_TO = ["buyer", "recipient"] as const;
export const VOUCHER_USE_BY = ["owner", "client"] as const;

export const vouchers = pgTable(
  "vouchers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** 12 characters of Crockford base32 (decision 0164); null until the order is paid. */
    code: varchar("code", { length: 12 }).unique(),
    kind: varchar("kind", { length: 10 }).$type<(typeof VOUCHER_KINDS)[number]>().notNull(),
    sessionTypeId: uuid("session_type_id").references(() => sessionTypes.id, {
      onDelete: "set null",
    }),
    /** The studio it is valid in; null: any studio offering its session. */
    studioId: uuid("studio_id").references(() => studios.id, { onDelete: "set null" }),
    /** What it covers as sold (« Séance Iris », « 80 € »). */
    label: varchar("label", { length: 200 }).notNull(),
    valueCents: integer("value_cents").notNull(),
    /** What is left: an amount's rest; a session's value until used, 0 after. */
    balanceCents: integer("balance_cents").notNull(),
    status: varchar("status", { length: 20 })
      .$type<VoucherStatus>()
      .notNull()
      .default("awaiting_payment"),
    recipientName: varchar("recipient_name", { length: 60 }).notNull(),
    buyerName: varchar("buyer_name", { length: 60 }).notNull(),
    message: varchar("message", { length: 500 }).notNull().default(""),
    sendTo: varchar("send_to", { length: 10 }).$type<(typeof VOUCHER_SEND_TO)[number]>().notNull(),
    recipientEmail: varchar("recipient_email", { length: 255 }),
    /** The Paris day it is sent at 9:00; null: as soon as it is paid. */
    deliveryDay: date("delivery_day", { mode: "string" }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /**
     * When its e-mail was given up (the mail server refused the address, or never took it after its
     * retries), and the address it was for; both null again when the buyer corrects it (decision 0167).
     */
    deliveryFailedAt: timestamp("delivery_failed_at", { withTimezone: true }),
    deliveryFailedTo: varchar("delivery_failed_to", { length: 255 }),
    issuedAt: timestamp("issued_at", { withTimezone: true }),
    /** The last Paris day it can be used (included); set when issued, moved by an extension. */
    expiresOn: date("expires_on", { mode: "string" }),
    vatMode: varchar("vat_mode", { length: 10 }).$type<VoucherVatMode>().notNull(),
    reminderSentAt: timestamp("reminder_sent_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("vouchers_kind_check", sql`${table.kind} in ${oneOf(VOUCHER_KINDS)}`),
    check("vouchers_status_check", sql`${table.status} in ${oneOf(VOUCHER_STATUSES)}`),
    check("vouchers_send_to_check", sql`${table.sendTo} in ${oneOf(VOUCHER_SEND_TO)}`),
    check("vouchers_vat_mode_check", sql`${table.vatMode} in ${oneOf(VOUCHER_VAT_MODES)}`),
    check("vouchers_value_check", sql`${table.valueCents} > 0`),
    check(
      "vouchers_balance_check",
      sql`${table.balanceCents} >= 0 and ${table.balanceCents} <= ${table.valueCents}`,
    ),
    check(
      "vouchers_session_check",
      sql`${table.kind} <> 'session' or ${table.balanceCents} in (0, ${table.valueCents})`,
    ),
    check(
      "vouchers_issued_check",
      sql`${table.status} in ('awaiting_payment', 'cancelled') or (${table.code} is not null and ${table.expiresOn} is not null)`,
    ),
    check(
      "vouchers_recipient_email_check",
      sql`${table.sendTo} <> 'recipient' or ${table.recipientEmail} is not null`,
    ),
    // The daily job: active vouchers by their last day.
    index("vouchers_active_expiry_idx")
      .on(table.expiresOn)
      .where(sql`${table.status} = 'active'`),
    index("vouchers_created_idx").on(table.createdAt, table.id),
  ],
);

/** One redemption of a voucher (a session, or part of an amount); `cancelled_at` when given back. */
export const voucherUses = pgTable(
  "voucher_uses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    voucherId: uuid("voucher_id")
      .notNull()
      .references(() => vouchers.id, { onDelete: "restrict" }),
    amountCents: integer("amount_cents").notNull(),
    bookingId: uuid("booking_id").references(() => bookings.id, { onDelete: "set null" }),
    by: varchar("by", { length: 10 }).$type<(typeof VOUCHER_USE_BY)[number]>().notNull(),
    /** The owner's form's key: the same « Utiliser » posted twice takes the amount once. */
    idempotencyKey: varchar("idempotency_key", { length: 100 }).unique(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /**
     * A multi-purpose voucher's use whose invoice the seller's incomplete identity held back (decision
     * 0198): the catch-up issues it, or finds none due under the franchise, and clears the flag.
     */
    invoicePending: boolean("invoice_pending").notNull().default(false),
    /**
     * The booking whose balance this use paid at the studio (« Solde payé au studio », decision 0201): the
     * booking's final invoice deducts this use's invoice. Apart from `bookingId`, the booking whose deposit
     * a use paid, which is given back when that booking is called off: a balance is not.
     */
    balanceOfBookingId: uuid("balance_of_booking_id").references(() => bookings.id, {
      onDelete: "set null",
    }),
  },
  (table) => [
    check("voucher_uses_amount_check", sql`${table.amountCents} > 0`),
    check("voucher_uses_by_check", sql`${table.by} in ${oneOf(VOUCHER_USE_BY)}`),
    index("voucher_uses_voucher_idx").on(table.voucherId, table.at),
    index("voucher_uses_booking_idx").on(table.bookingId),
    index("voucher_uses_balance_booking_idx").on(table.balanceOfBookingId),
  ],
);

/**
 * Each extension of a voucher's last day (decision 0182's amendment of 2026-11-30), written in
 * `extendVoucher`'s transaction: the last day before and after, when, and by which administrator (null: not
 * known, or the account deleted since). The accountant's « Bons cadeaux à honorer » at a past day reads the
 * last day that applied then from it. Never updated; a voucher extended before this table has no row.
 */
export const voucherExpiryChanges = pgTable(
  "voucher_expiry_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    voucherId: uuid("voucher_id")
      .notNull()
      .references(() => vouchers.id, { onDelete: "restrict" }),
    previousExpiresOn: date("previous_expires_on", { mode: "string" }).notNull(),
    newExpiresOn: date("new_expires_on", { mode: "string" }).notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    by: text("by").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [
    check(
      "voucher_expiry_changes_later_check",
      sql`${table.newExpiresOn} > ${table.previousExpiresOn}`,
    ),
    index("voucher_expiry_changes_voucher_idx").on(table.voucherId, table.at),
  ],
);

/*
 * Invoices and credit notes (decision 0177): numbered without a gap per series and year by a counter row
 * updated in the invoice's own transaction (a sequence would leave gaps on rollback), immutable once
 * issued (a trigger refuses UPDATE, DELETE and TRUNCATE), each with its own copy of the seller, the buyer
 * and the lines, so that nothing changed or purged elsewhere alters it in its ten years.
 */
export const invoiceCounters = pgTable(
  "invoice_counters",
  {
    series: varchar("series", { length: 1 }).$type<InvoiceSeries>().notNull(),
    year: smallint("year").notNull(),
    last: integer("last").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.series, table.year] }),
    check("invoice_counters_series_check", sql`${table.series} in ${oneOf(INVOICE_SERIES)}`),
    check("invoice_counters_last_check", sql`${table.last} > 0`),
  ],
);

export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    series: varchar("series", { length: 1 }).$type<InvoiceSeries>().notNull(),
    year: smallint("year").notNull(),
    sequence: integer("sequence").notNull(),
    number: varchar("number", { length: 20 }).notNull().unique(),
    kind: varchar("kind", { length: 12 }).$type<InvoiceKind>().notNull(),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "restrict" }),
    refundId: uuid("refund_id").references(() => refunds.id, { onDelete: "restrict" }),
    /** The booking it is for, by id only: the booking's purge does not touch the invoice's copy. */
    bookingId: uuid("booking_id"),
    /**
     * The use of a multi-purpose voucher it invoices (decision 0198): its TVA is due at the use. By id
     * only, as its booking: nothing done to the uses' table reaches the invoice.
     */
    voucherUseId: uuid("voucher_use_id"),
    /** The invoice a credit note corrects. */
    creditedInvoiceId: uuid("credited_invoice_id").references((): AnyPgColumn => invoices.id, {
      onDelete: "restrict",
    }),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    /** The day of the service (the session), when it differs from the issue's. */
    serviceDate: date("service_date", { mode: "string" }),
    seller: jsonb("seller").$type<InvoiceSeller>().notNull(),
    buyer: jsonb("buyer").$type<InvoiceBuyer>().notNull(),
    lines: jsonb("lines").$type<InvoiceLineInput[]>().notNull(),
    htCents: integer("ht_cents").notNull(),
    vatCents: integer("vat_cents").notNull(),
    ttcCents: integer("ttc_cents").notNull(),
    vatBreakdown: jsonb("vat_breakdown").$type<VatShare[]>().notNull(),
    /** How it was or is to be paid, as printed (« Payé par carte le 12 janvier 2027 »). */
    paymentTerms: text("payment_terms").notNull(),
  },
  (table) => [
    check("invoices_series_check", sql`${table.series} in ${oneOf(INVOICE_SERIES)}`),
    check("invoices_kind_check", sql`${table.kind} in ${oneOf(INVOICE_KINDS)}`),
    check("invoices_sequence_check", sql`${table.sequence} > 0`),
    check(
      "invoices_credit_note_check",
      sql`(${table.kind} = 'credit_note') = (${table.series} = 'A')
        and (${table.kind} = 'credit_note') = (${table.creditedInvoiceId} is not null)`,
    ),
    check("invoices_totals_check", sql`${table.htCents} + ${table.vatCents} = ${table.ttcCents}`),
    uniqueIndex("invoices_series_year_sequence_idx").on(table.series, table.year, table.sequence),
    index("invoices_issued_idx").on(table.issuedAt, table.id),
    index("invoices_order_idx").on(table.orderId),
    // One invoice for an order's sale, one credit note for a refund (decision 0181): a payment applied
    // twice, or two catch-ups at once, issue nothing more.
    uniqueIndex("invoices_sale_order_idx")
      .on(table.orderId)
      .where(sql`${table.kind} in ('sale', 'deposit', 'final')`),
    uniqueIndex("invoices_credit_refund_idx")
      .on(table.refundId)
      .where(sql`${table.kind} = 'credit_note'`),
    // One invoice per use, however often the owner's form is posted or the catch-up runs.
    uniqueIndex("invoices_voucher_use_idx").on(table.voucherUseId),
    check(
      "invoices_voucher_use_check",
      sql`(${table.kind} = 'voucher_use') = (${table.voucherUseId} is not null)`,
    ),
    index("invoices_booking_idx").on(table.bookingId),
  ],
);

/**
 * Where and whether the accountant's files go by e-mail (decision 0189): one row (id 1), written from
 * /admin/comptabilite. An empty address sends nothing, whatever the switch.
 */
export const accountantMailSettings = pgTable(
  "accountant_mail_settings",
  {
    id: smallint("id").primaryKey().default(1),
    email: varchar("email", { length: 255 }).notNull().default(""),
    /** « Envoyer chaque mois les fichiers au cabinet comptable ». */
    monthly: boolean("monthly").notNull().default(false),
    /**
     * When the switch was last turned on (null while off): the monthly job sends every month from the
     * one it was turned in (the month before, on the 1st before 7 h), never the months before it. Each
     * run moves it to the month after the last one it claimed (a mark the backups keep, decision 0189).
     */
    monthlySince: timestamp("monthly_since", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("accountant_mail_settings_one_row", sql`${table.id} = 1`)],
);

/**
 * The months whose files were e-mailed to the accountant by the monthly job (decision 0189): the row is
 * inserted in the transaction that queues the e-mail, so a month gives one e-mail however many times, or
 * on however many servers, the job runs. Not backed up: it records what left, which a restore cannot
 * take back.
 */
export const accountantMonthlyMails = pgTable("accountant_monthly_mails", {
  /** The month the files cover, « 2026-11 » (Paris days). */
  month: varchar("month", { length: 7 }).primaryKey(),
  recipient: varchar("recipient", { length: 255 }).notNull(),
  queuedAt: timestamp("queued_at", { withTimezone: true }).notNull().defaultNow(),
  /** When the mail server accepted it (shown on the page). */
  sentAt: timestamp("sent_at", { withTimezone: true }),
});

/**
 * What a client's order of extra photos buys (decision 0184): the photos as she saw them when she
 * ordered, or every photo of the gallery. Written with the order; read when it is paid.
 */
export const galleryPhotoOrders = pgTable(
  "gallery_photo_orders",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id),
    galleryId: uuid("gallery_id")
      .notNull()
      .references(() => galleries.id, { onDelete: "cascade" }),
    photoIds: uuid("photo_ids").array().notNull(),
    allPhotos: boolean("all_photos").notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [index("gallery_photo_orders_gallery_idx").on(table.galleryId)],
);

/** Why a photo beyond the package is unlocked: bought (a paid order) or offered by the owner. */
export const GALLERY_UNLOCK_SOURCES = ["bought", "offered"] as const;
export type GalleryUnlockSource = (typeof GALLERY_UNLOCK_SOURCES)[number];

/**
 * A photo the client may download beyond those her package includes (decision 0184); `photo_id` null:
 * every photo of the gallery. A bought one names its order (removed when the order is fully refunded).
 */
export const galleryUnlocks = pgTable(
  "gallery_unlocks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    galleryId: uuid("gallery_id")
      .notNull()
      .references(() => galleries.id, { onDelete: "cascade" }),
    photoId: uuid("photo_id").references(() => galleryPhotos.id, { onDelete: "cascade" }),
    source: varchar("source", { length: 10 }).$type<GalleryUnlockSource>().notNull(),
    orderId: uuid("order_id").references(() => orders.id),
    createdAt: createdAt(),
  },
  (table) => [
    check("gallery_unlocks_source_check", sql`${table.source} in ${oneOf(GALLERY_UNLOCK_SOURCES)}`),
    check(
      "gallery_unlocks_order_check",
      sql`(${table.source} = 'bought') = (${table.orderId} is not null)`,
    ),
    // One row per photo and order (an offer: per photo), so a repeated effect adds nothing.
    unique("gallery_unlocks_once")
      .on(table.galleryId, table.photoId, table.orderId)
      .nullsNotDistinct(),
    index("gallery_unlocks_order_idx").on(table.orderId),
  ],
);
