import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  blogArticles,
  blogNewsletterSubscribers,
  bookings,
  contactMessages,
  galleries,
  photographers,
  sessionTypes,
  studios,
} from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { fetchPage, textOf, type FetchedPage } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";

/*
 * Every admin list answers a page of 50 rows, with « Page suivante » / « Page précédente » as plain links
 * that keep its search (decision 0130), so that a list of thousands works without JavaScript. A server of
 * the file's own: the rows it adds would push other files' rows off their lists' first page.
 */

useOwnServer();
const admin = useAdmin();
const page = (path: string) => fetchPage(path, { cookie: admin.cookie() });

const PAGE_SIZE = 50;
const EXTRA = 7;
const COUNT = PAGE_SIZE + EXTRA;
const minute = 60_000;
const at = (index: number) => new Date(Date.parse("2026-10-01T08:00:00Z") - index * minute);

/** The link of the list's pager named `name`, if any. */
function pagerLink(list: FetchedPage, name: "Page suivante" | "Page précédente") {
  return (
    [...list.document.querySelectorAll("nav a")].find((link) => textOf(link).includes(name)) ?? null
  );
}

const lists = [
  {
    name: "the dashboard's articles",
    path: "/admin/dashboard?q=Pagination",
    rows: 'section[aria-labelledby="articles-titre"] ul > li',
  },
  { name: "the subscribers", path: "/admin/subscribers?q=pagination", rows: "tbody tr" },
  {
    name: "the messages",
    path: "/admin/messages?q=pagination",
    rows: 'ul[aria-label="Liste des messages"] > li',
  },
  { name: "the galleries", path: "/admin/galeries?q=Pagination", rows: "tbody tr" },
  {
    name: "the bookings' list view",
    path: "/admin/reservations?vue=liste&date=2031-03-01",
    rows: 'ul[aria-label="Réservations"] > li',
  },
];

beforeAll(async () => {
  const database = serverDatabase();
  const numbers = Array.from({ length: COUNT }, (_, index) => index);
  await database.insert(blogArticles).values(
    numbers.map((index) => ({
      title: `Pagination ${index}`,
      slug: `pagination-${index}`,
      excerpt: "x",
      content: "<p>x</p>",
      author: "x",
      createdAt: at(index),
    })),
  );
  await database.insert(blogNewsletterSubscribers).values(
    numbers.map((index) => ({
      email: `pagination-${index}@example.com`,
      consentSource: "blog",
      status: "active" as const,
      subscribedAt: at(index),
    })),
  );
  await database.insert(contactMessages).values(
    numbers.map((index) => ({
      studio: "brive",
      shootingType: "portrait",
      prenom: "Client",
      nom: `Numéro ${index}`,
      email: `pagination-${index}@example.com`,
      message: "Bonjour",
      createdAt: at(index),
    })),
  );
  await database.insert(galleries).values(
    numbers.map((index) => ({
      title: `Pagination ${index}`,
      clientName: "Julie Martin",
      clientEmail: "julie@example.test",
      accessCode: `PAGE${String(index).padStart(4, "0")}`,
      expiresAt: new Date("2031-01-01T00:00:00Z"),
      purgeAt: new Date("2031-02-01T00:00:00Z"),
      createdAt: at(index),
    })),
  );
  const [studio] = await database.select({ id: studios.id }).from(studios).limit(1);
  const [type] = await database
    .insert(sessionTypes)
    .values({
      slug: `pagination-${randomBytes(3).toString("hex")}`,
      name: "Portrait",
      durationMinutes: 60,
    })
    .returning({ id: sessionTypes.id });
  const [photographer] = await database
    .insert(photographers)
    .values({ name: "Photographe de la pagination" })
    .returning({ id: photographers.id });
  if (!studio || !type || !photographer) throw new Error("booking fixtures missing");
  await database.insert(bookings).values(
    numbers.map((index) => {
      // Some bookings share their start: the id orders them, none is skipped or shown twice.
      const startsAt = new Date(
        Date.parse("2031-03-02T09:00:00Z") + Math.floor(index / 3) * 3 * 3_600_000,
      );
      return {
        sessionTypeId: type.id,
        studioId: studio.id,
        photographerId: photographer.id,
        startsAt,
        endsAt: new Date(startsAt.getTime() + 3_600_000),
        state: "confirmed" as const,
        clientName: `Client ${index}`,
        clientEmail: `pagination-${index}@example.com`,
        manageTokenHash: randomBytes(32).toString("hex"),
      };
    }),
  );
}, 60_000);

