import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDocuments, seedStudios } from "../../app/content/seed";
import { isPlaceholderAddress } from "../../app/lib/external-links";
import { firstFreeTime } from "../support/booking";
import { fetchPage, postForm, textOf } from "../support/html";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { closeServerDatabase, targetServer } from "../support/server-under-test";

// A fresh clone's `npm start` (decision 0126): the server on its own embedded PostgreSQL, with the demo
// content (SEED_DEMO=1, the default). Its three studios take bookings on the site out of the box, and no
// link of it leads to a site that does not exist.

let server: ServerProcess | undefined;
beforeAll(async () => {
  server = await startServerProcess(
    inject("adminDatabaseUrl"),
    { SEED_DEMO: "1" },
    { embedded: true },
  );
  await targetServer(server);
}, 180_000);
afterAll(async () => {
  await closeServerDatabase();
  await server?.stop();
});

const SLUGS = seedStudios.map((studio) => studio.slug);

describe("a fresh demo site takes bookings", () => {
  it("the header's « Réserver » leads to /reserver, which lists the three studios; each studio's « Réserver en ligne » leads to its booking page", async () => {
    const home = await fetchPage("/");
    const reserve = [...home.document.querySelectorAll("header a")].filter(
      (link) => textOf(link) === "Réserver",
    );
    expect(reserve.length).toBeGreaterThan(0);
    for (const link of reserve) expect(link.getAttribute("href")).toBe("/reserver");

    const page = await fetchPage("/reserver");
    expect(page.status).toBe(200);
    const studios = [...page.document.querySelectorAll('main a[href^="/reserver/"]')];
    expect(studios.map((link) => link.getAttribute("href"))).toEqual(
      SLUGS.map((slug) => `/reserver/${slug}`),
    );

    for (const slug of SLUGS) {
      const studio = await fetchPage(`/studio-${slug}`);
      const booking = [...studio.document.querySelectorAll("main a")].filter(
        (link) => textOf(link) === "Réserver en ligne",
      );
      expect(
        booking.map((link) => link.getAttribute("href")),
        slug,
      ).toEqual([`/reserver/${slug}`]);
      // No gift-voucher service is set yet: no button to a site that does not exist.
      expect(textOf(studio.document.querySelector("main")), slug).not.toContain(
        "Offrir un bon cadeau",
      );
    }
  });

  it("offers the sessions of the price list at each studio, and a visitor books one end to end", async () => {
    for (const slug of SLUGS) {
      const studio = await fetchPage(`/reserver/${slug}`);
      expect(studio.status, slug).toBe(200);
      const main = textOf(studio.document.querySelector("main"));
      for (const name of [
        "Séance Famille",
        "Séance Grossesse",
        "Séance Naissance",
        "Portrait CV",
      ]) {
        expect(main, `${slug}: ${name}`).toContain(name);
      }
    }

    const { href } = await firstFreeTime("/reserver/brive/seance-famille");
    expect(href).toContain("/reserver/brive/seance-famille/coordonnees?creneau=");
    const form = await fetchPage(href);
    expect(form.status).toBe(200);
    const answer = await postForm(href, {
      name: "Camille Durand",
      email: "camille.durand@example.test",
      phone: "06 11 22 33 44",
      consent: "on",
      site_web: "",
    });
    expect(answer.status).toBe(303);
    const location = answer.headers.get("location") ?? "";
    expect(location).toMatch(/^\/reservation\/[A-Za-z0-9_-]{43}\?nouvelle=1$/);
    const mine = await fetchPage(location);
    expect(mine.status).toBe(200);
    const text = textOf(mine.document.querySelector("main"));
    expect(text).toContain("Votre séance est réservée.");
    expect(text).toContain("Séance Famille");
    expect(text).toContain("Camille Durand");
    // One price list (decision 0127): the card's price and « ce qui est compris » in the confirmation.
    expect(text).toContain("Tarif79 €");
    expect(text).toContain("Ce qui est compris");
    expect(text).toContain("Un tirage papier 20x30 cm offert");
  });
});

