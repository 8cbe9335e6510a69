import { readFile } from "node:fs/promises";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteDocuments } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { useDocumentsRestored } from "../support/admin-content";
import {
  clientAccessCookie,
  removeClientGalleries,
  serverStore,
} from "../support/client-galleries";
import { siteStripeEnv, startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { addReadyPhoto, insertTestGallery } from "../support/galleries";
import { useOwnServer } from "../support/own-server";
import { makeTestJpeg } from "../support/photos";
import { serverDatabase } from "../support/server-under-test";
import { unzip } from "../support/unzip";
import { signedInPage } from "./support/admin";
import { axeViolations, hydrated, useBrowser } from "./support/browser";

/*
 * Extra photos bought from the client gallery on a phone (decision 0184), once, end to end: 8 small photos,
 * 1 included; the client taps ♥ on 6 and validates, the page asks 5 × 5 € computed by the server, she
 * orders them by transfer, then from her gallery pays by card instead (decision 0196) on the (fake)
 * Stripe's hosted page, comes back to her paid order, and her gallery's ZIP holds exactly the 6 originals
 * she may download (the included one and the 5 bought), not the 2 others. The owner's gallery settings
 * and selection pages, changed for the sale, have no axe violation. The refusals without JavaScript:
 * tests/http/client-gallery-sales.test.ts and client-gallery-photo-orders.test.ts; the amounts, refunds and
 * ZIP contents: app/server/galleries/photo-sales.integration.test.ts.
 */

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: "sk_test_51GalleryPhotosByCard000000000" });
});
afterAll(async () => {
  await fake.close();
});
const url = useOwnServer(() => siteStripeEnv(fake));
const { openPage } = useBrowser({ baseUrl: url });
const admin = useAdmin();
const original = useDocumentsRestored(["payments"] as const);

const PHONE = {
  timezoneId: "Europe/Paris",
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};
const names = Array.from({ length: 8 }, (_, index) => `IMG_${9001 + index}.jpg`);
let galleryId = "";

beforeAll(async () => {
  const database = serverDatabase();
  await database
    .update(siteDocuments)
    .set({
      data: {
        ...original("payments"),
        card: true,
        transfer: true,
        transferHolder: "Studio Lumière",
        transferIban: "FR7630006000011234567890189",
      },
    })
    .where(eq(siteDocuments.key, "payments"));
  const gallery = await insertTestGallery(database, {
    title: "Séance au jardin",
    includedPhotos: 1,
    extraPhotoPriceCents: 500,
  });
  galleryId = gallery.id;
  for (const [index, name] of names.entries()) {
    const buffer = await makeTestJpeg({ index: 900 + index, width: 800, height: 533 });
    await addReadyPhoto(database, serverStore(), galleryId, { name, buffer });
  }
}, 120_000);
afterAll(() => removeClientGalleries(galleryId ? [galleryId] : []));

const completedDeliveries = () =>
  fake.deliveries().filter((delivery) => delivery.type === "checkout.session.completed");

