import { randomBytes } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes";
import {
  blockedPeriods,
  bookingCalendarFeeds,
  photographers,
  sessionTypes,
  blogArticles,
  blogCategories,
  blogNewsletterSubscribers,
  contactMessages,
  galleries,
  galleryPhotos,
  redirects,
  resumableUploads,
  studios,
  contentPreviews,
  contentRevisions,
  media,
  newsletterSendings,
  siteDocuments,
  users,
  backupRuns,
} from "../../app/server/db/schema";
import { insertTestGallery } from "../support/galleries";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  type TestAccount,
} from "../support/accounts";
import { serverDatabase, serverBaseUrl } from "../support/server-under-test";

const baseUrl = serverBaseUrl();

const marker = randomBytes(5).toString("hex");
const secretTitle = `Brouillon secret ${marker}`;
const secretEmail = `abonne-${marker}@example.com`;
const secretMessage = `Message privé ${marker}`;
const intruderEmail = `intrus-${marker}@example.com`;
const secretClient = `Cliente secrète ${marker}`;
let articleId = "";
let categoryId = "";
let messageId = "";
let subscriberId = "";
let studioId = "";
let studioBefore: unknown;
/** A photo of the library (the demo hero of the home page): nobody may change or delete it. */
let mediaId = "";
let mediaAlt = "";
let demoted: TestAccount;
let demotedCookie = "";
let revisionId = "";
/** A sending whose subject is the secret draft's title: its pages must not show it to anyone else. */
let sendingId = "";
/** A client gallery with one photo (decision 0103): nobody else may see, order, upload to or delete it. */
let galleryId = "";
let galleryPhotoId = "";

beforeAll(async () => {
  const database = serverDatabase();
  const [category] = await database
    .insert(blogCategories)
    .values({ name: `Catégorie ${marker}`, slug: `categorie-${marker}` })
    .returning();
  categoryId = category?.id ?? "";
  const [article] = await database
    .insert(blogArticles)
    .values({
      title: secretTitle,
      slug: `brouillon-${marker}`,
      excerpt: "Extrait",
      content: "<p>Texte</p>",
      author: "Test",
      categoryId,
    })
    .returning();
  articleId = article?.id ?? "";
  const [subscriber] = await database
    .insert(blogNewsletterSubscribers)
    .values({ email: secretEmail, consentSource: "blog", status: "active" })
    .returning();
  subscriberId = subscriber?.id ?? "";
  const [message] = await database
    .insert(contactMessages)
    .values({
      studio: "ussel",
      shootingType: "naissance",
      prenom: "Anne",
      nom: "Martin",
      email: `contact-${marker}@example.com`,
      message: secretMessage,
    })
    .returning();
  messageId = message?.id ?? "";
  const [ussel] = await database.select().from(studios).where(eq(studios.slug, "ussel"));
  studioId = ussel?.id ?? "";
  studioBefore = { data: ussel?.data, retiredAt: ussel?.retiredAt, position: ussel?.position };
  const [revision] = await database
    .select({ id: contentRevisions.id })
    .from(contentRevisions)
    .where(eq(contentRevisions.subject, "document:testimonials"))
    .orderBy(desc(contentRevisions.createdAt))
    .limit(1);
  revisionId = revision?.id ?? "";
  const [sending] = await database
    .insert(newsletterSendings)
    .values({ subject: secretTitle, html: `<p>${secretTitle}</p>`, text: secretTitle, total: 1 })
    .returning();
  sendingId = sending?.id ?? "";
  const [photo] = await database.select().from(media).where(eq(media.builtin, "accueil-hero"));
  mediaId = photo?.id ?? "";
  mediaAlt = photo?.alt ?? "";
  galleryId = (
    await insertTestGallery(database, {
      title: `Galerie ${marker}`,
      clientName: secretClient,
      clientEmail: `cliente-${marker}@example.com`,
      accessCode: "ABCDEFGH",
      selectionValidatedAt: new Date(),
    })
  ).id;
  const [galleryPhoto] = await database
    .insert(galleryPhotos)
    .values({
      galleryId,
      position: 1,
      originalName: `photo-${marker}.jpg`,
      sourceExtension: "jpg",
      status: "ready",
      widths: [480],
      variantRevision: 1,
    })
    .returning();
  galleryPhotoId = galleryPhoto?.id ?? "";

  // A signed-in person who is not an administrator: an administrator whose role was then taken away.
  await clearSignInLimits();
  demoted = await createAccount("admin");
  const response = await fetch(`${baseUrl}/admin/login`, {
    method: "POST",
    body: new URLSearchParams({ email: demoted.email, password: demoted.password }),
    redirect: "manual",
  });
  demotedCookie = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .filter((cookie) => cookie.includes("session_token"))
    .join("; ");
  expect(demotedCookie).not.toBe("");
  await database.update(users).set({ role: "user" }).where(eq(users.email, demoted.email));
});

