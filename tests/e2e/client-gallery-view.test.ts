import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { galleries, galleryPhotos } from "../../app/server/db/schema";
import {
  addReadyPhotoWithPlaceholder,
  insertExpiredGallery,
  clientAccessCookie,
  removeClientGalleries,
} from "../support/client-galleries";
import { insertTestGallery, type TestGallery } from "../support/galleries";
import { makeTestJpeg, makeTestPhotoSet } from "../support/photos";
import { serverDatabase } from "../support/server-under-test";
import type { Page } from "playwright-core";
import { axeViolations, useBrowser } from "./support/browser";
import { viewerZoomedIn, zoomInWithKeyboard } from "./support/viewer";

/*
 * The client's gallery as the client lives it with JavaScript (decision 0103): the
 * code typed, the justified grid with its placeholders, the viewer (counter, arrows, zoom, Escape),
 * favourites and a comment, the validated selection that locks; axe on each. What the server answers
 * (missing and expired galleries, the forms without JavaScript, the limits, the files) is in
 * tests/http/client-gallery-view.test.ts. Photos are placed ready in the server's store.
 */

const { openPage } = useBrowser();
// Refused forms (400) and the expired gallery (410) show in the console as failed loads.
const allowConsole = [/status of 4\d\d/];

let gallery: TestGallery;
let expired: TestGallery;
let photoIds: string[] = [];

beforeAll(async () => {
  const database = serverDatabase();
  gallery = await insertTestGallery(database, { title: "Mariage de Léa et Hugo" });
  expired = await insertExpiredGallery();
  for (const photo of await makeTestPhotoSet(4)) {
    photoIds.push(await addReadyPhotoWithPlaceholder(gallery.id, photo));
  }
}, 120_000);

afterAll(async () => {
  await removeClientGalleries([gallery.id, expired.id]);
  photoIds = [];
});

const galleryPath = (id: string) => `/galerie-client/${id}`;

/** The gallery's page as the client finds it once the code was typed (the form has its own test). */
const openGallery = () =>
  openPage(galleryPath(gallery.id), { allowConsole, session: clientAccessCookie(gallery.id) });

