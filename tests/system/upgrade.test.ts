import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { PgBoss } from "pg-boss";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { z } from "zod";
import routes from "../../app/routes";
import { documentSchemas, studioDataSchema, type DocumentKey } from "../../app/content/schemas";
import { bookableHoursSchema, bookingQuestionsSchema } from "../../app/lib/booking/session-types";
import type { BackupManifest } from "../../app/server/backup/backup.server";
import { restoreBackup, verifyBackup } from "../../app/server/backup/restore.server";
import { migrateTo } from "../../app/server/backup/scratch.server";
import { manageTokenHash } from "../../app/server/booking/manage-token.server";
import { createConnection } from "../../app/server/db/client.server";
import { migrationsFolder } from "../../app/server/db/migrate.server";
import { localStorageOf } from "../../app/server/storage/storage.server";
import {
  createAccount,
  deleteAccount,
  sessionCookieHeader,
  type TestAccount,
} from "../support/accounts";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { closeServerDatabase, serverDatabase, targetServer } from "../support/server-under-test";
import { lostValues } from "../support/stored-values";

/*
 * Safe upgrades (README, « Mettre à jour »): the database and files of the previous release (for now 43eacdb, the commit
 * before the backups' work), frozen with content in every table by `npm run fixture:previous-release`, are put
 * back at that release's migration level, then today's production server starts on them (its migrations
 * run at start, as on the owner's machine). Every page and admin screen must answer, and every stored JSON
 * document must parse with today's schemas, keeping every stored value. At each release, refresh the
 * fixture (README, « Mettre à jour »).
 */

const fixtures = path.join(import.meta.dirname, "../fixtures");
/** The one frozen release (`npm run fixture:previous-release` writes it; the older one is deleted). */
const [FIXTURE, ...others] = readdirSync(fixtures)
  .filter((name) => /^previous-release-\w+\.tar$/.test(name))
  .map((name) => path.join(fixtures, name));
if (!FIXTURE || others.length > 0)
  throw new Error("Une seule copie de la version précédente attendue.");
/** A client link of the old release's booking: its raw token was only ever in an e-mail, so one is set. */
const MANAGE_TOKEN = "AncienneReservationAncienneReservation01234";

/**
 * Rows whose count may change with the date the test runs: short-lived ones the server clears once their
 * time has passed, personal data its nightly purge erases (decision 0151: an unconfirmed sign-up after its
 * link's lifetime, mail failures after their days, messages and subscribers after 18 months), the content version
 * (moved on) and the migrations (more of them). The fixture's bookings and gallery are dated years ahead.
 */
const DATED = new Set([
  "public.content_previews",
  "public.rate_limits",
  "public.sessions",
  "public.verifications",
  "public.resumable_uploads",
  "public.blog_newsletter_subscribers",
  "public.contact_messages",
  "public.mail_failures",
  "public.content_version",
  "drizzle.__drizzle_migrations",
]);

/**
 * Documents added since the release: the start seeds each, with its first revision (decision 0166), rows
 * the release never had.
 */
const DOCUMENTS_SINCE_RELEASE = ["payments"];
const listed = (values: string[]) => values.map((value) => `'${value}'`).join(", ");

/** The rows of `table` that the release's own content accounts for. */
function countOfRelease(table: string): string {
  const count = `select count(*)::int as count from ${table}`;
  if (table === "public.site_documents") {
    return `${count} where key not in (${listed(DOCUMENTS_SINCE_RELEASE)})`;
  }
  if (table === "public.content_revisions") {
    const subjects = DOCUMENTS_SINCE_RELEASE.map((key) => `document:${key}`);
    return `${count} where subject not in (${listed(subjects)})`;
  }
  return count;
}

let server: ServerProcess;
let manifest: BackupManifest;
let account: TestAccount | undefined;
/** A job the previous release queued and never ran (its server stopped first). */
let leftJob: string | null = null;

beforeAll(async () => {
  manifest = await verifyBackup(FIXTURE);
  server = await startServerProcess(
    inject("adminDatabaseUrl"),
    {},
    {
      // The previous release's database as it was: its migrations (the same files, checked below), its rows.
      async prepare({ databaseUrl, dataDir }) {
        const { db, pool } = createConnection(databaseUrl, { max: 2 });
        try {
          await migrateTo(db, manifest.migrations.count);
          await restoreBackup(FIXTURE, {
            pool,
            storage: localStorageOf(dataDir),
            verified: manifest,
          });
        } finally {
          await pool.end();
        }
        // Its queue as that release made it (name and options of decision 0080), with a job waiting.
        const boss = new PgBoss({ connectionString: databaseUrl, max: 1 });
        boss.on("error", () => undefined);
        await boss.start();
        await boss.createQueue("publish", {
          retryLimit: 60,
          retryDelay: 10,
          retryBackoff: true,
          retryDelayMax: 5 * 60,
          notify: true,
          expireInSeconds: 5 * 60,
          retentionSeconds: 366 * 24 * 60 * 60,
          deleteAfterSeconds: 24 * 60 * 60,
        });
        leftJob = await boss.send("publish", {});
        await boss.stop({ graceful: false, timeout: 1_000 });
      },
    },
  );
  await targetServer(server);
}, 120_000);

