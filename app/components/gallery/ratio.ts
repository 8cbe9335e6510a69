/** The justified grid's class for a photo: its aspect ratio rounded to 0.05, clamped to 0.5–2.5. */
export const RATIO_MIN = 50;
export const RATIO_MAX = 250;
export const RATIO_STEP = 5;

export function ratioHundredths(width: number, height: number): number {
  const ratio = width > 0 && height > 0 ? width / height : 1;
  const rounded = Math.round((ratio * 100) / RATIO_STEP) * RATIO_STEP;
  return Math.min(RATIO_MAX, Math.max(RATIO_MIN, rounded));
}

export const ratioClass = (width: number, height: number) =>
  `ratio-${ratioHundredths(width, height)}`;
