// Run by scripts/make-previous-release-fixture.ts INSIDE a copy of commit 43eacdb (the release before issue
// 26), at the same path there: it fills every table of that release's database with realistic content
// through that release's own modules (accounts, sessions, a blog image, a library photo, document and studio
// saves with their revisions, previews, bookings and time off), and plain SQL for what no module of that
// release writes without a mail server or a job queue. That release's modules are loaded untyped: their
// types are that release's, not today's.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { runWithAppDatabase } from "../lib/app-database.ts";

await runWithAppDatabase("✖ Remplissage impossible :", async (load) => {
  const { db } = await load<any>("app/server/db/client.server.ts");
  const { seedDemoContent } = await load<any>("app/server/blog/demo-articles.server.ts");
  const { auth } = await load<any>("app/server/auth/auth.server.ts");
  const { upsertAccount } = await load<any>("app/server/admin/administrators.server.ts");
  const { storeBlogImage } = await load<any>("app/server/images/uploads.server.ts");
  const { storeMedia } = await load<any>("app/server/content/media-store.server.ts");
  const store = await load<any>("app/server/content/content-store.server.ts");
  const { createDocumentPreview, createStudioPreview } = await load<any>(
    "app/server/content/preview.server.ts",
  );
  const booking = await load<any>("app/server/booking/bookings.server.ts");
  const { insertTestGallery, addReadyPhoto } = await load<any>("tests/support/galleries.ts");
  const { storage } = await load<any>("app/server/storage/storage.server.ts");
  const pool = db().$client;
  const sql = (text: string, values: unknown[] = []) => pool.query(text, values);

  await seedDemoContent(db());

  // People: the owner (with two-factor), an assistant; their sessions as better-auth makes them.
  const authority = await auth();
  await upsertAccount(authority, {
    email: "sophie@studio-photo.example",
    password: "mot-de-passe-de-sophie",
    role: "admin",
  });
  await upsertAccount(authority, {
    email: "assistant@studio-photo.example",
    password: "mot-de-passe-assistant",
    role: "user",
  });
  await authority.api.signInEmail({
    body: { email: "sophie@studio-photo.example", password: "mot-de-passe-de-sophie" },
  });
  const {
    rows: [owner],
  } = await sql(`select id, email from users where email = 'sophie@studio-photo.example'`);
  await sql(`update users set name = 'Sophie', two_factor_enabled = true where id = $1`, [
    owner.id,
  ]);
  await sql(
    `insert into two_factors (id, secret, backup_codes, user_id) values ('tf-sophie', 'chiffre:secret-totp', 'chiffre:codes-de-secours', $1)`,
    [owner.id],
  );
  await sql(
    `insert into verifications (id, identifier, value, expires_at) values ('verif-1', 'reset-password:jeton-de-test', $1, now() + interval '1 hour')`,
    [owner.id],
  );
  const author = { id: owner.id, name: "Sophie" };

  // Two tiny photos (no binary weight in the fixture beyond these): a blog image and a library photo.
  const work = path.join(os.tmpdir(), `remplissage-${process.pid}`);
  const photo = (colour: string) =>
    sharp({ create: { width: 48, height: 32, channels: 3, background: colour } })
      .jpeg()
      .toBuffer();
  const blogPhoto = `${work}-blog.jpg`;
  await writeFile(blogPhoto, await photo("#c9a27e"));
  const imageUrl = await storeBlogImage({ name: "tournesols.jpg", path: blogPhoto });
  const {
    rows: [article],
  } = await sql(
    `update blog_articles set cover_image_url = $1, seo_image_url = $1,
            content = content || '<p><img src="' || $1 || '" alt="Tournesols au studio"></p>'
      where id = (select id from blog_articles where published order by published_at desc limit 1)
      returning id, slug`,
    [imageUrl],
  );
  const libraryPhoto = `${work}-media.jpg`;
  await writeFile(libraryPhoto, await photo("#7e9cc9"));
  const mediaId = await storeMedia(
    { name: "studio-ussel.jpg", path: libraryPhoto },
    { alt: "Le studio d'Ussel", focal: { x: 40, y: 60 } },
  );
  await rm(blogPhoto, { force: true });
  await rm(libraryPhoto, { force: true });

  // Documents and studios saved from the admin: each save leaves a revision by its author.
  const testimonials = await store.loadDocument("testimonials");
  await store.saveDocument("testimonials", testimonials, author, "Témoignages relus");
  const [ussel] = (await store.listStudios()).filter((studio: any) => studio.slug === "ussel");
  await store.saveStudio(ussel.id, ussel.slug, ussel.data, author, "Horaires vérifiés");
  await createDocumentPreview("testimonials", testimonials, author);
  await createStudioPreview({ id: ussel.id, slug: ussel.slug, data: ussel.data }, author);

  // Subscribers in each state, a contact message, a sending of the article with its deliveries.
  await sql(
    `insert into blog_newsletter_subscribers (email, status, consent_source, consent_page, consent_text, confirmation_sent_at, confirmed_at, unsubscribed_at)
     values ('camille.martin@example.fr', 'active', 'blog', '/blog', 'J''accepte de recevoir la lettre du studio.', now() - interval '30 days', now() - interval '30 days', null),
            ('julien.roux@example.fr', 'pending', 'footer', '/', 'J''accepte de recevoir la lettre du studio.', now() - interval '1 day', null, null),
            ('ines.dupuy@example.fr', 'unsubscribed', 'blog', '/blog', 'J''accepte de recevoir la lettre du studio.', now() - interval '90 days', now() - interval '90 days', now() - interval '10 days')`,
  );
  await sql(
    `insert into contact_messages (studio, shooting_type, prenom, nom, email, telephone, message, source, emailed_at)
     values ('brive', 'naissance', 'Léa', 'Bernard', 'lea.bernard@example.fr', '06 12 34 56 78',
             'Bonjour, nous attendons un bébé pour mars : quelles sont vos disponibilités ?', 'google', now())`,
  );
  const {
    rows: [sending],
  } = await sql(
    `insert into newsletter_sendings (article_id, subject, html, text, status, total, created_by, finished_at)
     values ($1, 'Nouvel article du studio', '<p>Un nouvel article est en ligne.</p>', 'Un nouvel article est en ligne.', 'done', 1, $2, now())
     returning id`,
    [article.id, owner.id],
  );
  await sql(
    `insert into newsletter_deliveries (sending_id, subscriber_id, batch, status, attempts, sent_at)
     select $1, id, 1, 'sent', 1, now() from blog_newsletter_subscribers where status = 'active'`,
    [sending.id],
  );
  await sql(
    `insert into mail_failures (kind, recipient, error, final) values ('contact', 'studio@example.fr', '421 Service indisponible, réessayez plus tard', false)`,
  );
  await sql(
    `insert into rate_limits (key, count, reset_at) values ('contact:client:203.0.113.7', 2, now() + interval '1 hour')`,
  );

  // A client gallery with two ready photos, one favourite; an upload in pieces left half-way.
  // Its expiry years ahead: the nightly retention would delete it (and its files) after its purge date.
  const gallery = await insertTestGallery(db(), {
    expiresAt: new Date("2036-01-01T22:59:59Z"),
    title: "Mariage de Camille et Thomas",
    clientName: "Camille Martin",
    clientEmail: "camille.martin@example.fr",
    studioId: ussel.id,
    createdBy: owner.id,
  });
  for (const [name, colour] of [
    ["IMG_0001.jpg", "#d8c3a5"],
    ["IMG_0002.jpg", "#8e8d8a"],
  ] as const) {
    await addReadyPhoto(db(), storage(), gallery.id, { name, buffer: await photo(colour) });
  }
  await sql(
    `update gallery_photos set favourite = true, favourite_comment = 'Celle-ci en tirage 30 × 40', favourited_at = now()
      where id = (select id from gallery_photos where gallery_id = $1 order by position limit 1)`,
    [gallery.id],
  );
  await sql(
    `update galleries set cover_photo_id = (select id from gallery_photos where gallery_id = $1 order by position limit 1),
                          invitation_sent_at = now(), invitation_sent_to = client_email, last_client_activity_at = now()
      where id = $1`,
    [gallery.id],
  );
  await sql(
    `insert into resumable_uploads (gallery_id, file_name, size, content_type, last_modified, chunk_size, received, storage_key, storage_upload_id, parts, created_by)
     values ($1, 'IMG_0003.jpg', 9000000, 'image/jpeg', 1763600000000, 5242880, 5242880, $2, 'local-envoi-1', '[{"part":1,"etag":"\\"e1\\""}]', $3)`,
    [gallery.id, `galleries/${gallery.id}/envoi-IMG_0003.jpg`, owner.id],
  );

  // Booking: a session type with questions and its own hours, a second photographer, bookings of each
  // state through the release's own booking code, and time off.
  const studioIds = Object.fromEntries(
    (await store.listStudios()).map((studio: any) => [studio.slug, studio.id]),
  );
  // Checked with that release's own schemas: the fixture holds only what it could have stored.
  const { bookingQuestionsSchema, bookableHoursSchema } = await load<any>(
    "app/lib/booking/session-types.ts",
  );
  const questions = bookingQuestionsSchema.parse([
    { id: "prenom-enfant", kind: "text", label: "Prénom de l'enfant" },
    {
      id: "tenue",
      kind: "choice",
      label: "Tenue",
      required: true,
      options: ["Habillée", "Décontractée"],
    },
    { id: "premiere-seance", kind: "yes_no", label: "Première séance ?" },
  ]);
  const hours = bookableHoursSchema.parse({
    Monday: [{ opens: "09:00", closes: "12:00" }],
    Saturday: [{ opens: "10:00", closes: "17:00" }],
  });
  const {
    rows: [portrait],
  } = await sql(
    `insert into session_types (slug, name, description, photo_id, duration_minutes, buffer_after_minutes, price_text, included_text,
                                minimum_notice_hours, horizon_days, mode, deposit_text, questions, bookable_hours, position)
     values ('seance-portrait', 'Séance portrait', 'Une heure au studio, en lumière douce.', $1, 60, 15, '129 €', '10 photos retouchées',
             24, 120, 'instant', 'Acompte de 30 € à régler au studio', $2, $3, 1)
     returning id`,
    [mediaId, JSON.stringify(questions), JSON.stringify(hours)],
  );
  const {
    rows: [request],
  } = await sql(
    `insert into session_types (slug, name, duration_minutes, mode, visibility, private_token, response_deadline_hours, position)
     values ('seance-entreprise', 'Séance entreprise', 120, 'request', 'private', 'lien-prive-entreprise-0123456789', 48, 2)
     returning id`,
  );
  await sql(
    `insert into session_type_studios (session_type_id, studio_id) values ($1, $3), ($1, $4), ($2, $4)`,
    [portrait.id, request.id, studioIds.ussel, studioIds.brive],
  );
  const {
    rows: [second],
  } = await sql(`insert into photographers (name, position) values ('Marc', 1) returning id`);
  await sql(`insert into photographer_studios (photographer_id, studio_id) values ($1, $2)`, [
    second.id,
    studioIds.brive,
  ]);
  const ownerAuthor = { actor: "owner", userId: owner.id, name: "Sophie" };
  const client = (name: string, email: string) => ({ name, email, phone: "06 98 76 54 32" });
  // Sessions years ahead: the retention erases a booking 18 months after its session, never one to come,
  // so the upgrade test finds them whenever it runs.
  const bookedAt = new Date("2031-03-01T08:00:00Z");
  const confirmed = await booking.createBooking({
    studioId: studioIds.ussel,
    sessionTypeId: portrait.id,
    slot: "2031-03-10T10:00",
    client: client("Anaïs Petit", "anais.petit@example.fr"),
    answers: { "prenom-enfant": "Jules", tenue: "Habillée", "premiere-seance": "oui" },
    consentAt: bookedAt,
    now: bookedAt,
  });
  await booking.createBooking({
    studioId: studioIds.brive,
    sessionTypeId: request.id,
    slot: "2031-03-11T14:00",
    client: client("Entreprise Limousin Bois", "contact@limousin-bois.example.fr"),
    consentAt: bookedAt,
    privateToken: "lien-prive-entreprise-0123456789",
    now: bookedAt,
  });
  const moved = await booking.createBooking({
    studioId: studioIds.brive,
    sessionTypeId: portrait.id,
    slot: "2031-03-15T11:00",
    client: client("Paul Girard", "paul.girard@example.fr"),
    answers: { tenue: "Décontractée" },
    by: ownerAuthor,
    consentAt: null,
    now: bookedAt,
  });
  await booking.cancelBooking(moved.id, ownerAuthor, { message: "Empêchement", now: bookedAt });
  await booking.blockPeriod({
    studioId: null,
    photographerId: confirmed.photographerId,
    start: new Date("2031-07-20T00:00:00Z"),
    end: new Date("2031-08-03T00:00:00Z"),
    label: "Congés",
    createdBy: owner.id,
  });
  console.log(`✔ Rempli : article ${article.slug}, galerie ${gallery.id}`);
});
