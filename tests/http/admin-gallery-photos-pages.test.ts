import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { galleryPhotos } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { insertTestGallery } from "../support/galleries";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";

/*
 * A gallery's photos page shows 100 photos at a time, with « Page suivante » / « Page précédente » as plain
 * links, counts by the database, and moves that keep their place in the whole gallery (decision 0136): a
 * gallery can hold 2,000 photos.
 */

const admin = useAdmin();
const page = (path: string) => fetchPage(path, { cookie: admin.cookie() });

const PAGE_SIZE = 100;
const COUNT = 230;
const GRID = 'ul[aria-label="Photos de la galerie, dans l\'ordre du client"] > li';
const nameOf = (index: number) => `photo-${String(index).padStart(3, "0")}.jpg`;

let galleryId = "";

beforeAll(async () => {
  const database = serverDatabase();
  ({ id: galleryId } = await insertTestGallery(database, { title: "Galerie de 230 photos" }));
  await database.insert(galleryPhotos).values(
    Array.from({ length: COUNT }, (_, index) => ({
      galleryId,
      position: index + 1,
      originalName: nameOf(index + 1),
      sourceExtension: "jpg",
      status: index < 10 ? ("ready" as const) : ("uploaded" as const),
    })),
  );
});

const names = (grid: FetchedPage) =>
  [...grid.document.querySelectorAll(GRID)].map((tile) => textOf(tile.querySelector("h3")));

function pagerLink(grid: FetchedPage, name: "Page suivante" | "Page précédente") {
  return (
    [...grid.document.querySelectorAll('nav[aria-label="Pages des photos"] a')]
      .find((link) => textOf(link).includes(name))
      ?.getAttribute("href") ?? null
  );
}

/** The « Monter » / « Descendre » button of a photo of the page. */
const moveButton = (grid: FetchedPage, direction: "Monter" | "Descendre", name: string) =>
  grid.document.querySelector(`button[aria-label="${direction} « ${name} »"]`);

describe("a gallery's photos page", () => {
  it("shows 100 photos, the others behind « Page suivante », with the gallery's counts", async () => {
    const first = await page(`/admin/galeries/${galleryId}`);
    expect(first.status).toBe(200);
    expect(names(first)).toEqual(
      Array.from({ length: PAGE_SIZE }, (_, index) => nameOf(index + 1)),
    );
    expect(textOf(first.document.querySelector('p[role="status"]'))).toBe(
      "10 photos prêtes sur 230 · 220 en préparation",
    );
    expect(pagerLink(first, "Page précédente")).toBeNull();

    const second = await page(pagerLink(first, "Page suivante") ?? "");
    expect(names(second)).toEqual(
      Array.from({ length: PAGE_SIZE }, (_, index) => nameOf(PAGE_SIZE + index + 1)),
    );
    // Places in the whole gallery: the page's first photo can still go up, onto the page before.
    expect(moveButton(second, "Monter", nameOf(101))?.hasAttribute("disabled")).toBe(false);

    const last = await page(pagerLink(second, "Page suivante") ?? "");
    expect(names(last)).toEqual(
      Array.from({ length: COUNT - 2 * PAGE_SIZE }, (_, index) =>
        nameOf(2 * PAGE_SIZE + index + 1),
      ),
    );
    expect(pagerLink(last, "Page suivante")).toBeNull();
    expect(moveButton(last, "Descendre", nameOf(COUNT))?.hasAttribute("disabled")).toBe(true);

    const back = await page(pagerLink(last, "Page précédente") ?? "");
    expect(names(back)).toEqual(names(second));
  });

  it("polls the progress of the page it shows, with the gallery's counts and the page's place", async () => {
    const first = await page(`/admin/galeries/${galleryId}`);
    const next = new URL(pagerLink(first, "Page suivante") ?? "", serverBaseUrl());
    const progress = await fetch(
      `${serverBaseUrl()}/admin/galeries/${galleryId}/progression${next.search}`,
      { headers: { cookie: admin.cookie() } },
    );
    const body = (await progress.json()) as {
      total: number;
      ready: number;
      preparing: number;
      offset: number;
      photos: Array<{ name: string }>;
    };
    expect(body).toMatchObject({ total: COUNT, ready: 10, preparing: COUNT - 10, offset: 100 });
    expect(body.photos.map((photo) => photo.name)).toEqual(
      names(await page(next.pathname + next.search)),
    );
  });

  it("moves a photo across pages by its place in the gallery and comes back to the same page", async () => {
    const first = await page(`/admin/galeries/${galleryId}`);
    const nextPath = pagerLink(first, "Page suivante") ?? "";
    const [moved] = await serverDatabase()
      .select({ id: galleryPhotos.id })
      .from(galleryPhotos)
      .where(eq(galleryPhotos.originalName, nameOf(101)));
    const answer = await postForm(
      nextPath,
      { intent: "up", id: moved?.id ?? "" },
      { cookie: admin.cookie() },
    );
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(nextPath);
    // Photo 101 took place 100 (the first page's last), photo 100 moved to the second page.
    expect(names(await page(`/admin/galeries/${galleryId}`)).at(-1)).toBe(nameOf(101));
    expect(names(await page(nextPath))).toContain(nameOf(100));
  });
});
