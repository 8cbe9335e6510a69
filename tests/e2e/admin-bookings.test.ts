import { randomBytes } from "node:crypto";
import { eq, inArray, like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import {
  bookings,
  contentRevisions,
  photographers,
  sessionTypes,
  studios,
} from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { serverDatabase } from "../support/server-under-test";
import sharp from "sharp";
import { longDayFr } from "~/lib/booking/agenda-format";
import { signedInPage, closeToasts } from "./support/admin";
import { axeViolations, textContrast, useBrowser } from "./support/browser";

/*
 * The owner on her phone (decision 0116): she creates a session type, then finds a client's request
 * in the agenda and accepts it. Each page without a horizontal scroll and without an axe violation. On a
 * wide screen, the week's time grid draws bookings where and as long as they are. What
 * the server answers to each form, with JavaScript off, is tests/http/admin-bookings.
 */

const { openPage } = useBrowser();
const admin = useAdmin();
const marker = randomBytes(4).toString("hex");
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

afterAll(async () => {
  const database = serverDatabase();
  const types = await database
    .select({ id: sessionTypes.id })
    .from(sessionTypes)
    .where(like(sessionTypes.name, `%${marker}%`));
  const ids = types.map((type) => type.id);
  if (ids.length === 0) return;
  await database.delete(bookings).where(inArray(bookings.sessionTypeId, ids));
  await database.delete(sessionTypes).where(inArray(sessionTypes.id, ids));
  await database.delete(contentRevisions).where(
    inArray(
      contentRevisions.subject,
      ids.map((id) => `session-type:${id}`),
    ),
  );
});

const noSideScroll = (page: Awaited<ReturnType<typeof signedInPage>>) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe("the owner's booking pages on a phone", () => {
  it("creates a session type, then sees and accepts a request in the agenda", async () => {
    const page = await signedInPage(
      openPage,
      admin.account(),
      "/admin/reservations/seances/nouvelle",
      PHONE,
    );
    await page.getByLabel("Nom de la séance").fill(`Séance nouveau-né ${marker}`);
    await page.getByLabel("Réservation", { exact: true }).selectOption("request");
    await page.getByRole("button", { name: "Ajouter une question" }).click();
    await page.getByLabel("Question", { exact: true }).fill("Prénom du bébé ?");
    expect(await noSideScroll(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Créer la séance" }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe(`Séance nouveau-né ${marker}`);
    await closeToasts(page);

    // A client's request for it, as the booking pages make it.
    const database = serverDatabase();
    const [type] = await database
      .select({ id: sessionTypes.id })
      .from(sessionTypes)
      .where(eq(sessionTypes.name, `Séance nouveau-né ${marker}`));
    const [brive] = await database
      .select({ id: studios.id })
      .from(studios)
      .where(eq(studios.slug, "brive"));
    const [photographer] = await database
      .select({ id: photographers.id })
      .from(photographers)
      .where(eq(photographers.active, true))
      .limit(1);
    // Early on a day months ahead: no other test's booking there.
    const start = new Date(Date.now() + (30 + Math.floor(Math.random() * 300)) * 86_400_000);
    start.setUTCHours(5, Math.floor(Math.random() * 4) * 15, 0, 0);
    await database.insert(bookings).values({
      sessionTypeId: type?.id ?? "",
      studioId: brive?.id ?? "",
      photographerId: photographer?.id ?? "",
      startsAt: start,
      endsAt: new Date(start.getTime() + 3_600_000),
      state: "pending",
      respondBy: new Date(Date.now() + 86_400_000),
      clientName: `Camille ${marker}`,
      clientEmail: "camille@example.test",
      answers: { "prenom-du-bebe": "Jules" },
      consentAt: new Date(),
      manageTokenHash: randomBytes(32).toString("hex"),
    });

    await page.getByRole("link", { name: "Agenda", exact: true }).click();
    const requests = page.getByRole("region", { name: /Demandes à traiter/ });
    await requests.getByRole("link", { name: new RegExp(`Camille ${marker}`) }).waitFor();
    expect(await noSideScroll(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await requests.getByRole("link", { name: new RegExp(`Camille ${marker}`) }).click();
    await page.getByText("Prénom du bébé ?").waitFor();
    await expect.poll(() => page.getByText("Jules", { exact: true }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Accepter la demande" }).click();
    await page.getByText("Demande acceptée par", { exact: false }).waitFor();
    await expect
      .poll(() => page.getByRole("button", { name: "Accepter la demande" }).count())
      .toBe(0);
    expect(await noSideScroll(page)).toBe(true);
    // Confirmed, it offers « Solde payé au studio », a voucher's part included: axe on that too.
    await page
      .getByRole("group", { name: /Réglé en partie ou en entier par un bon cadeau/ })
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe("the agenda's week on a wide screen", () => {
  it("on a phone, the agenda opens at the present moment of today", async () => {
    // Today's list is one of seven in the week (the last on a Sunday): it opens there, not at Monday.
    const owner = await signedInPage(openPage, admin.account(), "/admin/reservations", PHONE);
    const now = owner.locator("#maintenant");
    await expect.poll(() => now.textContent()).toMatch(/^Maintenant · \d{1,2}\u00A0h/);
    await expect
      .poll(() =>
        now.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    expect(await axeViolations(owner)).toEqual([]);
  });

  it("draws each booking at its time and length, overlapping ones side by side; a tap opens it", async () => {
    const database = serverDatabase();
    const [brive, ussel] = await Promise.all(
      ["brive", "ussel"].map(
        async (slug) =>
          (await database.select({ id: studios.id }).from(studios).where(eq(studios.slug, slug)))[0]
            ?.id ?? "",
      ),
    );
    const [photographer] = await database
      .select({ id: photographers.id })
      .from(photographers)
      .where(eq(photographers.active, true))
      .limit(1);
    const [type] = await database
      .insert(sessionTypes)
      .values({ name: `Séance grille ${marker}`, slug: `grille-${marker}`, durationMinutes: 60 })
      .returning({ id: sessionTypes.id });
    // A Tuesday in winter far ahead (Paris = UTC+1), different for each run: 10 h–11 h at Brive, 10 h 30–
    // 12 h at Ussel (two photographers' worth of overlap is what the agenda must show side by side).
    const day = new Date(Date.UTC(2033, 0, 4) + Math.floor(Math.random() * 8) * 7 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const booking = (studioId: string, client: string, from: string, to: string) => ({
      sessionTypeId: type?.id ?? "",
      studioId,
      photographerId: photographer?.id ?? "",
      startsAt: new Date(`${day}T${from}:00Z`),
      endsAt: new Date(`${day}T${to}:00Z`),
      state: "confirmed" as const,
      clientName: `${client} ${marker}`,
      clientEmail: "grille@example.test",
      manageTokenHash: randomBytes(32).toString("hex"),
    });
    await database
      .insert(bookings)
      .values([
        booking(brive ?? "", "Alice", "09:00", "10:00"),
        booking(ussel ?? "", "Bruno", "09:30", "11:00"),
      ]);

    const page = await signedInPage(
      openPage,
      admin.account(),
      `/admin/reservations?vue=semaine&date=${day}`,
      { viewport: { width: 1280, height: 900 } },
    );
    const alice = page.getByRole("link", { name: new RegExp(`Alice ${marker}`) });
    const bruno = page.getByRole("link", { name: new RegExp(`Bruno ${marker}`) });
    await alice.waitFor();
    // Only the grid is shown at this width: one link each.
    expect(await alice.count()).toBe(1);
    const [a, b] = await Promise.all([alice.boundingBox(), bruno.boundingBox()]);
    if (!a || !b) throw new Error("bookings not drawn");
    // Side by side in the same day's column, Bruno half an hour lower and half again as tall.
    expect(b.x).toBeGreaterThanOrEqual(a.x + a.width - 2);
    expect(b.y - a.y).toBeGreaterThan(a.height / 2 - 4);
    expect(b.y - a.y).toBeLessThan(a.height / 2 + 4);
    expect(b.height / a.height).toBeGreaterThan(1.4);
    expect(b.height / a.height).toBeLessThan(1.6);
    expect(await noSideScroll(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await alice.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: new RegExp(`Alice ${marker}`) }).waitFor();
  });
  it("hatches and names the hours the studio is closed, readable in normal and forced colours", async () => {
    const [brive] = await serverDatabase()
      .select({ id: studios.id })
      .from(studios)
      .where(eq(studios.slug, "brive"));
    // A week far ahead with nothing in it: Brive opens 9 h–12 h and 14 h–18 h on Tuesday, not on Monday.
    const tuesday = new Date(Date.UTC(2034, 0, 3) + Math.floor(Math.random() * 40) * 7 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const monday = new Date(Date.parse(`${tuesday}T12:00:00Z`) - 86_400_000)
      .toISOString()
      .slice(0, 10);
    const page = await signedInPage(
      openPage,
      admin.account(),
      `/admin/reservations?vue=semaine&date=${tuesday}&studio=${brive?.id ?? ""}`,
      { viewport: { width: 1280, height: 900 } },
    );
    const column = page.getByRole("region", { name: longDayFr(tuesday), exact: true });
    const closed = column.getByText("Fermé", { exact: true });
    // Before 9 h, at lunch and after 18 h: each band named, not only hatched.
    await expect.poll(() => closed.count()).toBe(3);
    const columnBox = await column.boundingBox();
    const lunch = await closed.nth(1).locator("..").boundingBox();
    if (!columnBox || !lunch) throw new Error("grid not drawn");
    const hour = columnBox.height / 12;
    expect(Math.abs(lunch.y - columnBox.y - 4 * hour)).toBeLessThan(2);
    expect(Math.abs(lunch.height - 2 * hour)).toBeLessThan(2);
    expect(
      await page
        .getByRole("region", { name: longDayFr(monday), exact: true })
        .getByText("Fermé", { exact: true })
        .count(),
    ).toBe(1);
    // Its hours in words for a screen reader, and the closed hours' links say so.
    expect(
      await column
        .getByText(/^Studio de Brive : ouvert de 9\sh à 12\sh et de 14\sh à 18\sh\.$/)
        .count(),
    ).toBe(1);
    expect(
      await column.getByRole("link", { name: /à 12\sh, hors des heures d'ouverture$/ }).count(),
    ).toBe(1);
    expect(await column.getByRole("link", { name: /à 10\sh$/ }).count()).toBe(1);

    // Seen: the closed half hour after 12 h is darker and striped, the open one at 10 h plain.
    const tone = async (fromTop: number) => {
      // The page's coordinates (the grid goes below the window): boundingBox() is read unscrolled.
      const shot = await page.screenshot({
        fullPage: true,
        clip: {
          x: columnBox.x + 4,
          y: columnBox.y + fromTop,
          width: columnBox.width - 8,
          height: hour / 2,
        },
      });
      const { channels } = await sharp(shot).greyscale().stats();
      return { mean: channels[0]?.mean ?? 0, spread: channels[0]?.stdev ?? 0 };
    };
    const [open, shut] = await Promise.all([tone(2.25 * hour), tone(4.5 * hour)]);
    expect(open.mean - shut.mean).toBeGreaterThan(6);
    expect(shut.spread).toBeGreaterThan(open.spread);
    expect((await textContrast(closed.first())).ratio).toBeGreaterThanOrEqual(4.5);
    expect(await axeViolations(page)).toEqual([]);

    // High-contrast mode drops the hatching: the bands keep their name and their edges.
    await page.emulateMedia({ forcedColors: "active" });
    expect(await closed.nth(1).isVisible()).toBe(true);
    expect((await textContrast(closed.nth(1))).ratio).toBeGreaterThanOrEqual(4.5);
    expect(
      await closed
        .nth(1)
        .locator("..")
        .evaluate((band) => getComputedStyle(band).borderTopWidth),
    ).toBe("1px");
  });
});