afterAll(async () => {
  if (account) await deleteAccount(account);
  await closeServerDatabase();
  await server?.stop();
});

async function rows<Row>(text: string, values: unknown[] = []): Promise<Row[]> {
  return (await serverDatabase().$client.query(text, values)).rows as Row[];
}

/** GET as a browser would; the body read. Redirects are answers of their own. */
async function get(pathname: string, headers: Record<string, string> = {}) {
  const response = await fetch(new URL(pathname, server.baseUrl), { headers, redirect: "manual" });
  return { status: response.status, html: await response.text() };
}

/** The pages among `paths` that do not answer 200 with a page of their own (the error page), three at a time. */
async function failing(paths: readonly string[], headers: Record<string, string> = {}) {
  const failures: Array<{ pathname: string; status: number }> = [];
  let next = 0;
  const lane = async () => {
    while (next < paths.length) {
      const pathname = paths[next++] ?? "";
      const { status, html } = await get(pathname, headers);
      if (status !== 200 || /<h1[^>]*>Une erreur est survenue</.test(html)) {
        failures.push({ pathname, status });
      }
    }
  };
  await Promise.all([lane(), lane(), lane()]);
  return failures;
}

/** The paths of the route table's entries under the layout of `file` (params as written there). */
function pathsUnder(file: string, entries: RouteConfigEntry[] = routes, inside = false): string[] {
  return entries.flatMap((entry) => {
    const here = inside || entry.file === file;
    return [
      ...(inside && entry.path !== undefined ? [`/${entry.path}`] : []),
      ...(here && entry.index ? ["/"] : []),
      ...pathsUnder(file, entry.children ?? [], here),
    ];
  });
}