describe("the client's gallery", () => {
  it("asks for the code: a wrong one stays with its message, the right one in any form opens the grid, its placeholders painted after hydration", async () => {
    const gone = await openPage(galleryPath(expired.id), { allowConsole });
    await gone.getByRole("heading", { name: "Galerie expirée" }).waitFor();
    expect(await axeViolations(gone)).toEqual([]);

    const page = await openPage(galleryPath(gallery.id), { allowConsole });
    expect(await axeViolations(page)).toEqual([]);
    // The page is there to take the code: its field has the focus (decision 0134).
    await page.waitForFunction(() => document.activeElement?.id === "code");
    const field = page.getByLabel("Code d'accès");
    await field.fill("zzzz-zzzz");
    await page.getByRole("button", { name: "Voir mes photos" }).click();
    await page
      .getByText("Code d'accès incorrect. Vérifiez le code à 8 caractères reçu par e-mail.")
      .waitFor();
    expect(await field.inputValue()).toBe("zzzz-zzzz");

    const typed = `${gallery.accessCode.slice(0, 4).toLowerCase()}-${gallery.accessCode.slice(4)}`;
    await field.fill(typed);
    await page.getByRole("button", { name: "Voir mes photos" }).click();
    const tiles = page.locator("ul.justified > li");
    await tiles.first().waitFor();
    expect(await tiles.count()).toBe(4);
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLElement>("ul.justified > li")].every((tile) =>
          tile.style.backgroundImage.startsWith('url("data:image/png'),
        ),
      null,
      { timeout: 10_000 },
    );
    expect(await page.getByText("Disponible jusqu'au").isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("fetches the viewer's code while the page is idle, before the first photo is opened (decision 0134)", async () => {
    const page = await openGallery();
    await page.waitForFunction(() =>
      performance
        .getEntriesByType("resource")
        .some((entry) => /\/assets\/photo-viewer-[\w-]+\.js$/.test(entry.name)),
    );
    expect(await page.locator(".yarl__counter").count()).toBe(0);
  });

  it("opens the viewer: counter, arrows, zoom, Escape", async () => {
    const page = await openGallery();
    await page.locator("ul.justified > li a").first().click();
    const counter = page.locator(".yarl__counter");
    await counter.waitFor();
    expect(await counter.textContent()).toBe("1 / 4");
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(
      () => document.querySelector(".yarl__counter")?.textContent === "2 / 4",
    );
    await page.waitForURL((url) => url.searchParams.get("photo") === photoIds[1]);

    expect(await viewerZoomedIn(page)).toBe(false);
    await zoomInWithKeyboard(page);
    await page.keyboard.press("Escape");
    await counter.waitFor({ state: "detached" });
    await page.waitForURL((url) => !url.searchParams.has("photo"));
  });

  it("keeps favourites and a comment, then validates the selection, which locks it", async () => {
    const page = await openGallery();
    const heart = page.getByRole("button", { name: "Ajouter aux favoris : IMG_0001.jpg" });
    await heart.click();
    await page.waitForFunction(
      () =>
        document
          .querySelector('button[aria-label="Ajouter aux favoris : IMG_0001.jpg"]')
          ?.getAttribute("aria-pressed") === "true",
    );
    await page.getByRole("button", { name: /^Commentaire : IMG_0002\.jpg/ }).click();
    const dialog = page.getByRole("dialog", { name: "Commentaire sur IMG_0002.jpg" });
    await dialog
      .getByLabel("Votre commentaire pour le studio")
      .fill("Plus lumineuse, s'il vous plaît");
    await dialog.getByRole("button", { name: "Enregistrer" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("link", { name: "Mes favoris (2)" }).waitFor();

    const rows = await serverDatabase()
      .select({
        name: galleryPhotos.originalName,
        favourite: galleryPhotos.favourite,
        comment: galleryPhotos.favouriteComment,
      })
      .from(galleryPhotos)
      .where(eq(galleryPhotos.galleryId, gallery.id))
      .orderBy(galleryPhotos.originalName);
    expect(rows.slice(0, 2)).toEqual([
      { name: "IMG_0001.jpg", favourite: true, comment: null },
      { name: "IMG_0002.jpg", favourite: true, comment: "Plus lumineuse, s'il vous plaît" },
    ]);

    await page.getByRole("link", { name: "Mes favoris (2)" }).click();
    await page.waitForFunction(() => document.querySelectorAll("ul.justified > li").length === 2);

    await page.getByRole("button", { name: "Valider ma sélection" }).click();
    const confirm = page.getByRole("dialog", {
      name: "Valider ma sélection de 2 photos ? Vous ne pourrez plus la modifier.",
    });
    await confirm.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole("button", { name: "Oui, valider ma sélection" }).click();
    await page.getByText(/^Sélection envoyée au studio le \d/).waitFor();
    expect(await heart.isDisabled()).toBe(true);
    const [row] = await serverDatabase()
      .select({ validatedAt: galleries.selectionValidatedAt })
      .from(galleries)
      .where(eq(galleries.id, gallery.id));
    expect(row?.validatedAt).toBeInstanceOf(Date);
  });
});

/** One drawn photo of the page: how many pixels it shows, which file the browser took and could take. */
type Drawn = {
  name: string;
  /** The width it is drawn at, in CSS pixels. */
  drawnWidth: number;
  /** The width its `sizes` gave the browser (what an image with `w` descriptors reports as natural). */
  sizesWidth: number;
  chosenWidth: number;
  candidates: number[];
};

/**
 * Every gallery photo on the page (the cover and the tiles, loaded): the width it is drawn at (object-fit:
 * cover draws it over its whole box, wider than the box when the box crops its sides), the width its
 * `sizes` announced, the width of the file the browser chose, and the widths it could choose from (the
 * first source's `srcset`: Chromium takes AVIF).
 */
function drawnPhotos(page: Page): Promise<Drawn[]> {
  return page.evaluate(async () => {
    const images = [...document.querySelectorAll<HTMLImageElement>("main picture img")];
    await Promise.all(images.map((image) => image.decode().catch(() => undefined)));
    return images.map((image) => {
      const box = image.getBoundingClientRect();
      const ratio = image.naturalWidth / image.naturalHeight;
      const source = image.parentElement?.querySelector("source");
      return {
        name: image.alt || "(couverture)",
        drawnWidth: Math.max(box.width, box.height * ratio),
        sizesWidth: image.naturalWidth,
        chosenWidth: Number(/-w(\d+)\.\w+$/.exec(image.currentSrc)?.[1]),
        candidates: (source?.srcset ?? image.srcset)
          .split(",")
          .map((candidate) => Number(/(\d+)w\s*$/.exec(candidate.trim())?.[1]))
          .sort((a, b) => a - b),
      };
    });
  });
}

/**
 * The file a browser that knew the drawn size would take among `candidates`, by Chromium's rule
 * (html_srcset_parser.cc, SelectionLogic): the smallest whose density reaches the screen's, except that on
 * a screen denser than 1 it keeps the one below when the screen's density is under the two's geometric
 * mean (a bandwidth trade-off of the browser's). A `sizes` smaller than the drawn size makes it take less
 * than this; the photo is then blurry.
 */
function fileForDrawnSize(candidates: number[], shownCssWidth: number, dpr: number): number {
  const density = (width: number) => width / shownCssWidth;
  for (let index = 0; index < candidates.length - 1; index++) {
    const current = candidates[index] as number;
    const next = candidates[index + 1] as number;
    if (density(next) < dpr) continue;
    const mean = Math.sqrt(density(current) * density(next));
    if ((dpr <= 1 && dpr > density(current)) || dpr >= mean) return next;
    return current;
  }
  return candidates.at(-1) as number;
}

describe("the client's gallery on each screen", () => {
  let screensGallery: TestGallery;

  beforeAll(async () => {
    screensGallery = await insertTestGallery(serverDatabase(), { title: "Portraits de famille" });
    // Landscape (3:2), portrait (2:3, the fifth) and a panorama (4:1), each at the size a camera's
    // export would have for the web.
    const photos = [
      ...(await makeTestPhotoSet(6)),
      {
        name: "PANO_0007.jpg",
        buffer: await makeTestJpeg({ index: 7, width: 2400, height: 600 }),
      },
    ];
    const ids: string[] = [];
    for (const photo of photos)
      ids.push(await addReadyPhotoWithPlaceholder(screensGallery.id, photo));
    // The owner chose « En haut » for the cover's framing (decision 0134).
    await serverDatabase()
      .update(galleries)
      .set({ coverPhotoId: ids[0], coverFocalX: 50, coverFocalY: 0 })
      .where(eq(galleries.id, screensGallery.id));
  }, 120_000);

  afterAll(async () => {
    await removeClientGalleries([screensGallery.id]);
  });

  const screens = [
    { name: "phone", width: 390, height: 844 },
    { name: "tablet", width: 768, height: 1024 },
    { name: "desktop", width: 1440, height: 900 },
  ];
  const cases = screens.flatMap((screen) => [1, 2].map((dpr) => ({ ...screen, dpr })));

  it.each(cases)(
    "$name at DPR $dpr: every photo's file has the pixels its tile shows",
    async ({ name, width, height, dpr }) => {
      const page = await openPage(galleryPath(screensGallery.id), {
        allowConsole,
        session: clientAccessCookie(screensGallery.id),
        viewport: { width, height },
        deviceScaleFactor: dpr,
      });
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const drawn = await drawnPhotos(page);
      // The cover above the grid, then the seven tiles.
      expect(drawn).toHaveLength(8);
      for (const photo of drawn) {
        const what = `${photo.name} (${Math.round(photo.drawnWidth)} px drawn)`;
        // What the page announced covers what it draws (the natural width the browser reports is the file's
        // width over its density, truncated: one pixel less), and the browser took a file accordingly.
        expect(photo.sizesWidth, what).toBeGreaterThanOrEqual(Math.floor(photo.drawnWidth) - 1);
        expect(photo.chosenWidth, what).toBeGreaterThanOrEqual(
          fileForDrawnSize(photo.candidates, photo.drawnWidth, dpr),
        );
      }
      if (name === "phone") {
        // Whole photos in rows (decision 0134): each tile has its photo's shape (clamped to 2.5, the
        // panorama), a row's tiles share one height, and every row but the last fills the width.
        const tiles = await page.locator("ul.justified > li").evaluateAll((items) =>
          items.map((item) => {
            const box = item.getBoundingClientRect();
            const image = item.querySelector("img");
            return {
              top: Math.round(box.top),
              right: box.right,
              width: box.width,
              height: box.height,
              ratio: Number(image?.getAttribute("width")) / Number(image?.getAttribute("height")),
            };
          }),
        );
        for (const tile of tiles) {
          expect(tile.width / tile.height).toBeCloseTo(Math.min(2.5, tile.ratio), 1);
        }
        const rows = [...new Set(tiles.map((tile) => tile.top))].map((top) =>
          tiles.filter((tile) => tile.top === top),
        );
        expect(rows.length).toBeGreaterThan(1);
        for (const [index, row] of rows.entries()) {
          const heights = row.map((tile) => tile.height);
          expect(Math.max(...heights) - Math.min(...heights)).toBeLessThan(1);
          if (index < rows.length - 1) {
            expect(Math.max(...row.map((tile) => tile.right))).toBeCloseTo(width - 16, 0);
          }
        }
      }
    },
  );

  it("highlights the filter in use, rings the focused photo on light and dark, names the photo in the viewer", async () => {
    const page = await openPage(galleryPath(screensGallery.id), {
      allowConsole,
      session: clientAccessCookie(screensGallery.id),
    });
    // Colours as sRGB "r,g,b" (the stylesheet writes them in oklch), read through a canvas.
    await page.evaluate(() => {
      (window as unknown as { rgb: (colour: string) => string }).rgb = (colour) => {
        const context = document.createElement("canvas").getContext("2d");
        if (!context) return "";
        context.fillStyle = colour;
        context.fillRect(0, 0, 1, 1);
        return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)].join(",");
      };
    });
    const colours = (link: string) =>
      page.getByRole("link", { name: link }).evaluate((element) => {
        const { rgb } = window as unknown as { rgb: (colour: string) => string };
        const style = getComputedStyle(element);
        return `${rgb(style.color)} on ${rgb(style.backgroundColor)}`;
      });
    // « Toutes les photos » is the page (white on dark), « Mes favoris » is not (dark on white).
    expect(await colours("Toutes les photos (7)")).toBe("255,255,255 on 28,25,23");
    expect(await colours("Mes favoris (0)")).toBe("28,25,23 on 255,255,255");

    const firstTile = page.locator("ul.justified > li a").first();
    await firstTile.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    const ring = await firstTile.evaluate((element) => {
      const { rgb } = window as unknown as { rgb: (colour: string) => string };
      const outer = getComputedStyle(element);
      const inner = getComputedStyle(element, "::after");
      return {
        focused: element.matches(":focus-visible"),
        outline: `${outer.outlineStyle} ${outer.outlineWidth} ${rgb(outer.outlineColor)}`,
        inner: `${inner.display} ${inner.borderTopStyle} ${inner.borderTopWidth} ${rgb(inner.borderTopColor)}`,
      };
    });
    // A dark outline, and a white line inside it: one of the two shows on any photo.
    expect(ring).toEqual({
      focused: true,
      outline: "solid 3px 28,25,23",
      inner: "block solid 2px 255,255,255",
    });

    await page.keyboard.press("Enter");
    await page.locator(".yarl__counter").waitFor();
    const name = page.locator("[data-photo-name]");
    await name.getByText("IMG_0001.jpg", { exact: true }).waitFor();
    await page.keyboard.press("ArrowRight");
    await name.getByText("IMG_0002.jpg", { exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it("on a 375 px phone, the viewer shows the file's name on a line of its own, clear of the counter and the buttons (decision 0134)", async () => {
    const page = await openPage(`${galleryPath(screensGallery.id)}`, {
      allowConsole,
      session: clientAccessCookie(screensGallery.id),
      viewport: { width: 375, height: 667 },
    });
    // The cover, cropped to 4:5 here, keeps the point the owner chose in view.
    const cover = page.locator("main picture img").first();
    expect(await cover.evaluate((image) => getComputedStyle(image).objectPosition)).toBe("50% 0%");
    await page.locator("ul.justified > li a").nth(4).click();
    await page.locator(".yarl__counter").getByText("5 / 7").waitFor();
    const name = page.locator("[data-photo-name]");
    await name.getByText("IMG_0005.jpg", { exact: true }).waitFor();
    const layout = await page.evaluate(() => {
      const box = (element: Element) => {
        const { left, top, right, bottom, height } = element.getBoundingClientRect();
        return { left, top, right, bottom, height };
      };
      const nameElement = document.querySelector("[data-photo-name]");
      if (!nameElement) return null;
      const others = [
        ...document.querySelectorAll(".yarl__counter, .yarl__toolbar button, .yarl__toolbar a"),
      ].map((element) => ({
        text: element.textContent || element.getAttribute("aria-label"),
        ...box(element),
      }));
      return {
        name: box(nameElement),
        lineHeight: parseFloat(getComputedStyle(nameElement).lineHeight),
        paddings:
          parseFloat(getComputedStyle(nameElement).paddingTop) +
          parseFloat(getComputedStyle(nameElement).paddingBottom),
        viewport: { width: window.innerWidth, height: window.innerHeight },
        others,
      };
    });
    expect(layout).not.toBeNull();
    if (!layout) return;
    // One line, inside the screen.
    expect(layout.name.height).toBeLessThanOrEqual(layout.lineHeight + layout.paddings + 1);
    expect(layout.name.left).toBeGreaterThanOrEqual(0);
    expect(layout.name.right).toBeLessThanOrEqual(layout.viewport.width);
    expect(layout.name.bottom).toBeLessThanOrEqual(layout.viewport.height);
    // Nothing else on its line: no box of the counter or the toolbar meets it.
    const overlapping = layout.others.filter(
      (other) =>
        other.bottom > layout.name.top &&
        other.top < layout.name.bottom &&
        other.right > layout.name.left &&
        other.left < layout.name.right,
    );
    expect(overlapping).toEqual([]);
  });
});