afterAll(async () => {
  const database = serverDatabase();
  await database.delete(blogArticles).where(eq(blogArticles.id, articleId));
  await database.delete(blogCategories).where(eq(blogCategories.id, categoryId));
  await database
    .delete(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.email, secretEmail));
  await database.delete(contactMessages).where(eq(contactMessages.id, messageId));
  await database.delete(newsletterSendings).where(eq(newsletterSendings.id, sendingId));
  await database.delete(galleries).where(eq(galleries.id, galleryId));
  await deleteAccount(demoted);
});

const visitors = [
  { name: "anonymous", cookie: () => "", status: 401 },
  { name: "signed-in non-administrator", cookie: () => demotedCookie, status: 403 },
];

/** Every path of the route table under /admin (with ":id" as written there). */
function adminPaths(entries: RouteConfigEntry[] = routes): string[] {
  return entries.flatMap((entry) => [
    ...(entry.path?.startsWith("admin") ? [`/${entry.path}`] : []),
    ...adminPaths(entry.children ?? []),
  ]);
}

/** Admin addresses a visitor must reach: signing in and getting back into the account. */
const publicAdminPaths = [
  "/admin",
  "/admin/login",
  "/admin/verification",
  "/admin/mot-de-passe-oublie",
  "/admin/reinitialiser-mot-de-passe",
  "/admin/premier-administrateur",
  "/admin/logout",
];

/** Resource routes (no page): checked one by one at the end of this file. */
const resourcePaths = [
  "/admin/images",
  "/admin/articles/brouillon",
  "/admin/subscribers/export.csv",
  "/admin/medias/televerser/envoi",
  "/admin/pages-du-site",
  "/admin/newsletter/envoyer/:id/apercu",
  "/admin/newsletter/envois/:id/progression",
  "/admin/galeries/:id/progression",
  "/admin/galeries/:id/photos/:photoId/:file",
  "/admin/envois",
  "/admin/envois/formulaire/:galleryId",
  "/admin/envois/:uploadId",
  "/admin/galeries/:id/selection.csv",
  "/admin/reservations/export.csv",
  "/admin/sauvegardes/telecharger/:name",
  "/admin/sauvegardes/derniere",
  // Their anonymous refusals: tests/http/invoices.test.ts.
  "/admin/factures/:file",
  "/admin/comptabilite/:file",
];

const pages = () => [
  "/admin/dashboard",
  "/admin/articles/nouveau",
  `/admin/articles/${articleId}/modifier`,
  `/admin/articles/${articleId}/apercu`,
  "/admin/categories",
  `/admin/categories?categorie=${categoryId}`,
  "/admin/subscribers",
  "/admin/subscribers/importer",
  "/admin/newsletter",
  "/admin/messages",
  "/admin/securite",
  "/admin/administrateurs",
  "/admin/studios",
  "/admin/studios/nouveau",
  `/admin/studios/${studioId}`,
  "/admin/redirections",
  "/admin/site",
  "/admin/tarifs",
  "/admin/tarifs/gendarmerie",
  "/admin/tarifs/seances-a-offrir",
  "/admin/tarifs/temoignages",
  "/admin/reglages/paiement",
  "/admin/medias",
  "/admin/medias/televerser",
  "/admin/medias/emplacements",
  "/admin/medias/emplacements/choisir?emplacement=page:scolaire.hero",
  "/admin/medias/galerie",
  `/admin/medias/${mediaId}`,
  `/admin/newsletter/envoyer/${articleId}`,
  `/admin/newsletter/envoyer/${articleId}?mode=full&confirmer-envoi=${articleId}`,
  `/admin/newsletter/envois/${sendingId}`,
  `/admin/galeries/${galleryId}`,
  "/admin/galeries",
  "/admin/galeries/nouvelle",
  `/admin/galeries/${galleryId}/reglages`,
  `/admin/galeries/${galleryId}/reglages?supprimer=${galleryId}`,
  `/admin/galeries/${galleryId}/selection`,
  `/admin/galeries/${galleryId}/envoyer`,
  "/admin/sauvegardes",
  "/admin/sauvegardes?restaurer=sauvegarde-2026-01-01-030000.tar",
  `/admin/sauvegardes/restauration/${studioId}`,
  "/admin/aide",
  "/admin/reservations",
  "/admin/reservations?vue=liste",
  "/admin/reservations/nouvelle",
  "/admin/reservations/seances",
  "/admin/reservations/seances/nouvelle",
  `/admin/reservations/seances/${studioId}`,
  "/admin/reservations/reglages",
  `/admin/reservations/${studioId}`,
  `/admin/reservations/${studioId}?annuler=1`,
  "/admin/ventes",
  "/admin/ventes?statut=paid&moyen=transfer",
  `/admin/ventes/${studioId}`,
  `/admin/ventes/${studioId}?payer=cash`,
  "/admin/bons-cadeaux",
  "/admin/bons-cadeaux?q=Intrus",
  "/admin/factures",
  "/admin/comptabilite",
  "/admin/comptabilite?du=2026-02-30&au=2026-01-01",
];