describe("one price list (decision 0127)", () => {
  const BOOKABLE = [
    ["Séance Famille", "seance-famille"],
    ["Séance Grossesse", "seance-grossesse"],
    ["Séance Naissance", "seance-naissance"],
    ["Portrait CV", "portrait-cv"],
  ] as const;

  it("each bookable card of /tarifs has « Réserver », to the choice of the studios offering its session", async () => {
    const page = await fetchPage("/tarifs");
    const cards = [...page.document.querySelectorAll("main article")];
    const reserve = (title: string) => {
      const card = cards.find((element) => textOf(element.querySelector("h3")) === title);
      return [...(card?.querySelectorAll("a") ?? [])]
        .filter((link) => textOf(link).startsWith("Réserver"))
        .map((link) => link.getAttribute("href"));
    };
    for (const [title, slug] of BOOKABLE) {
      expect(reserve(title), title).toEqual([`/reserver?seance=${slug}`]);
    }
    for (const title of ["Coffret Grossesse + Naissance", "Mariages", "Prestations Pro"]) {
      expect(reserve(title), title).toEqual([]);
    }

    const chooser = await fetchPage("/reserver?seance=seance-naissance");
    expect(chooser.status).toBe(200);
    expect(textOf(chooser.document.querySelector("main"))).toContain("Séance Naissance");
    expect(
      [...chooser.document.querySelectorAll('main a[href^="/reserver/"]')].map((link) =>
        link.getAttribute("href"),
      ),
    ).toEqual(SLUGS.map((slug) => `/reserver/${slug}/seance-naissance`));
  });

  it("the booking pages sell each session at its card's price, with its card's lines as « ce qui est compris »", async () => {
    const studio = textOf((await fetchPage("/reserver/limoges")).document.querySelector("main"));
    expect(studio).toContain("79 €");
    expect(studio).toContain("99 €");
    expect(studio).toContain("59 €");
    const days = textOf(
      (await fetchPage("/reserver/limoges/seance-naissance")).document.querySelector("main"),
    );
    expect(days).toContain("99 €");
    expect(days).toContain("Ce qui est compris");
    expect(days).toContain(
      "Séance de 1 h 30 à 2 h 30, idéalement entre le 7e et le 15e jour de vie",
    );
  });
});

/** Every address on the web the seed holds (what a fresh site is configured with), placeholders aside. */
function configuredAddresses(): string[] {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === "string" && /^https?:\/\//.test(value)) found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(seedDocuments);
  walk(seedStudios);
  return found.filter((address) => !isPlaceholderAddress(address));
}

/**
 * The sites the product itself links to: sharing an article, a video the owner chose, and the regulator
 * (CNIL) the legal pages name.
 */
const PRODUCT_HOSTS = [
  "www.cnil.fr",
  "www.facebook.com",
  "www.linkedin.com",
  "www.youtube.com",
  "www.youtube-nocookie.com",
];

/** Pages the crawl does not follow: files, feeds, the admin (its own sign-in). */
const NOT_A_PAGE =
  /^\/(admin|uploads|assets|images|calendrier)\b|\.(xml|txt|ics|jpg|png|webp|avif|svg|zip|csv)$/;

describe("no link of a fresh demo site points to a site that does not exist", () => {
  it("crawls every internal page from / breadth-first: each answers, and each external link goes to a configured host", async () => {
    const allowed = new Set([
      ...configuredAddresses().map((address) => new URL(address).hostname),
      ...PRODUCT_HOSTS,
    ]);
    const origin = new URL(server?.baseUrl ?? "").origin;
    const queue: string[] = ["/"];
    const seen = new Set(queue);
    const perPath = new Map<string, number>();
    const broken: string[] = [];
    const external = new Map<string, string>();
    const MAX_PAGES = 400;
    let crawled = 0;
    while (queue.length > 0 && crawled < MAX_PAGES) {
      const path = queue.shift() ?? "/";
      crawled += 1;
      const page = await fetchPage(path);
      if (page.status >= 300 && page.status < 400) {
        const target = new URL(page.headers.get("location") ?? "/", origin);
        if (target.origin === origin && !seen.has(target.pathname + target.search)) {
          seen.add(target.pathname + target.search);
          queue.push(target.pathname + target.search);
        }
        continue;
      }
      if (page.status !== 200) {
        broken.push(`${path} → ${page.status}`);
        continue;
      }
      for (const anchor of page.document.querySelectorAll("a[href]")) {
        const href = anchor.getAttribute("href") ?? "";
        if (/^(mailto|tel|sms):/i.test(href) || href.startsWith("#")) continue;
        const url = new URL(href, origin + path);
        if (url.origin !== origin) {
          if (/^https?:$/.test(url.protocol)) external.set(url.href, path);
          continue;
        }
        const key = url.pathname + url.search;
        if (seen.has(key) || NOT_A_PAGE.test(url.pathname)) continue;
        // Bounded: a few variants of one page (days, times, tabs) stand for the rest.
        const variants = perPath.get(url.pathname) ?? 0;
        if (url.search && variants >= 3) continue;
        perPath.set(url.pathname, variants + 1);
        seen.add(key);
        queue.push(key);
      }
    }
    expect(broken).toEqual([]);
    // The whole site was walked, booking pages included, within the bound.
    expect(crawled).toBeGreaterThan(40);
    expect(queue).toEqual([]);
    expect([...seen]).toEqual(expect.arrayContaining(["/reserver", "/tarifs", "/reserver/brive"]));

    const wrong = [...external].filter(
      ([href]) => isPlaceholderAddress(href) || !allowed.has(new URL(href).hostname),
    );
    expect(wrong.map(([href, from]) => `${href} (sur ${from})`)).toEqual([]);
    expect(external.size).toBeGreaterThan(0);
  });
});
