import { randomBytes } from "node:crypto";
import { like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import {
  blogArticles,
  blogNewsletterSubscribers,
  contactMessages,
} from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { articleRow, insertTwoContactMessages } from "../support/admin-content";
import { formatLongDateTimeFr } from "../../app/lib/dates";
import { fetchPage, textOf } from "../support/html";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";

/*
 * What the admin's lists show, as the server renders them: the dashboard's articles, the subscribers
 * (and their export), the contact messages. Their buttons and dialogs are tests/e2e/admin-areas.
 */

const admin = useAdmin();
const marker = randomBytes(4).toString("hex");
const day = 24 * 60 * 60 * 1000;

afterAll(async () => {
  const database = serverDatabase();
  await database.delete(blogArticles).where(like(blogArticles.slug, `%${marker}%`));
  await database
    .delete(blogNewsletterSubscribers)
    .where(like(blogNewsletterSubscribers.email, `%${marker}%`));
  await database.delete(contactMessages).where(like(contactMessages.email, `%${marker}%`));
});

const adminPage = (path: string) => fetchPage(path, { cookie: admin.cookie() });

describe("dashboard", () => {
  it("shows each article's publication date beside its creation date", async () => {
    await serverDatabase()
      .insert(blogArticles)
      .values([
        {
          title: `Publié ${marker}`,
          slug: `publie-${marker}`,
          excerpt: "x",
          content: "<p>x</p>",
          author: "x",
          published: true,
          createdAt: new Date("2025-03-01T10:00:00Z"),
          publishedAt: new Date("2025-03-05T10:00:00Z"),
        },
        {
          title: `Brouillon ${marker}`,
          slug: `brouillon-${marker}`,
          excerpt: "x",
          content: "<p>x</p>",
          author: "x",
          createdAt: new Date("2025-03-02T10:00:00Z"),
        },
      ]);
    const dashboard = await adminPage(`/admin/dashboard?q=${marker}`);
    const row = (title: string) => textOf(articleRow(dashboard, title));
    // The row leads with the date the list is ordered by.
    expect(row(`Publié ${marker}`)).toContain("Publié le 5 mars 2025 · Créé le 1er mars 2025");
    expect(row(`Brouillon ${marker}`)).toContain("Créé le 2 mars 2025");
    expect(row(`Brouillon ${marker}`)).not.toContain("Publié le");
  });

  it("lists articles newest first by the date each row leads with: published, scheduled or created", async () => {
    // By creation alone the order would be the draft, the published one, the scheduled one.
    const scheduledFor = new Date("2099-06-01T08:00:00Z");
    await serverDatabase()
      .insert(blogArticles)
      .values([
        {
          title: `Ordre publié ${marker}`,
          slug: `ordre-publie-${marker}`,
          excerpt: "x",
          content: "<p>x</p>",
          author: "x",
          published: true,
          createdAt: new Date("2024-05-01T10:00:00Z"),
          publishedAt: new Date("2024-05-20T10:00:00Z"),
        },
        {
          title: `Ordre brouillon ${marker}`,
          slug: `ordre-brouillon-${marker}`,
          excerpt: "x",
          content: "<p>x</p>",
          author: "x",
          createdAt: new Date("2024-05-10T10:00:00Z"),
        },
        {
          title: `Ordre programmé ${marker}`,
          slug: `ordre-programme-${marker}`,
          excerpt: "x",
          content: "<p>x</p>",
          author: "x",
          createdAt: new Date("2024-04-01T10:00:00Z"),
          scheduledAt: scheduledFor,
        },
      ]);
    const dashboard = await adminPage(`/admin/dashboard?q=${marker}`);
    const mine = [...dashboard.document.querySelectorAll("li")]
      .filter((item) => textOf(item.querySelector("h3")).startsWith("Ordre "))
      .filter((item) => textOf(item.querySelector("h3")).endsWith(marker))
      .map((item) => textOf(item.querySelector("p")));
    expect(mine).toHaveLength(3);
    expect(mine[0]).toMatch(
      new RegExp(`^Publication programmée le ${formatLongDateTimeFr(scheduledFor)} · Créé le`),
    );
    expect(mine[1]).toMatch(/^Publié le 20 mai 2024 · Créé le 1er mai 2024/);
    expect(mine[2]).toMatch(/^Créé le 10 mai 2024/);
  });
});

describe("subscribers", () => {
  const emails = {
    earliest: `ancien-${marker}@example.com`,
    unsubscribed: `parti-${marker}@example.com`,
    latest: `recent-${marker}@example.com`,
  };

  it("lists subscribers newest first, the unsubscribed marked and dimmed; the CSV export is French Excel's", async () => {
    await serverDatabase()
      .insert(blogNewsletterSubscribers)
      .values([
        {
          email: emails.earliest,
          consentSource: "blog",
          subscribedAt: new Date(Date.now() - 3 * day),
          status: "active",
        },
        {
          email: emails.unsubscribed,
          consentSource: "blog",
          subscribedAt: new Date(Date.now() - 2 * day),
          status: "unsubscribed",
        },
        {
          email: emails.latest,
          consentSource: "article",
          subscribedAt: new Date(Date.now() - day),
          status: "active",
        },
      ]);
    const { document } = await adminPage(`/admin/subscribers?q=${marker}`);
    const rows = [...document.querySelectorAll("tbody tr")];
    const mine = rows
      .map((row) => textOf(row.querySelector("td")))
      .filter((email) => email.includes(marker));
    expect(mine).toEqual([emails.latest, emails.unsubscribed, emails.earliest]);
    const gone = rows.find((row) => textOf(row.querySelector("td")) === emails.unsubscribed);
    expect(textOf(gone)).toContain("Désabonné");
    expect(gone?.getAttribute("class")).toContain("text-stone-500");

    const csv = await fetch(new URL("/admin/subscribers/export.csv", serverBaseUrl()), {
      headers: { cookie: admin.cookie() },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // The bytes as sent: reading the body as text would drop the BOM.
    const bytes = new Uint8Array(await csv.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    // French date and time in Paris, semicolons and a BOM for French Excel.
    expect(text).toMatch(
      new RegExp(`"parti-${marker}@example\\.com";"\\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d";`),
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text).toContain('"désabonné"');
  });
});

describe("messages", () => {
  it("shows the contact messages newest first, with everything the visitor gave", async () => {
    // Names of their own: tests/e2e/admin-areas finds its messages by their authors' names.
    const { newerEmail } = await insertTwoContactMessages(marker, {
      older: "Première",
      newer: "Seconde",
      family: `Durand ${marker}`,
    });
    const { document } = await adminPage(`/admin/messages?q=${marker}`);
    const names = [...document.querySelectorAll("article h2")]
      .map((name) => textOf(name))
      .filter((name) => name.includes(marker));
    expect(names).toEqual([`Seconde Durand ${marker}`, `Première Durand ${marker}`]);
    const latest = textOf(
      document.querySelector(`article[aria-label="Message de Seconde Durand ${marker}"]`),
    );
    for (const part of [
      "Studio de Brive",
      "Naissance",
      "Instagram",
      newerEmail,
      "05 36 49 00 00",
      `Second message ${marker}`,
      "À traiter",
    ]) {
      expect(latest).toContain(part);
    }
  });
});
