import { expect } from "vitest";
import { axeViolations, type useBrowser } from "./browser";

type OpenPage = ReturnType<typeof useBrowser>["openPage"];

/**
 * Opens a public page on a phone's screen (390 px): no axe violation and no horizontal scroll; then on a large
 * screen (1280 px), the same page resized: no axe violation. Returns the page for the test's own checks.
 */
export async function expectAccessibleOnSmallAndLargeScreens(openPage: OpenPage, path: string) {
  const page = await openPage(path, { viewport: { width: 390, height: 844 } });
  expect(await axeViolations(page), `${path} à 390 px`).toEqual([]);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${path} défile en largeur à 390 px`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
  expect(await axeViolations(page), `${path} à 1280 px`).toEqual([]);
  return page;
}