/** A studio form's fields (valid: only the guard stops it). */
function studioForm(overrides: Record<string, string> = {}) {
  return new URLSearchParams({
    intent: "save",
    name: `Intrus ${marker}`,
    city: "Tulle",
    slug: `intrus-${marker}`,
    description: "Description",
    street: "1 rue",
    postalCode: "19000",
    addressCity: "Tulle",
    phone: "05 00 00 00 00",
    email: "intrus@example.com",
    shootingTypes: "Portrait",
    telephone: "required",
    ...overrides,
  });
}

function articleForm(overrides: Record<string, string> = {}) {
  return new URLSearchParams({
    title: `Intrus ${marker}`,
    slug: `intrus-${marker}`,
    excerpt: "Extrait",
    content: "<p>Texte</p>",
    author: "Intrus",
    category_id: "",
    ...overrides,
  });
}

/** The gallery form's fields (valid: only the guard stops it). */
const galleryForm = (overrides: Record<string, string> = {}) =>
  new URLSearchParams({
    intent: "save",
    title: `Intrus ${marker}`,
    clientName: "Intrus",
    clientEmail: intruderEmail,
    expiresOn: new Date(Date.now() + 10 * 24 * 3600_000).toISOString().slice(0, 10),
    purgeAfterDays: "30",
    ...overrides,
  });

