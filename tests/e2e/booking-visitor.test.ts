import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";
import { axeViolations, hydrated, useBrowser } from "./support/browser";

// A visitor on a phone books a session at Brive from the header's « Réserver » (issue 25), with the keyboard
// where a person would use it; each step has no axe-core violation and 44 px targets. What the server answers
// to every input without JavaScript: tests/http/booking-visitor.test.ts. A server of the file's own: turning
// booking on for Brive changes the header of every page.

const baseUrl = useOwnServer();
const { openPage } = useBrowser({ baseUrl });

beforeAll(async () => {
  const database = serverDatabase();
  await database.execute(
    sql`update studios set data = jsonb_set(data, '{onlineBooking}', 'true') where slug = 'brive'`,
  );
  const types = await database.execute<{ id: string }>(sql`
    insert into session_types (slug, name, description, duration_minutes, minimum_notice_hours, step_minutes, horizon_days, cancellation_cutoff_hours, price_text)
    values ('portrait-e2e', 'Portrait en studio', 'Une heure au studio.', 60, 0, 60, 30, 0, '120 €')
    returning id`);
  await database.execute(sql`
    insert into session_type_studios (session_type_id, studio_id)
    select ${types.rows[0]?.id}::uuid, id from studios where slug = 'brive'`);
});

async function expectAccessible(page: Page, step: string) {
  expect(await axeViolations(page), step).toEqual([]);
}

/** Follows a link or a button with the keyboard (focus, Enter) and waits for the next page. */
async function pressToNavigate(page: Page, locator: ReturnType<Page["locator"]>) {
  const before = page.url();
  await locator.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.toString() !== before);
  await hydrated(page);
}

describe("booking on a phone", () => {
  it("from the header's « Réserver » to the confirmation, then cancels, by keyboard, accessible at each step", async () => {
    const page = await openPage("/", { viewport: { width: 390, height: 844 }, hasTouch: true });
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    await pressToNavigate(
      page,
      page.locator("#menu-mobile").getByRole("link", { name: "Réserver" }),
    );
    expect(new URL(page.url()).pathname).toBe("/reserver");
    await expectAccessible(page, "/reserver");

    await pressToNavigate(
      page,
      page.locator("main").getByRole("link", { name: /Studio de Brive/ }),
    );
    await expectAccessible(page, "séances");
    await pressToNavigate(
      page,
      page.locator("main").getByRole("link", { name: /Portrait en studio/ }),
    );
    await expectAccessible(page, "jours");

    await pressToNavigate(page, page.locator('main a[href*="jour="]').first());
    const time = page
      .locator("main")
      .getByRole("link", { name: /^[a-z]+ .* à \d+ h.*, disponible$/ })
      .first();
    const box = await time.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    expect(box?.width).toBeGreaterThanOrEqual(44);
    await expectAccessible(page, "horaires");

    await pressToNavigate(page, time);
    await expectAccessible(page, "coordonnées");
    await page.getByLabel("Nom et prénom").fill("Léa Martin");
    await page.getByLabel("E-mail").fill("lea.e2e@example.test");
    await page.getByLabel("Téléphone (facultatif)").fill("06 12 34 56 78");
    await page.getByRole("checkbox", { name: /J'accepte les conditions de réservation/ }).focus();
    await page.keyboard.press("Space");
    await pressToNavigate(page, page.getByRole("button", { name: "Confirmer la réservation" }));

    expect(new URL(page.url()).pathname).toMatch(/^\/reservation\/[A-Za-z0-9_-]{43}$/);
    await expect
      .poll(() => page.getByRole("status").first().textContent())
      .toContain("Votre séance est réservée.");
    await expectAccessible(page, "réservation");

    // The client's page posts its forms from a browser too (same-origin referrer: the CSRF check passes).
    await pressToNavigate(page, page.getByRole("link", { name: "Annuler la séance" }));
    await expectAccessible(page, "annulation");
    await pressToNavigate(page, page.getByRole("button", { name: "Oui, annuler ma séance" }));
    await expect
      .poll(() => page.getByRole("status").first().textContent())
      .toContain("Votre séance est annulée.");
  });
});
