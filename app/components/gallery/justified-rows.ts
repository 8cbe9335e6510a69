import { ratioHundredths } from "./ratio";

/*
 * The client gallery's rows on a phone (decision 0134): whole photos side by side, each as wide as its share
 * of the row's summed aspect ratio, every photo of a row at the same height. The server groups the photos
 * (the same rows on every phone: only their height follows the screen's width); from 48rem the CSS lays them
 * out by itself (justified-grid.css).
 */

/** A phone row's aspect ratio aimed at: two landscapes, three portraits, a landscape and a portrait. */
export const PHONE_ROW_RATIO = 2.5;
/** At most this many photos a row on a phone: thumbnails stay large enough to be seen. */
export const PHONE_ROW_MAX = 3;

/** A photo's place in its row: the row's summed ratio (at least PHONE_ROW_RATIO for the last) and its size. */
export type RowPlace = { rowRatio: number; rowCount: number };

/**
 * Groups the photos' ratios (rounded as their CSS classes are) into rows: a photo joins the current row while
 * that brings the row's ratio nearer PHONE_ROW_RATIO, within PHONE_ROW_MAX photos. A last row that falls
 * short keeps the height of a full one (its ratio counted as PHONE_ROW_RATIO) instead of blowing up.
 */
export function justifiedRows(ratios: readonly number[]): RowPlace[] {
  const rows: number[][] = [];
  let row: number[] = [];
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  for (const ratio of ratios) {
    const current = sum(row);
    const fits =
      row.length < PHONE_ROW_MAX &&
      Math.abs(current + ratio - PHONE_ROW_RATIO) <= Math.abs(current - PHONE_ROW_RATIO);
    if (row.length > 0 && !fits) {
      rows.push(row);
      row = [];
    }
    row.push(ratio);
  }
  if (row.length > 0) rows.push(row);
  return rows.flatMap((values, index) => {
    const total = sum(values);
    const last = index === rows.length - 1;
    const rowRatio = Math.round((last ? Math.max(total, PHONE_ROW_RATIO) : total) * 100) / 100;
    return values.map(() => ({ rowRatio, rowCount: values.length }));
  });
}

/** The smallest and largest row ratios (one portrait at 0.5, three panoramas at 2.5), in hundredths. */
export const ROW_RATIO_MIN = 50;
export const ROW_RATIO_MAX = 750;

/** A tile's classes for its row on a phone (justified-grid.css: `.row-ratio-N`, `.row-of-N`). */
export function rowClasses(place: RowPlace): string {
  const hundredths = Math.min(
    ROW_RATIO_MAX,
    Math.max(ROW_RATIO_MIN, Math.round(place.rowRatio * 100)),
  );
  return `row-ratio-${hundredths} row-of-${place.rowCount}`;
}

/** The rows of photos of these sizes, each photo's ratio rounded as its class (ratio.ts) draws it. */
export function photoRows(photos: ReadonlyArray<{ width: number; height: number }>): RowPlace[] {
  return justifiedRows(photos.map((photo) => ratioHundredths(photo.width, photo.height) / 100));
}