const actions = () => [
  ...[
    { intent: "mark-paid", means: "cash" } as Record<string, string>,
    { intent: "refund", amount: "10", reason: "Intrus" },
    { intent: "refunded-offline", id: studioId },
  ].map((fields) => ({
    path: `/admin/ventes/${studioId}`,
    body: new URLSearchParams(fields),
  })),
  ...["use-amount", "use-session", "extend", "cancel"].map((intent) => ({
    path: "/admin/bons-cadeaux",
    body: new URLSearchParams({ intent, id: studioId, amount: "10", expiresOn: "2099-01-01" }),
  })),
  { path: "/admin/sauvegardes", body: new URLSearchParams({ intent: "backup" }) },
  {
    path: "/admin/sauvegardes",
    body: new URLSearchParams({
      intent: "restore",
      sauvegarde: "sauvegarde-2026-01-01-030000.tar",
      confirmation: "RESTAURER",
    }),
  },
  {
    path: "/admin/reservations/seances/nouvelle",
    body: new URLSearchParams({
      intent: "save",
      name: `Intrus ${marker}`,
      durationMinutes: "60",
      [`studio-${studioId}`]: "on",
    }),
  },
  {
    path: "/admin/reservations/seances",
    body: new URLSearchParams({ intent: "archive", id: studioId }),
  },
  {
    path: "/admin/reservations/reglages",
    body: new URLSearchParams({ intent: "add-photographer", name: `Intrus ${marker}` }),
  },
  {
    path: "/admin/reservations/reglages",
    body: new URLSearchParams({ intent: "renew-feed" }),
  },
  {
    path: "/admin/reservations",
    body: new URLSearchParams({
      intent: "block",
      label: `Intrus ${marker}`,
      studioId,
      start: "2031-01-07T10:00",
      end: "2031-01-07T12:00",
    }),
  },
  ...["accept", "cancel", "move"].map((intent) => ({
    path: `/admin/reservations/${studioId}`,
    body: new URLSearchParams({ intent, slot: "2031-01-07T10:00" }),
  })),
  {
    path: `/admin/galeries/${galleryId}`,
    body: new URLSearchParams({ intent: "delete", id: galleryPhotoId }),
  },
  {
    path: `/admin/galeries/${galleryId}`,
    body: new URLSearchParams({ intent: "cover", id: galleryPhotoId }),
  },
  { path: "/admin/galeries/nouvelle", body: galleryForm() },
  { path: `/admin/galeries/${galleryId}/reglages`, body: galleryForm() },
  ...["new-code", "extend", "delete"].map((intent) => ({
    path: `/admin/galeries/${galleryId}/reglages`,
    body: new URLSearchParams({ intent, id: galleryId }),
  })),
  {
    path: `/admin/galeries/${galleryId}/selection`,
    body: new URLSearchParams({ intent: "reopen", id: galleryId }),
  },
  {
    path: `/admin/galeries/${galleryId}/envoyer`,
    body: new URLSearchParams({ intent: "send", id: galleryId }),
  },
  { path: "/admin/dashboard", body: new URLSearchParams({ intent: "delete", id: articleId }) },
  { path: "/admin/dashboard", body: new URLSearchParams({ intent: "publish", id: articleId }) },
  { path: "/admin/articles/nouveau", body: articleForm() },
  {
    path: `/admin/articles/${articleId}/modifier`,
    body: articleForm({ title: `Modifié ${marker}` }),
  },
  {
    path: "/admin/categories",
    body: new URLSearchParams({
      intent: "create",
      name: `Intrus ${marker}`,
      slug: `intrus-${marker}`,
    }),
  },
  {
    path: "/admin/categories",
    body: new URLSearchParams({
      intent: "update",
      id: categoryId,
      name: "Piratée",
      slug: `piratee-${marker}`,
    }),
  },
  { path: "/admin/categories", body: new URLSearchParams({ intent: "delete", id: categoryId }) },
  {
    path: "/admin/subscribers",
    body: new URLSearchParams({ intent: "unsubscribe", id: subscriberId }),
  },
  { path: "/admin/subscribers", body: new URLSearchParams({ intent: "delete", id: subscriberId }) },
  { path: "/admin/subscribers/importer", body: subscriberImport() },
  { path: "/admin/messages", body: new URLSearchParams({ intent: "handled", id: messageId }) },
  { path: "/admin/messages", body: new URLSearchParams({ intent: "delete", id: messageId }) },
  { path: "/admin/securite", body: new URLSearchParams({ intent: "enable", password: "x" }) },
  { path: "/admin/securite", body: new URLSearchParams({ intent: "disable", password: "x" }) },
  {
    path: "/admin/securite",
    body: new URLSearchParams({
      intent: "confirm",
      totpURI: "otpauth://totp/x?secret=AAAA",
      code: "000000",
      saved: "on",
    }),
  },
  { path: "/admin/administrateurs", body: new URLSearchParams({ email: intruderEmail }) },
  { path: "/admin/studios", body: new URLSearchParams({ intent: "retire", id: studioId }) },
  { path: "/admin/studios", body: new URLSearchParams({ intent: "down", id: studioId }) },
  { path: "/admin/studios/nouveau", body: studioForm() },
  { path: `/admin/studios/${studioId}`, body: studioForm({ slug: "ussel" }) },
  { path: `/admin/studios/${studioId}`, body: studioForm({ intent: "preview" }) },
  {
    path: `/admin/studios/${studioId}`,
    body: new URLSearchParams({ intent: "restore", revision: studioId }),
  },
  {
    path: "/admin/redirections",
    body: new URLSearchParams({ intent: "create", from: `/intrus-${marker}`, to: "/tarifs" }),
  },
  {
    path: "/admin/redirections",
    body: new URLSearchParams({ intent: "update", id: studioId, from: "/x", to: "/tarifs" }),
  },
  {
    path: "/admin/site",
    body: new URLSearchParams({ document: "identity", intent: "save", brand: `Piraté ${marker}` }),
  },
  {
    path: "/admin/site",
    body: new URLSearchParams({ document: "legal", intent: "preview:/mentions-legales" }),
  },
  { path: "/admin/site", body: new URLSearchParams({ intent: "restore", revision: revisionId }) },
  {
    path: "/admin/tarifs",
    body: new URLSearchParams({ intent: "save", "tabs.0.label": `Piraté ${marker}` }),
  },
  { path: "/admin/tarifs", body: new URLSearchParams({ intent: "add:tabs.0.cards" }) },
  {
    path: "/admin/tarifs/gendarmerie",
    body: new URLSearchParams({ intent: "save", "offer.title": `Piraté ${marker}` }),
  },
  {
    path: "/admin/tarifs/seances-a-offrir",
    body: new URLSearchParams({ intent: "save", "sessions.0.title": `Piraté ${marker}` }),
  },
  {
    path: "/admin/tarifs/temoignages",
    body: new URLSearchParams({ intent: "restore", revision: revisionId }),
  },
  {
    path: "/admin/reglages/paiement",
    body: new URLSearchParams({ intent: "save", vouchersOnSale: "on", studio: "on" }),
  },
  {
    path: "/admin/reglages/paiement",
    body: new URLSearchParams({ intent: "save-keys", secretKey: `sk_test_${marker}0123456789` }),
  },
  { path: "/admin/reglages/paiement", body: new URLSearchParams({ intent: "remove-keys" }) },
  { path: "/admin/medias", body: new URLSearchParams({ intent: "delete", id: mediaId }) },
  {
    path: `/admin/medias/${mediaId}`,
    body: new URLSearchParams({ alt: `Piratée ${marker}`, focalX: "0", focalY: "0" }),
  },
  {
    path: `/admin/medias/${mediaId}`,
    body: new URLSearchParams({ intent: "delete", id: mediaId }),
  },
  {
    path: "/admin/medias/emplacements/choisir?emplacement=page:accueil.hero",
    body: new URLSearchParams({ photo: mediaId }),
  },
  {
    path: "/admin/medias/emplacements",
    body: new URLSearchParams({ intent: "restore", revision: articleId }),
  },
  {
    path: "/admin/medias/galerie",
    body: new URLSearchParams({ intent: "save", count: "0" }),
  },
  { path: "/admin/medias/televerser", body: mediaUpload() },
  {
    path: `/admin/newsletter/envoyer/${articleId}`,
    body: new URLSearchParams({ intent: "publish-and-send", id: articleId, mode: "excerpt" }),
  },
  {
    path: `/admin/newsletter/envoyer/${articleId}`,
    body: new URLSearchParams({ intent: "test", id: articleId, mode: "full" }),
  },
];

