import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { studioDataSchema } from "../../app/content/schemas";
import { photographerStudios, studios } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { formOf, intentButton, typeInto } from "../support/admin-content";
import { pressButton } from "../support/admin-forms";
import { insertSessionType, studioIds, type SeededStudioIds } from "../support/booking";
import { fetchPage, metaContent, textOf, type FetchedPage } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";

// « Réservation en ligne » of a studio's form (decision 0127), posted without JavaScript, on a server of the
// file's own (turning it on changes the header of every page): refused in French while the studio has no
// session to book or nobody to take it; once on, the page shows the public link to copy and its QR code.

useOwnServer();
const admin = useAdmin();
let ids: SeededStudioIds = { ussel: "", brive: "", limoges: "" };

beforeAll(async () => {
  const database = serverDatabase();
  ids = await studioIds(database);
  // Brive: a session and « Photographe » (the start-up's, every studio): ready. Ussel: a session, but
  // nobody works there any more. Limoges: no session.
  await insertSessionType([ids.brive, ids.ussel], {}, database);
  await database.delete(photographerStudios).where(eq(photographerStudios.studioId, ids.ussel));
});

/** Ticks « Réservation en ligne » on the studio's form and saves it. */
async function switchOn(id: string) {
  const path = `/admin/studios/${id}`;
  const form = typeInto(formOf(await fetchPage(path, { cookie: admin.cookie() })), {
    onlineBooking: true,
  });
  return pressButton(path, intentButton(form, "save"), { cookie: admin.cookie() });
}

async function onlineBookingOf(id: string): Promise<boolean> {
  const [row] = await serverDatabase()
    .select({ data: studios.data })
    .from(studios)
    .where(and(eq(studios.id, id)));
  return studioDataSchema.parse(row?.data).onlineBooking;
}

/**
 * What a search engine or a link's preview (WhatsApp, Facebook) reads of a booking page that does not exist:
 * the site's « Page introuvable », kept out of the index, never the bookable page's title, description,
 * canonical address or preview.
 */
function expectNotFoundHead(page: FetchedPage, path: string) {
  expect(page.status, path).toBe(404);
  expect(page.document.title, path).toBe("Page introuvable");
  expect(metaContent(page.document, "robots"), path).toContain("noindex");
  expect(metaContent(page.document, "description"), path).toBeNull();
  expect(metaContent(page.document, "og:title"), path).toBeNull();
  expect(page.document.querySelector('link[rel="canonical"]'), path).toBeNull();
}

describe("switching online booking on", () => {
  it("before it, /reserver and the studios' booking pages are the site's 404, left out of the sitemap", async () => {
    for (const path of ["/reserver", "/reserver/brive", "/reserver/brive/portrait"]) {
      expectNotFoundHead(await fetchPage(path), path);
    }
    const sitemap = await (await fetch(new URL("/sitemap.xml", serverBaseUrl()))).text();
    expect(sitemap).not.toContain("/reserver");
  });

  it("is refused, saying what is missing, for a studio with no session type or no photographer", async () => {
    const limoges = await switchOn(ids.limoges);
    expect(limoges.status).toBe(400);
    expect(textOf(limoges.document.querySelector("main"))).toContain(
      "La réservation en ligne ne peut pas être activée : il manque une séance proposée dans ce studio. Complétez d'abord Réservations (Séances, Réglages).",
    );
    // What was typed is kept: the box is still ticked.
    expect(
      limoges.document.querySelector('input[name="onlineBooking"]')?.hasAttribute("checked"),
    ).toBe(true);
    expect(await onlineBookingOf(ids.limoges)).toBe(false);

    const ussel = await switchOn(ids.ussel);
    expect(ussel.status).toBe(400);
    expect(textOf(ussel.document.querySelector("main"))).toContain(
      "il manque un photographe qui y travaille.",
    );
    expect(await onlineBookingOf(ids.ussel)).toBe(false);
  });

  it("is saved for a studio ready to take bookings, whose page then shows its public link to copy and its QR code", async () => {
    const saved = await switchOn(ids.brive);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/admin/studios/${ids.brive}`);
    expect(await onlineBookingOf(ids.brive)).toBe(true);

    const page = await fetchPage(`/admin/studios/${ids.brive}`, { cookie: admin.cookie() });
    const section = page.document.querySelector('section[aria-labelledby="lien-reservation"]');
    expect(section).not.toBeNull();
    const link = section?.querySelector("input[readonly]");
    expect(link?.getAttribute("value")).toBe(`${serverBaseUrl()}/reserver/brive`);
    expect(textOf(section?.querySelector("button"))).toMatch(/^Copier/);
    // Inline, made by the server: no request to another site, within the CSP's img-src data:.
    expect(section?.querySelector("img")?.getAttribute("src")).toMatch(
      /^data:image\/svg\+xml;base64,/,
    );
    const limoges = await fetchPage(`/admin/studios/${ids.limoges}`, { cookie: admin.cookie() });
    expect(
      limoges.document.querySelector('section[aria-labelledby="lien-reservation"]'),
    ).toBeNull();
  });

  it("then /reserver and Brive's booking page are found (sitemap, canonical), its other addresses a 404", async () => {
    const sitemap = await (await fetch(new URL("/sitemap.xml", serverBaseUrl()))).text();
    expect(sitemap).toContain(`<loc>${serverBaseUrl()}/reserver</loc>`);
    expect(sitemap).toContain(`<loc>${serverBaseUrl()}/reserver/brive</loc>`);
    expect(sitemap).not.toContain("/reserver/limoges");
    const brive = await fetchPage("/reserver/brive");
    expect(brive.status).toBe(200);
    expect(brive.document.title).toBe("Réserver au Studio de Brive | Studio Photo Exemple");
    expect(brive.document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(
      `${serverBaseUrl()}/reserver/brive`,
    );
    expect(metaContent(brive.document, "robots")).toBeNull();
    for (const path of [
      "/reserver/limoges",
      "/reserver/brive/inconnue",
      "/reserver/brive/inconnue/coordonnees",
      // A client's page whose link leads nowhere (a token mistyped or of a booking erased).
      "/reservation/jeton-inconnu",
    ]) {
      expectNotFoundHead(await fetchPage(path), path);
    }
  });
});