describe("the admin lists, page by page without JavaScript", () => {
  for (const list of lists) {
    it(`${list.name}: 50 rows, then the rest behind « Page suivante », and back`, async () => {
      const first = await page(list.path);
      expect(first.status).toBe(200);
      const firstRows = [...first.document.querySelectorAll(list.rows)].map((row) => textOf(row));
      expect(firstRows).toHaveLength(PAGE_SIZE);
      expect(pagerLink(first, "Page précédente")).toBeNull();

      const next = pagerLink(first, "Page suivante")?.getAttribute("href") ?? "";
      expect(next).not.toBe("");
      // The link keeps the list's search and filters.
      const asked = new URL(list.path, "http://x").searchParams;
      const nextParams = new URL(next, "http://x").searchParams;
      for (const [name, value] of asked) expect(nextParams.get(name)).toBe(value);

      const second = await page(next);
      expect(second.status).toBe(200);
      const secondRows = [...second.document.querySelectorAll(list.rows)].map((row) => textOf(row));
      expect(secondRows).toHaveLength(EXTRA);
      expect(secondRows.filter((row) => firstRows.includes(row))).toEqual([]);
      expect(pagerLink(second, "Page suivante")).toBeNull();

      const previous = pagerLink(second, "Page précédente")?.getAttribute("href") ?? "";
      expect(previous).not.toBe("");
      const back = await page(previous);
      expect([...back.document.querySelectorAll(list.rows)].map((row) => textOf(row))).toEqual(
        firstRows,
      );
      expect(pagerLink(back, "Page précédente")).toBeNull();
    });
  }

  it("the dashboard counts every article by a query, not by the rows of its page", async () => {
    const dashboard = await page("/admin/dashboard");
    const total = await serverDatabase().$count(blogArticles);
    expect(total).toBeGreaterThan(PAGE_SIZE);
    const cards = [...dashboard.document.querySelectorAll("p")].map((paragraph) =>
      textOf(paragraph),
    );
    expect(cards[cards.indexOf("Articles") + 1]).toBe(String(total));
  });

  it("the dashboard's page and its data carry the rows' columns, never an article's body (decision 0136)", async () => {
    const body = "Corps du billet que le tableau de bord ne transporte pas";
    await serverDatabase()
      .update(blogArticles)
      .set({ content: `<p>${body}</p>`, excerpt: `Extrait : ${body}` })
      .where(sql`${blogArticles.slug} = 'pagination-0'`);
    const dashboard = await page("/admin/dashboard?q=Pagination");
    expect(dashboard.html).toContain("Pagination 0");
    expect(dashboard.html).not.toContain(body);
    const data = await fetch(new URL("/admin/dashboard.data?q=Pagination", serverBaseUrl()), {
      headers: { cookie: admin.cookie() },
    });
    const payload = await data.text();
    expect(data.status).toBe(200);
    expect(payload).toContain("Pagination 0");
    expect(payload).not.toContain(body);
  });
});

describe("« Copier les emails »", () => {
  const activeCount = async () =>
    (
      await serverDatabase().execute<{ count: number }>(
        sql`select count(*)::int as count from blog_newsletter_subscribers where status = 'active'`,
      )
    ).rows[0]?.count ?? 0;

  it("copies from the page while the active addresses are few (SPEC)", async () => {
    expect(await activeCount()).toBeLessThanOrEqual(200);
    const list = await page("/admin/subscribers");
    const buttons = [...list.document.querySelectorAll("button")].map((button) => textOf(button));
    expect(buttons).toContain("Copier les emails");
  });

  it("becomes a streamed CSV download of the active addresses when they are many, none of them in the page", async () => {
    await serverDatabase()
      .insert(blogNewsletterSubscribers)
      .values([
        ...Array.from({ length: 200 }, (_, index) => ({
          email: `copie-${index}@example.com`,
          consentSource: "import",
          status: "active" as const,
          subscribedAt: new Date(Date.parse("2020-01-01T00:00:00Z") + index * minute),
        })),
        {
          email: "copie-partie@example.com",
          consentSource: "blog",
          status: "unsubscribed" as const,
        },
      ]);
    const active = await activeCount();
    expect(active).toBeGreaterThan(200);
    const list = await page("/admin/subscribers");
    const buttons = [...list.document.querySelectorAll("button")].map((button) => textOf(button));
    expect(buttons).not.toContain("Copier les emails");
    const download = [...list.document.querySelectorAll("a")].find(
      (link) => textOf(link) === "Télécharger les emails actifs",
    );
    expect(download?.getAttribute("href")).toBe("/admin/subscribers/export.csv?statut=actifs");
    // Only the page's 50 rows are in the page: the oldest addresses are not.
    expect(list.html).not.toContain("copie-0@example.com");

    const csv = await fetch(
      new URL("/admin/subscribers/export.csv?statut=actifs", serverBaseUrl()),
      {
        headers: { cookie: admin.cookie() },
      },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toMatch(
      /^attachment; filename="abonnes-actifs-/,
    );
    // Streamed: sent in chunks, its length unknown when it starts.
    expect(csv.headers.get("content-length")).toBeNull();
    const lines = (await csv.text()).trimEnd().split("\r\n");
    expect(lines).toHaveLength(active + 1);
    expect(lines.filter((line) => line.includes('"copie-'))).toHaveLength(200);
    expect(lines.some((line) => line.includes("copie-partie"))).toBe(false);
    expect(new Set(lines).size).toBe(lines.length);
  });
});