describe("extra photos bought from the client gallery", () => {
  it("selects 5 photos over her package, orders them by transfer, pays by card instead and downloads exactly her photos", async () => {
    const client = await openPage(`/galerie-client/${galleryId}`, {
      ...PHONE,
      session: clientAccessCookie(galleryId),
      allowOrigins: [fake.pageOrigin],
      // The refusal of the conditions left unticked (below).
      allowConsole: [/status of 400/],
    });
    const chosen = names.slice(0, 6);
    for (const name of chosen) {
      const label = `Ajouter aux favoris : ${name}`;
      await client.getByRole("button", { name: label }).click();
      await client.waitForFunction(
        (text) =>
          document.querySelector(`button[aria-label="${text}"]`)?.getAttribute("aria-pressed") ===
          "true",
        label,
      );
    }
    await client.getByRole("button", { name: "Valider ma sélection" }).click();
    await client
      .getByRole("dialog", { name: /^Valider ma sélection de 6 photos/ })
      .getByRole("button", { name: "Oui, valider ma sélection" })
      .click();
    const due = client.getByTestId("montant-du");
    await expect
      .poll(() => due.textContent())
      .toMatch(/Votre sélection compte 5 photos de plus que votre formule : 25\s€ à régler\./);
    expect(await client.locator("li", { hasText: "À acheter" }).count()).toBe(7);
    expect(await axeViolations(client), "galerie avec achat").toEqual([]);

    // The conditions left unticked on a small phone: the page answering the refusal opens at the form, its
    // message in view, not at its top with the message below the fold.
    await client.setViewportSize({ width: 375, height: 740 });
    await client.getByRole("radio", { name: "Virement" }).check();
    await client.getByRole("button", { name: /^Payer 25/ }).click();
    const refusal = client.locator("#conditions-erreur");
    await refusal.waitFor();
    await hydrated(client);
    await expect
      .poll(() =>
        refusal.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    expect(await axeViolations(client), "galerie, conditions refusées").toEqual([]);
    await client.getByRole("checkbox", { name: /J'accepte les conditions de vente/ }).check();
    await client.getByRole("button", { name: /^Payer 25/ }).click();
    await client.getByRole("heading", { name: "Payer par virement" }).waitFor();
    await client.getByRole("link", { name: "Retour à votre galerie" }).click();
    await client.getByText(/^Une commande de 25\s€ attend son paiement\./).waitFor();
    expect(await axeViolations(client), "galerie, virement attendu").toEqual([]);

    // She would rather pay by card: it replaces her transfer order.
    await client.getByRole("checkbox", { name: /J'accepte les conditions de vente/ }).check();
    await client.getByRole("button", { name: "Payer plutôt par carte" }).click();
    await client.waitForURL((address) => address.origin === fake.pageOrigin);
    await client.getByRole("button", { name: "Payer" }).click();
    await client.waitForURL((address) => address.origin === new URL(url()).origin);
    expect(new URL(client.url()).pathname).toMatch(/^\/commande\/[A-Za-z0-9_-]{43}$/);
    await expect.poll(completedDeliveries).toEqual([expect.objectContaining({ status: 200 })]);
    await client.reload();
    await expect
      .poll(() => client.getByRole("heading", { name: "État : Payée" }).isVisible())
      .toBe(true);

    await client.getByText("Merci ! Vos photos sont débloquées.").waitFor();
    expect(await axeViolations(client), "commande payée").toEqual([]);
    await client.getByRole("link", { name: "Retour à votre galerie" }).click();
    await client.waitForURL((address) => address.pathname === `/galerie-client/${galleryId}`);
    await client.getByText("Toutes les photos de votre sélection sont à vous").waitFor();
    expect(await client.locator("li", { hasText: "Achetée" }).count()).toBe(5);
    const [download] = await Promise.all([
      client.waitForEvent("download"),
      client.getByRole("link", { name: /^Télécharger mes 6 photos \(ZIP/ }).click(),
    ]);
    const entries = await unzip(await readFile((await download.path()) ?? ""));
    expect(entries.map((entry) => entry.name.split("/").at(-1))).toEqual(chosen);
    expect(await axeViolations(client), "galerie payée").toEqual([]);
  });

  it("shows the owner the sale on the gallery's settings and selection pages, without axe violations", async () => {
    const settings = await signedInPage(
      openPage,
      admin.account(),
      `/admin/galeries/${galleryId}/reglages`,
      PHONE,
    );
    expect(await settings.getByLabel("Nombre de photos incluses (facultatif)").inputValue()).toBe(
      "1",
    );
    expect(await axeViolations(settings), "réglages").toEqual([]);
    const selection = await signedInPage(
      openPage,
      admin.account(),
      `/admin/galeries/${galleryId}/selection`,
      PHONE,
    );
    await selection.getByRole("heading", { name: "Photos supplémentaires" }).waitFor();
    expect(await selection.getByText("Achetée").count()).toBe(5);
    expect(await axeViolations(selection), "sélection").toEqual([]);
  });
});
