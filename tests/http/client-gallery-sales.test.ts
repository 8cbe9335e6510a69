import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clientGalleryPath,
  clientPhotoDownloadPath,
  clientZipPath,
} from "../../app/lib/gallery-urls";
import { galleries, galleryPhotoOrders, galleryPhotos } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import {
  clientAccessHeader,
  removeClientGalleries,
  serverStore,
  submitButton,
} from "../support/client-galleries";
import { addReadyPhoto, insertTestGallery } from "../support/galleries";
import { expectFileRefusal } from "../support/file-refusal";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { makeTestPhotoSet } from "../support/photos";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";
import { unzip } from "../support/unzip";

/*
 * Extra photos sold from the client gallery (decision 0184) as the server answers them, JavaScript off: the
 * owner's prices on the gallery's settings (French messages at the field, what was typed kept); the client's
 * page showing each photo's right and what is due; an altered amount refused in French; an unbought photo's
 * download refused (403, French), the ZIP holding the included photos only. Never a 5xx.
 */

const admin = useAdmin();
let galleryId = "";
const photoIds: string[] = [];
let names: string[] = [];

beforeAll(async () => {
  const photos = await makeTestPhotoSet(5, { first: 81 });
  names = photos.map((photo) => photo.name);
  const gallery = await insertTestGallery(serverDatabase(), {
    title: "Séance vendue",
    includedPhotos: 2,
    extraPhotoPriceCents: 700,
    selectionValidatedAt: new Date(),
  });
  galleryId = gallery.id;
  for (const photo of photos) {
    const { id } = await addReadyPhoto(serverDatabase(), serverStore(), galleryId, photo);
    photoIds.push(id);
  }
  // Her selection: the first four photos (two included, two to buy).
  for (const id of photoIds.slice(0, 4)) {
    await serverDatabase()
      .update(galleryPhotos)
      .set({ favourite: true })
      .where(eq(galleryPhotos.id, id));
  }
}, 120_000);

afterAll(() => removeClientGalleries(galleryId ? [galleryId] : []));

const clientPage = () =>
  fetchPage(clientGalleryPath(galleryId), { cookie: clientAccessHeader(galleryId) });

describe("the owner's prices of extra photos", () => {
  const settingsPath = () => `/admin/galeries/${galleryId}/reglages`;
  const save = async (changes: Record<string, string>) => {
    const form = await fetchPage(settingsPath(), { cookie: admin.cookie() });
    const button = [...form.document.querySelectorAll("button")].find(
      (element) => textOf(element) === "Enregistrer les réglages",
    );
    return submitButton(button, settingsPath(), { cookie: admin.cookie(), changes });
  };
  const field = (page: FetchedPage, name: string) =>
    page.document.querySelector(`[name="${name}"]`)?.getAttribute("value");

  it("are refused in French at the field, with what was typed kept, and saved in cents", async () => {
    const shown = await fetchPage(settingsPath(), { cookie: admin.cookie() });
    expect(field(shown, "includedPhotos")).toBe("2");
    expect(field(shown, "extraPhotoPrice")).toBe("7");

    const malformed = await save({ allPhotosPrice: "beaucoup" });
    expect(malformed.status).toBe(400);
    expect(textOf(malformed.document.body)).toContain(
      "Indiquez un prix en euros, par exemple 150 ou 149,90",
    );
    expect(field(malformed, "allPhotosPrice")).toBe("beaucoup");

    const priceless = await save({ includedPhotos: "3", extraPhotoPrice: "", allPhotosPrice: "" });
    expect(priceless.status).toBe(400);
    expect(textOf(priceless.document.body)).toContain(
      "Indiquez le prix d'une photo supplémentaire (ou celui de toutes les photos)",
    );
    expect(field(priceless, "includedPhotos")).toBe("3");

    const saved = await save({ includedPhotos: "2", extraPhotoPrice: "7,50", allPhotosPrice: "" });
    expect(saved.status).toBe(302);
    const [row] = await serverDatabase()
      .select()
      .from(galleries)
      .where(eq(galleries.id, galleryId));
    expect(row).toMatchObject({
      includedPhotos: 2,
      extraPhotoPriceCents: 750,
      allPhotosPriceCents: null,
    });
  });
});