describe("the previous release's data, upgraded by today's server", () => {
  it("does the jobs the release left in its queues (their names and options kept, decision 0149)", async () => {
    expect(leftJob).not.toBeNull();
    await expect
      .poll(
        async () =>
          (
            await rows<{ state: string }>(
              "select state from pgboss.job where name = 'publish' and id = $1",
              [leftJob],
            )
          )[0]?.state,
        { timeout: 30_000, interval: 250 },
      )
      .toBe("completed");
  });

  it("went through every migration after the release's, whose own files are the ones it ran", async () => {
    const folder = migrationsFolder();
    const journal = JSON.parse(
      await readFile(path.join(folder, "meta", "_journal.json"), "utf8"),
    ) as { entries: Array<{ tag: string }> };
    const applied = await rows<{ hash: string }>(
      "select hash from drizzle.__drizzle_migrations order by id",
    );
    const hashes = await Promise.all(
      journal.entries.map(async ({ tag }) =>
        createHash("sha256")
          .update(await readFile(path.join(folder, `${tag}.sql`), "utf8"))
          .digest("hex"),
      ),
    );
    expect(manifest.migrations.count).toBeLessThan(journal.entries.length);
    expect(applied.map((row) => row.hash)).toEqual(hashes);
  });

  it("kept every row of the release's content", async () => {
    for (const table of manifest.tables.filter((each) => !DATED.has(each.name))) {
      const [count] = await rows<{ count: number }>(countOfRelease(table.name));
      expect({ table: table.name, rows: count?.count }).toEqual({
        table: table.name,
        rows: table.rows,
      });
    }
  });

  it("parses every stored JSON document with today's schemas, every stored value kept", async () => {
    const problems: unknown[] = [];
    const check = (where: string, schema: z.ZodType, value: unknown) => {
      const parsed = schema.safeParse(value);
      if (!parsed.success) problems.push({ where, issues: parsed.error.issues });
      else if (lostValues(value, parsed.data).length > 0) {
        problems.push({ where, lost: lostValues(value, parsed.data) });
      }
    };
    const documentSchema = (key: string) => {
      const schema = documentSchemas[key as DocumentKey];
      if (!schema) throw new Error(`document inconnu : ${key}`);
      return schema;
    };
    /** A revision's or a preview's value, by its subject. */
    const checkSubject = (where: string, subject: string, data: unknown) => {
      if (subject.startsWith("document:")) {
        check(where, documentSchema(subject.slice("document:".length)), data);
      } else if (subject.startsWith("studio:")) {
        // A studio's revision: its slug beside its data.
        const { slug: _slug, ...studio } = data as { slug: string };
        check(where, studioDataSchema, studio);
      } else if (subject === "studio") {
        check(where, studioDataSchema, (data as { data: unknown }).data);
      } else {
        problems.push({ where, unknownSubject: subject });
      }
    };

    // Besides the documents, markers of what the first start seeded (« seeded:studios »: true).
    const documents = await rows<{ key: string; data: unknown }>(
      "select key, data from site_documents where key not like 'seeded:%'",
    );
    const markers = await rows<{ data: unknown }>(
      "select data from site_documents where key like 'seeded:%'",
    );
    expect(markers.map((marker) => marker.data)).toEqual(markers.map(() => true));
    for (const { key, data } of documents)
      check(`site_documents ${key}`, documentSchema(key), data);
    const studios = await rows<{ slug: string; data: unknown }>("select slug, data from studios");
    for (const { slug, data } of studios) check(`studios ${slug}`, studioDataSchema, data);
    const revisions = await rows<{ id: string; subject: string; data: unknown }>(
      "select id, subject, data from content_revisions",
    );
    for (const row of revisions) checkSubject(`content_revisions ${row.id}`, row.subject, row.data);
    const previews = await rows<{ id: string; subject: string; data: unknown }>(
      "select id, subject, data from content_previews",
    );
    for (const row of previews) checkSubject(`content_previews ${row.id}`, row.subject, row.data);
    const types = await rows<{ slug: string; questions: unknown; hours: unknown }>(
      "select slug, questions, bookable_hours as hours from session_types",
    );
    for (const { slug, questions, hours } of types) {
      check(`session_types ${slug} questions`, bookingQuestionsSchema, questions);
      if (hours !== null) check(`session_types ${slug} hours`, bookableHoursSchema, hours);
    }

    expect(problems).toEqual([]);
    expect(documents.length).toBe(Object.keys(documentSchemas).length);
    expect(studios.length).toBe(3);
    expect(revisions.length).toBeGreaterThan(documents.length);
    expect(previews.length + types.length).toBeGreaterThan(0);
  });

  it("answers every public page, with the release's articles, studios and bookings", async () => {
    const articles = await rows<{ slug: string; title: string }>(
      "select slug, title from blog_articles where published and published_at <= now() order by published_at desc",
    );
    const categories = await rows<{ slug: string }>("select slug from blog_categories");
    const studios = await rows<{ slug: string; name: string }>(
      "select slug, data->>'name' as name from studios where retired_at is null",
    );
    const [booked] = await rows<{ id: string; studio: string; type: string }>(
      `select b.id, s.slug as studio, t.slug as type from bookings b
         join studios s on s.id = b.studio_id join session_types t on t.id = b.session_type_id
        where t.visibility = 'public' and b.state = 'confirmed' limit 1`,
    );
    if (!booked) throw new Error("no confirmed booking in the fixture");
    // What the owner does next: online booking on for that studio (a switch this release adds).
    await serverDatabase().$client.query(
      `update studios set data = jsonb_set(data, '{onlineBooking}', 'true') where slug = $1`,
      [booked.studio],
    );
    await serverDatabase().$client.query(
      "update bookings set manage_token_hash = $1 where id = $2",
      [manageTokenHash(MANAGE_TOKEN), booked.id],
    );
    const [gallery] = await rows<{ id: string }>("select id from galleries limit 1");

    const byParams: Record<string, string[]> = {
      "/blog/:slug": articles.map((article) => `/blog/${article.slug}`),
      "/blog/categorie/:slug": categories.map((category) => `/blog/categorie/${category.slug}`),
      "/reserver/:studio": [`/reserver/${booked.studio}`],
      "/reserver/:studio/:seance": [`/reserver/${booked.studio}/${booked.type}`],
      "/reservation/:token": [`/reservation/${MANAGE_TOKEN}`],
      "/:page": studios.flatMap((studio) => [
        `/studio-${studio.slug}`,
        `/contact-studio-${studio.slug}`,
      ]),
      "/galerie-client/:id": [`/galerie-client/${gallery?.id}`],
    };
    /** Pages reached only with a slot or a signed link an e-mail carries: their own tests cover them. */
    const needLinks = [
      "/reserver/:studio/:seance/coordonnees",
      // An order's page (its e-mailed link), and the shop, open only while vouchers are on sale (the
      // release sold none): tests/http/vouchers-order covers them.
      "/commande/:token",
      "/bons-cadeaux",
      "/newsletter/confirmation",
      "/newsletter/desabonnement",
      "/*",
    ];
    const paths = [
      ...pathsUnder("routes/site-layout.tsx"),
      ...pathsUnder("routes/galerie-client/layout.tsx"),
    ]
      .filter((each) => !needLinks.includes(each))
      .flatMap((each) => {
        if (!each.includes(":")) return [each];
        const concrete = byParams[each];
        if (!concrete) throw new Error(`Aucune adresse d'exemple pour ${each} : ajoutez-en une.`);
        return concrete;
      });

    expect(paths.length).toBeGreaterThan(40);
    expect(await failing(paths)).toEqual([]);
    expect(articles.length).toBeGreaterThan(5);

    const blog = await get("/blog");
    for (const article of articles.slice(0, 3)) expect(blog.html).toContain(article.title);
    for (const studio of studios) {
      expect((await get(`/studio-${studio.slug}`)).html).toContain(studio.name);
    }
    const booking = await get(`/reservation/${MANAGE_TOKEN}`);
    expect(booking.html).toContain("Séance portrait");
  });

  it("answers every admin screen to the owner", async () => {
    account = await createAccount("admin");
    const cookie = await sessionCookieHeader(account);
    const id = async (text: string) => {
      const [row] = await rows<{ id: string }>(text);
      if (!row) throw new Error(`nothing for ${text}`);
      return row.id;
    };
    const article = await id(
      "select id from blog_articles where cover_image_url like '/uploads/%' limit 1",
    );
    const ids: Array<[RegExp, string]> = [
      [/^\/admin\/articles\/:id/, article],
      [/^\/admin\/newsletter\/envoyer\/:id/, article],
      [/^\/admin\/newsletter\/envois\/:id/, await id("select id from newsletter_sendings limit 1")],
      [/^\/admin\/studios\/:id/, await id("select id from studios where slug = 'ussel'")],
      [/^\/admin\/medias\/:id/, await id("select id from media where file is not null limit 1")],
      [/^\/admin\/galeries\/:id/, await id("select id from galleries limit 1")],
      [
        /^\/admin\/reservations\/seances\/:id/,
        await id("select id from session_types order by position limit 1"),
      ],
      [/^\/admin\/reservations\/:id/, await id("select id from bookings limit 1")],
      // The release sold nothing: one order at the studio, as the shop would make it.
      [
        /^\/admin\/ventes\/:id/,
        await id(`insert into orders (kind, amount_cents, method, buyer_name, buyer_email,
            terms_accepted_at, rules_snapshot, token_hash, idempotency_key)
          values ('voucher', 5000, 'studio', 'Camille Martin', 'camille@example.test', now(), '{}',
            md5('upgrade') || md5('test'), 'upgrade-test-order') returning id`),
      ],
    ];
    const screens = pathsUnder("routes/admin/layout.tsx").map((each) => {
      if (!each.includes(":")) return each;
      const found = ids.find(([pattern]) => pattern.test(each));
      if (!found) throw new Error(`Aucun identifiant d'exemple pour ${each} : ajoutez-en un.`);
      return each.replace(":id", found[1]);
    });
    /** Screens that need a query to show anything. */
    const queries: Record<string, string> = {
      "/admin/medias/emplacements/choisir": "?emplacement=page:scolaire.hero",
    };
    expect(screens.length).toBeGreaterThan(30);

    expect(
      await failing(
        screens.map((each) => each + (queries[each] ?? "")),
        { cookie },
      ),
    ).toEqual([]);
    // The release's people, as long as the retention keeps them (18 months after the fixture was made).
    for (const { email } of await rows<{ email: string }>("select email from contact_messages")) {
      expect((await get("/admin/messages", { cookie })).html).toContain(email);
    }
    for (const { email } of await rows<{ email: string }>(
      "select email from blog_newsletter_subscribers where status = 'active'",
    )) {
      expect((await get("/admin/subscribers", { cookie })).html).toContain(email);
    }
  });

  it("restores the release's archive over today's site, through the migrations after it", async () => {
    // What going back to a backup taken before an upgrade does: loaded at its level in a database of its
    // own, brought up, then copied over the site's tables. A connection of its own: the test's pool waits
    // for the server after each change, which a restore's open transaction would keep waiting.
    const { pool } = createConnection(server.databaseUrl, { max: 3 });
    try {
      await restoreBackup(FIXTURE, {
        pool,
        storage: localStorageOf(server.dataDir),
        verified: manifest,
      });
    } finally {
      await pool.end();
    }
    for (const table of manifest.tables.filter((each) => !DATED.has(each.name))) {
      const [count] = await rows<{ count: number }>(countOfRelease(table.name));
      expect({ table: table.name, rows: count?.count }).toEqual({
        table: table.name,
        rows: table.rows,
      });
    }
    const [article] = await rows<{ slug: string }>(
      "select slug from blog_articles where cover_image_url like '/uploads/%'",
    );
    expect((await get(`/blog/${article?.slug}`)).status).toBe(200);
  });

  it("logged no error while it upgraded and served", () => {
    expect(server.output()).not.toMatch(/"level":"error"/);
  });
});
