import type { Page } from "playwright-core";

/** Whether the photo viewer (YARL) shows its current photo zoomed in: its wrapper is scaled (scale(1) at rest). */
function zoomedIn(): boolean {
  return [...document.querySelectorAll<HTMLElement>(".yarl__slide_wrapper")].some((wrapper) =>
    /scale\((?!1\))/.test(wrapper.style.transform),
  );
}

export const viewerZoomedIn = (page: Page) => page.evaluate(zoomedIn);

/**
 * Zooms the viewer's photo in with the « + » key, as a person would: YARL listens to the zoom keys once the
 * slide on screen has registered its zoom wrapper (an effect after a slide change), so a press during the
 * change is ignored and the person presses again. Up to five presses a second apart; then it fails and says
 * what the page was like (focus, transforms, the « Agrandir » button), for whoever reads the failure.
 */
export async function zoomInWithKeyboard(page: Page): Promise<void> {
  for (let press = 1; press <= 5; press += 1) {
    await page.keyboard.press("+");
    const zoomed = await page
      .waitForFunction(zoomedIn, null, { timeout: 1_000 })
      .then(() => true)
      .catch(() => false);
    if (zoomed) return;
  }
  const state = await page.evaluate(() => ({
    focus: `${document.activeElement?.tagName}.${document.activeElement?.className}`,
    transforms: [...document.querySelectorAll<HTMLElement>(".yarl__slide_wrapper")].map(
      (wrapper) => wrapper.style.transform,
    ),
    zoomButtonDisabled: document.querySelector<HTMLButtonElement>('button[aria-label="Agrandir"]')
      ?.disabled,
    counter: document.querySelector(".yarl__counter")?.textContent,
  }));
  throw new Error(`'+' never zoomed the photo in: ${JSON.stringify(state)}`);
}