/** A photo posted to the media library (the upload page and its script's address take the same). */
function mediaUpload() {
  const form = new FormData();
  form.append("alt", `Intrus ${marker}`);
  form.append(
    "file",
    new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: "image/jpeg" }),
    "x.jpg",
  );
  return form;
}

/** A subscriber import (a valid file, attested): only the guard stops it. */
function subscriberImport() {
  const form = new FormData();
  form.append("attestation", "on");
  const day = new Date().toISOString().slice(0, 10);
  form.append(
    "fichier",
    new Blob([`email;date_consentement\nimporte-${marker}@example.com;${day}\n`], {
      type: "text/csv",
    }),
    "liste.csv",
  );
  return form;
}

function expectNoAdminData(text: string) {
  expect(text).not.toContain(secretTitle);
  expect(text).not.toContain(secretEmail);
  expect(text).not.toContain(secretMessage);
  expect(text).not.toContain(secretClient);
}

async function expectNothingChanged() {
  const database = serverDatabase();
  // The gallery keeps its photo, no cover, and receives no upload.
  expect(
    (await database.select().from(galleryPhotos).where(eq(galleryPhotos.galleryId, galleryId))).map(
      (row) => row.id,
    ),
  ).toEqual([galleryPhotoId]);
  expect(
    await database.select().from(resumableUploads).where(eq(resumableUploads.galleryId, galleryId)),
  ).toEqual([]);
  const [article] = await database
    .select()
    .from(blogArticles)
    .where(eq(blogArticles.id, articleId));
  expect(article).toMatchObject({ title: secretTitle, published: false, publishedAt: null });
  const [category] = await database
    .select()
    .from(blogCategories)
    .where(eq(blogCategories.id, categoryId));
  expect(category).toMatchObject({ name: `Catégorie ${marker}` });
  const [message] = await database
    .select()
    .from(contactMessages)
    .where(eq(contactMessages.id, messageId));
  expect(message).toMatchObject({ handledAt: null });
  const intruders = await database
    .select()
    .from(blogArticles)
    .where(eq(blogArticles.slug, `intrus-${marker}`));
  expect(intruders).toEqual([]);
  const categories = await database
    .select()
    .from(blogCategories)
    .where(eq(blogCategories.slug, `intrus-${marker}`));
  expect(categories).toEqual([]);
  const [subscriber] = await database
    .select()
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.id, subscriberId));
  expect(subscriber).toMatchObject({ email: secretEmail, status: "active", unsubscribedAt: null });
  const imported = await database
    .select()
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.email, `importe-${marker}@example.com`));
  expect(imported).toEqual([]);
  const invited = await database.select().from(users).where(eq(users.email, intruderEmail));
  expect(invited).toEqual([]);
  const [studio] = await database.select().from(studios).where(eq(studios.id, studioId));
  expect({ data: studio?.data, retiredAt: studio?.retiredAt, position: studio?.position }).toEqual(
    studioBefore,
  );
  const newStudios = await database
    .select()
    .from(studios)
    .where(eq(studios.slug, `intrus-${marker}`));
  expect(newStudios).toEqual([]);
  const newRedirects = await database
    .select()
    .from(redirects)
    .where(eq(redirects.fromPath, `/intrus-${marker}`));
  expect(newRedirects).toEqual([]);
  // No content document was saved, restored or previewed by a visitor.
  const documents = await database.select({ data: siteDocuments.data }).from(siteDocuments);
  expect(JSON.stringify(documents)).not.toContain(marker);
  const [demotedUser] = await database
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, demoted.email));
  const revisions = await database
    .select({ id: contentRevisions.id })
    .from(contentRevisions)
    .where(eq(contentRevisions.authorId, demotedUser?.id ?? ""));
  expect(revisions).toEqual([]);
  const previews = await database.select({ data: contentPreviews.data }).from(contentPreviews);
  expect(JSON.stringify(previews)).not.toContain(marker);
  const [photo] = await database.select().from(media).where(eq(media.id, mediaId));
  expect(photo).toMatchObject({ alt: mediaAlt });
  // Nothing was sent: the draft has no sending (and stays unpublished, checked above).
  expect(
    await database
      .select({ id: newsletterSendings.id })
      .from(newsletterSendings)
      .where(eq(newsletterSendings.articleId, articleId)),
  ).toEqual([]);
  expect(
    await database
      .select()
      .from(media)
      .where(eq(media.alt, `Intrus ${marker}`)),
  ).toEqual([]);
  // The client gallery: same code, same expiry, selection still validated, never sent, no new gallery.
  const [clientGallery] = await database
    .select()
    .from(galleries)
    .where(eq(galleries.id, galleryId));
  expect(clientGallery).toMatchObject({
    title: `Galerie ${marker}`,
    accessCode: "ABCDEFGH",
    accessVersion: 1,
    invitationSentAt: null,
    deletingAt: null,
  });
  expect(clientGallery?.selectionValidatedAt).not.toBeNull();
  expect(clientGallery?.coverPhotoId).toBeNull();
  expect(
    await database
      .select()
      .from(galleries)
      .where(eq(galleries.title, `Intrus ${marker}`)),
  ).toEqual([]);
  const [gallery] = await database
    .select()
    .from(siteDocuments)
    .where(eq(siteDocuments.key, "gallery"));
  expect((gallery?.data as { items: unknown[] }).items.length).toBeGreaterThan(0);
  // No session type, photographer, blocked time or calendar feed of the visitor's (decision 0116).
  expect(
    await database
      .select()
      .from(sessionTypes)
      .where(eq(sessionTypes.name, `Intrus ${marker}`)),
  ).toEqual([]);
  expect(
    await database
      .select()
      .from(photographers)
      .where(eq(photographers.name, `Intrus ${marker}`)),
  ).toEqual([]);
  expect(
    await database
      .select()
      .from(blockedPeriods)
      .where(eq(blockedPeriods.label, `Intrus ${marker}`)),
  ).toEqual([]);
  const feeds = await database.select().from(bookingCalendarFeeds);
  expect(feeds.filter((feed) => feed.createdBy === demotedUser?.id)).toEqual([]);
  // No backup, check or restore asked (the backups' page, decision 0118).
  expect(
    (await database.select().from(backupRuns)).filter((run) => run.status === "queued"),
  ).toEqual([]);
}

