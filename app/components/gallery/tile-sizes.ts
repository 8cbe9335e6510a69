import type { RowPlace } from "./justified-rows";
import { ratioHundredths } from "./ratio";

/*
 * The `sizes` of a photo in the client gallery's grid (justified-grid.css), derived from that layout so that
 * the browser picks a file with at least as many pixels as the tile shows. A photo fills its tile
 * (object-fit: cover), so what counts is the width the photo is drawn at, wider than the tile when the tile
 * crops its sides.
 */

/** The page's side padding (px-4), in CSS pixels. */
const PAGE_PADDING = 16;
/** From this width the grid is justified rows (justified-grid.css). */
const ROWS_FROM = "48rem";
/** The row height there (14rem) and how much a tile may grow past it (justified-grid.css). */
const ROW_HEIGHT = 224;
const MAX_GROWTH = 1.5;

const rounded = (value: number) => Math.round(value * 1000) / 1000;

export function tileSizes(width: number, height: number, place: RowPlace): string {
  const photoRatio = width > 0 && height > 0 ? width / height : 1;
  // Justified rows: a tile is at most MAX_GROWTH row heights high; the photo in it is as wide as its
  // height times the wider of its own ratio and the tile's (rounded, clamped) one.
  const tileRatio = ratioHundredths(width, height) / 100;
  const inRows = Math.ceil(ROW_HEIGHT * MAX_GROWTH * Math.max(tileRatio, photoRatio));
  // Phones: the tile's share of the page's width (its ratio over its row's), less the page's padding; a
  // photo wider than its tile's rounded ratio is drawn wider by the difference.
  const scale = rounded((tileRatio / place.rowRatio) * Math.max(1, photoRatio / tileRatio));
  const inColumns = `calc(${rounded(100 * scale)}vw - ${rounded(2 * PAGE_PADDING * scale)}px)`;
  return `(min-width: ${ROWS_FROM}) ${inRows}px, ${inColumns}`;
}

/** The cover's box above the grid (galerie-client.tsx): 4:5 on a phone, 5:2 from 48rem. */
const HERO_RATIO_PHONE = 0.8;
const HERO_RATIO_WIDE = 2.5;
/** The page's widest content box (max-w-7xl, 80rem, less its padding). */
const PAGE_WIDTH = 1280;

/** The `sizes` of the cover photo drawn over its whole box (object-fit: cover). */
export function heroSizes(width: number, height: number): string {
  const photoRatio = width > 0 && height > 0 ? width / height : 1;
  const phone = rounded(Math.max(1, photoRatio / HERO_RATIO_PHONE));
  const wide = rounded(Math.max(1, photoRatio / HERO_RATIO_WIDE));
  const page = (scale: number) =>
    `calc(${rounded(100 * scale)}vw - ${rounded(2 * PAGE_PADDING * scale)}px)`;
  return [
    `(min-width: ${PAGE_WIDTH / 16}rem) ${Math.ceil((PAGE_WIDTH - 2 * PAGE_PADDING) * wide)}px`,
    `(min-width: ${ROWS_FROM}) ${page(wide)}`,
    page(phone),
  ].join(", ");
}