describe("the client's extra photos", () => {
  it("shows each photo's right and what is due, computed by the server", async () => {
    const page = await clientPage();
    expect(page.status).toBe(200);
    const text = textOf(page.document.body);
    expect(text).toContain("Votre formule comprend 2 photos de votre sélection");
    expect(textOf(page.document.querySelector('[data-testid="montant-du"]'))).toContain(
      "Votre sélection compte 2 photos de plus que votre formule : 15 € à régler.",
    );
    const tiles = [...page.document.querySelectorAll('ul[aria-label="Photos de la galerie"] li')];
    expect(tiles.map((tile) => textOf(tile.querySelector("a span.sr-only")))).toEqual([
      "(favori) (Incluse)",
      "(favori) (Incluse)",
      "(favori) (À acheter)",
      "(favori) (À acheter)",
      "(À acheter)",
    ]);
    // No way to pay allowed on this server: the studio is named instead of a form.
    expect(text).toContain("Pour les régler, contactez le studio");
  });

  it("shows a photo to buy only below its original's width, and every size its page asks answers", async () => {
    const page = await clientPage();
    const tiles = [...page.document.querySelectorAll('ul[aria-label="Photos de la galerie"] li')];
    const widthsOf = (tile: Element) => {
      const addresses = [...tile.querySelectorAll("source, img")].flatMap((element) => [
        ...(element.getAttribute("srcset") ?? "")
          .split(",")
          .map((entry) => entry.trim().split(" ")[0]),
        element.getAttribute("src"),
      ]);
      return [...new Set(addresses.filter((address): address is string => Boolean(address)))];
    };
    for (const [index, tile] of tiles.entries()) {
      const addresses = widthsOf(tile);
      expect(addresses.length).toBeGreaterThan(0);
      const widths = addresses.map((address) => Number(/-w(\d+)\./.exec(address)?.[1]));
      const own = Number(tile.querySelector("img")?.getAttribute("width"));
      // Photos 3 to 5 are to buy (1600 or 1067 px wide): never their own width.
      if (index >= 2) expect(Math.max(...widths)).toBeLessThan(own);
      else expect(Math.max(...widths)).toBe(own);
      for (const address of addresses.filter((address) => address.endsWith(".jpg"))) {
        const file = await fetch(`${serverBaseUrl()}${address}`, {
          headers: { Cookie: clientAccessHeader(galleryId) },
        });
        expect(file.status, address).toBe(200);
        await file.arrayBuffer();
      }
    }
    // Its full size asked all the same: not found.
    const own = Number(tiles[4]?.querySelector("img")?.getAttribute("width"));
    const full = await fetch(
      `${serverBaseUrl()}${clientGalleryPath(galleryId)}/photos/${photoIds[4]}/r1-w${own}.jpg`,
      { headers: { Cookie: clientAccessHeader(galleryId) } },
    );
    expect(full.status).toBe(404);
    await full.arrayBuffer();
  });

  it("refuses an altered amount or photo list in French and orders nothing, never a 5xx", async () => {
    const page = await clientPage();
    const fields = (changes: Record<string, string>) => ({
      intent: "buy",
      cle: crypto.randomUUID(),
      montant: "1500",
      photos: photoIds.slice(2, 4).join(","),
      paiement: "card",
      conditions: "on",
      ...changes,
    });
    const post = (changes: Record<string, string>) =>
      postForm(clientGalleryPath(galleryId), fields(changes), {
        cookie: clientAccessHeader(galleryId),
      });
    expect(page.status).toBe(200);
    const alterations: Record<string, string>[] = [
      { montant: "100" },
      { photos: photoIds.slice(1, 3).join(",") },
      { montant: "n'importe quoi", photos: "pas-une-photo" },
    ];
    for (const changes of alterations) {
      const refused = await post(changes);
      expect(refused.status).toBe(409);
      expect(textOf(refused.document.body)).toContain(
        "Le montant ou les photos de votre commande ne correspondent plus à votre sélection",
      );
    }
    const unticked = await post({ conditions: "" });
    expect(unticked.status).toBe(400);
    expect(textOf(unticked.document.body)).toContain(
      "Cochez la case pour accepter les conditions de vente",
    );
    expect(
      await serverDatabase()
        .select()
        .from(galleryPhotoOrders)
        .where(eq(galleryPhotoOrders.galleryId, galleryId)),
    ).toEqual([]);
  });

  it("refuses an unbought photo's download in French (403) and zips the included photos only", async () => {
    const download = (photoId: string) =>
      fetch(`${serverBaseUrl()}${clientPhotoDownloadPath(galleryId, photoId)}`, {
        headers: { Cookie: clientAccessHeader(galleryId) },
      });
    const included = await download(photoIds[0] ?? "");
    expect(included.status).toBe(200);
    await included.arrayBuffer();
    for (const photoId of [photoIds[2], photoIds[4]]) {
      const refused = await fetchPage(clientPhotoDownloadPath(galleryId, photoId ?? ""), {
        cookie: clientAccessHeader(galleryId),
      });
      expect(expectFileRefusal(refused, 403)).toContain("Cette photo n'est pas encore débloquée");
    }
    const zip = await fetch(`${serverBaseUrl()}${clientZipPath(galleryId)}`, {
      headers: { Cookie: clientAccessHeader(galleryId) },
    });
    expect(zip.status).toBe(200);
    const entries = await unzip(Buffer.from(await zip.arrayBuffer()));
    expect(entries.map((entry) => entry.name.split("/").at(-1))).toEqual(names.slice(0, 2));
  });
});