describe("the list of guarded admin routes", () => {
  it("covers every admin route of the route table, so a new page cannot be forgotten", () => {
    const covered = new Set([
      ...publicAdminPaths,
      ...resourcePaths,
      ...pages().map((path) =>
        (path.split("?")[0] ?? "")
          .replaceAll(articleId, ":id")
          .replaceAll(studioId, ":id")
          .replaceAll(mediaId, ":id")
          .replaceAll(sendingId, ":id")
          .replaceAll(galleryId, ":id"),
      ),
    ]);
    const forgotten = adminPaths().filter((path) => !covered.has(path));
    expect(forgotten).toEqual([]);
    expect(adminPaths()).toContain("/admin/dashboard");
  });
});

describe.each(visitors)("admin routes for a $name visitor", (visitor) => {
  it("every page redirects to /admin/login and shows no admin data (documents and data requests)", async () => {
    for (const path of pages()) {
      const response = await fetch(`${baseUrl}${path}`, {
        headers: { cookie: visitor.cookie() },
        redirect: "manual",
      });
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toBe("/admin/login");
      expectNoAdminData(await response.text());

      const [pathname, search] = path.split("?");
      const dataResponse = await fetch(`${baseUrl}${pathname}.data${search ? `?${search}` : ""}`, {
        headers: { cookie: visitor.cookie() },
        redirect: "manual",
      });
      const body = await dataResponse.text();
      expect(body, `${path}.data`).toContain("/admin/login");
      expectNoAdminData(body);
    }
  });

  it(`every action is refused with ${visitor.status} and changes nothing`, async () => {
    for (const { path, body } of actions()) {
      const response = await fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { cookie: visitor.cookie() },
        body,
        redirect: "manual",
      });
      expect(response.status, `${path} ${body.get("intent") ?? ""}`).toBe(visitor.status);
      expectNoAdminData(await response.text());
    }
    await expectNothingChanged();
  });

  it(`the resource routes (CSV export, image upload) are refused with ${visitor.status}`, async () => {
    const csv = await fetch(`${baseUrl}/admin/subscribers/export.csv`, {
      headers: { cookie: visitor.cookie() },
      redirect: "manual",
    });
    expect(csv.status).toBe(visitor.status);
    expectNoAdminData(await csv.text());
    // A backup's download asks for the session first (a signed link alone is not enough).
    const backup = await fetch(
      `${baseUrl}/admin/sauvegardes/telecharger/sauvegarde-2026-01-01-030000.tar?jeton=x`,
      { headers: { cookie: visitor.cookie() }, redirect: "manual" },
    );
    expect(backup.status).toBe(302);
    expect(backup.headers.get("location")).toBe("/admin/login");
    // The monthly e-mail's link (decision 0139): a French page, never the archive.
    const latest = await fetch(`${baseUrl}/admin/sauvegardes/derniere?jeton=x`, {
      headers: { cookie: visitor.cookie() },
      redirect: "manual",
    });
    expect(latest.status).toBe(visitor.status);
    expect(latest.headers.get("content-type")).toContain("text/html");
    expectNoAdminData(await latest.text());
    const bookingsCsv = await fetch(`${baseUrl}/admin/reservations/export.csv`, {
      headers: { cookie: visitor.cookie() },
      redirect: "manual",
    });
    expect(bookingsCsv.status).toBe(visitor.status);
    expect(await bookingsCsv.text()).not.toContain("debut");

    // The editor's list of the site's pages (it names the drafts' neighbours: published articles only,
    // but an admin's tool all the same).
    const pagesList = await fetch(`${baseUrl}/admin/pages-du-site`, {
      headers: { cookie: visitor.cookie(), Accept: "application/json" },
      redirect: "manual",
    });
    expect(pagesList.status).toBe(visitor.status);
    expect(await pagesList.text()).not.toContain("/tarifs");

    const form = new FormData();
    form.append(
      "file",
      new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: "image/jpeg" }),
      "x.jpg",
    );
    const upload = await fetch(`${baseUrl}/admin/images`, {
      method: "POST",
      headers: { cookie: visitor.cookie() },
      body: form,
      redirect: "manual",
    });
    expect(upload.status).toBe(visitor.status);
    const uploadGet = await fetch(`${baseUrl}/admin/images`, {
      headers: { cookie: visitor.cookie() },
    });
    expect(uploadGet.status).toBe(visitor.status);
    const mediaPost = await fetch(`${baseUrl}/admin/medias/televerser/envoi`, {
      method: "POST",
      headers: { cookie: visitor.cookie() },
      body: mediaUpload(),
      redirect: "manual",
    });
    expect(mediaPost.status).toBe(visitor.status);
    const mediaGet = await fetch(`${baseUrl}/admin/medias/televerser/envoi`, {
      headers: { cookie: visitor.cookie() },
    });
    expect(mediaGet.status).toBe(visitor.status);

    const autosave = await fetch(`${baseUrl}/admin/articles/brouillon`, {
      method: "POST",
      headers: { cookie: visitor.cookie() },
      body: articleForm({ id: articleId, title: `Autosave ${marker}` }),
      redirect: "manual",
    });
    expect(autosave.status).toBe(visitor.status);
    expectNoAdminData(await autosave.text());

    // The newsletter's preview (HTML and text) and a sending's progress (JSON).
    for (const path of [
      `/admin/newsletter/envoyer/${articleId}/apercu?mode=excerpt`,
      `/admin/newsletter/envoyer/${articleId}/apercu?mode=full&format=texte`,
      `/admin/newsletter/envois/${sendingId}/progression`,
      `/admin/galeries/${galleryId}/selection.csv`,
    ]) {
      const response = await fetch(`${baseUrl}${path}`, {
        headers: { cookie: visitor.cookie() },
        redirect: "manual",
      });
      expect(response.status, path).toBe(visitor.status);
      expectNoAdminData(await response.text());
      const post = await fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { cookie: visitor.cookie() },
        redirect: "manual",
      });
      expect(post.status, `POST ${path}`).toBeGreaterThanOrEqual(400);
      expectNoAdminData(await post.text());
    }

    // A client gallery's progress, previews and uploads (decision 0103).
    const uploadId = "00000000-0000-4000-8000-000000000000";
    for (const path of [
      `/admin/galeries/${galleryId}/progression`,
      `/admin/galeries/${galleryId}/photos/${galleryPhotoId}/r1-w480.jpg`,
      `/admin/envois/${uploadId}?galerie=${galleryId}`,
    ]) {
      const response = await fetch(`${baseUrl}${path}`, {
        headers: { cookie: visitor.cookie() },
        redirect: "manual",
      });
      expect(response.status, path).toBe(visitor.status);
      expectNoAdminData(await response.text());
    }
    const start = await fetch(`${baseUrl}/admin/envois`, {
      method: "POST",
      headers: { cookie: visitor.cookie(), "Content-Type": "application/json" },
      body: JSON.stringify({ galleryId, name: "IMG_0001.jpg", size: 3, type: "image/jpeg" }),
      redirect: "manual",
    });
    expect(start.status).toBe(visitor.status);
    const piece = await fetch(`${baseUrl}/admin/envois/${uploadId}?galerie=${galleryId}&offset=0`, {
      method: "POST",
      headers: { cookie: visitor.cookie(), "Content-Type": "application/octet-stream" },
      body: new Uint8Array([0xff, 0xd8, 0xff]),
      redirect: "manual",
    });
    expect(piece.status).toBe(visitor.status);
    const photoForm = new FormData();
    photoForm.append(
      "photo",
      new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: "image/jpeg" }),
      "x.jpg",
    );
    const formUpload = await fetch(`${baseUrl}/admin/envois/formulaire/${galleryId}`, {
      method: "POST",
      headers: { cookie: visitor.cookie() },
      body: photoForm,
      redirect: "manual",
    });
    expect(formUpload.status).toBe(visitor.status);
    await expectNothingChanged();
  });
});

describe("admin routes and foreign origins", () => {
  it("refuses a state-changing request from another site even with a session", async () => {
    const response = await fetch(`${baseUrl}/admin/dashboard`, {
      method: "POST",
      headers: { cookie: demotedCookie, origin: "https://evil.example" },
      body: new URLSearchParams({ intent: "delete", id: articleId }),
      redirect: "manual",
    });
    expect(response.status).toBe(403);
    await expectNothingChanged();
  });
});
