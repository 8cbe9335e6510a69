import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import * as boudoir from "~/routes/boudoir";
import * as gendarmerie from "~/routes/gendarmerie";
import * as naissances from "~/routes/prestations/naissances";
import * as portraitFamille from "~/routes/portrait-famille";
import * as tarifs from "~/routes/tarifs";
import { SITE_LAYOUT_ID } from "~/lib/public-site";
import type { Documents } from "~/content/schemas";
import { loadDocument, saveDocument } from "./content-store.server";
import { publicSite } from "./public-site.server";
import { readSiteContent } from "./site-content.server";

useAppDatabase();

const owner = { id: "", name: "Camille" };

/** A route's loader as the server calls it for a request (the content read through the request's context). */
async function load<T>(loader: (args: never) => Promise<T>): Promise<T> {
  const args = {
    request: new Request("http://localhost/"),
    params: {},
    context: new RouterContextProvider(),
  };
  return loader(args as never);
}

/** The page's description, from its `meta` with the root's and the site layout's data. */
async function description<T>(
  route: { meta: (args: never) => unknown },
  loaderData: T,
): Promise<string> {
  const matches = [
    { id: "root", loaderData: { siteUrl: "https://studio.example.com" } },
    { id: SITE_LAYOUT_ID, loaderData: { site: publicSite(await readSiteContent()) } },
  ];
  const tags = route.meta({ matches, loaderData } as never) as Array<Record<string, string>>;
  return tags.find((tag) => tag.name === "description")?.content ?? "";
}

async function edit<K extends keyof Documents>(key: K, change: (value: Documents[K]) => void) {
  const value = structuredClone(await loadDocument(key));
  change(value);
  await saveDocument(key, value, owner, "test");
}

function card(prices: Documents["prices"], title: string) {
  const found = prices.tabs.flatMap((tab) => tab.cards).find((each) => each.title === title);
  if (!found) throw new Error(`pas de carte ${title}`);
  return found;
}

describe("the marketing pages' loaders read the content as the owner last saved it", () => {
  it("a price edited in /admin/tarifs is on /tarifs and in the sentences that quote it, at the next request", async () => {
    await edit("prices", (prices) => {
      card(prices, "Séance Naissance").price = { kind: "fixed", euros: 105 };
    });
    const { tabs } = await load(tarifs.loader);
    expect(tabs[0]?.cards.find((each) => each.title === "Séance Naissance")?.price).toEqual({
      kind: "fixed",
      euros: 105,
    });
    expect(await description(tarifs, { tabs })).toContain("Séance Naissance 105\u00a0€");

    const newborn = await load(naissances.loader);
    expect(newborn.newbornPrice).toEqual({ amount: "105\u00a0€", phrase: "à 105\u00a0€" });
    expect(await description(naissances, newborn)).toContain(": 105\u00a0€, 1 h 30 à 2 h 30");
  });

  it("a renamed card leaves the sentences that quoted it whole, without a price", async () => {
    await edit("prices", (prices) => {
      card(prices, "Séance Famille").title = "Séance Famille & Amis";
    });
    const data = await load(portraitFamille.loader);
    expect(data.familyPrice).toBeUndefined();
    expect(await description(portraitFamille, data)).toBe(
      "Séances photo portrait, famille, enfants et couple en studio à Ussel, Brive et Limoges : un tirage papier 20x30 cm offert, vos photos découvertes 10 jours après la séance.",
    );
  });

  it("the gendarmerie offer shows within its dates only; outside them, neither its title nor its packages", async () => {
    await edit("gendarmerie", (value) => {
      value.offer = {
        title: "Offre spéciale 2025",
        validFrom: "2025-01-01",
        validUntil: "2025-12-31",
      };
    });
    const ended = await load(gendarmerie.loader);
    expect(ended.offer).toEqual({ title: "", packages: [] });
    expect(ended.services).toHaveLength(4);
    expect(ended.booth.title).toBe("Location de borne selfie");
    expect(await description(gendarmerie, ended)).toBe(
      "Photos de groupe, reportages de cérémonie, galas et vidéo pour les unités de gendarmerie. Location de borne selfie.",
    );

    await edit("gendarmerie", (value) => {
      value.offer = {
        title: "Offre spéciale 2026",
        validFrom: "2026-01-01",
        validUntil: "2999-12-31",
      };
    });
    const running = await load(gendarmerie.loader);
    expect(running.offer.title).toBe("Offre spéciale 2026");
    expect(running.offer.packages).toHaveLength(3);
    expect(running.contact.path).toBe("/contact-studio-ussel");
    expect(await description(gendarmerie, running)).toContain(
      "Formules Offre spéciale 2026 dès 1\u202f200\u00a0€",
    );
  });

  it("/boudoir shows its gallery once the owner has put photos in it, with their alternative texts", async () => {
    expect((await load(boudoir.loader)).images).toEqual([]);
    const { slots } = await loadDocument("pagePhotos");
    await edit("pagePhotos", (value) => {
      value.galleries.boudoir = [{ title: "Lumière douce", photo: slots["portrait-famille.hero"] }];
    });
    const { images } = await load(boudoir.loader);
    expect(images.map((image) => [image.title, image.photo.alt])).toEqual([
      ["Lumière douce", "Famille réunie au studio"],
    ]);
  });
});
