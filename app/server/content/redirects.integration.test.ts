import type { RouteConfigEntry } from "@react-router/dev/routes";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import routeTable from "../../routes";
import { useAppDatabase } from "../../../tests/support/database";
import { db } from "../db/client.server";
import { redirects } from "../db/schema";
import {
  listRevisions,
  listStudios,
  restoreStudio,
  saveStudio,
  setStudioRetired,
  studioSubject,
} from "./content-store.server";
import {
  checkRedirect,
  deleteRedirect,
  listRedirects,
  normalisePath,
  saveRedirect,
} from "./redirects.server";
import { readSiteContent } from "./site-content.server";
import { pageMatcher, type RouteEntry } from "./site-pages.server";

useAppDatabase();

/** app/routes.ts as the server build lists it (one entry per route, children pointing to their parent). */
function flatten(entries: RouteConfigEntry[], parentId?: string, out: RouteEntry[] = []) {
  for (const entry of entries) {
    const id = entry.id ?? `${entry.file}#${out.length}`;
    out.push({ id, parentId, path: entry.path, index: entry.index });
    if (entry.children) flatten(entry.children, id, out);
  }
  return out;
}
const isSitePage = pageMatcher(Object.fromEntries(flatten(routeTable).map((r) => [r.id, r])));
const owner = { id: "", name: "Camille" };

const PAGE_ERROR =
  "Cette adresse est celle d'une page du site : la rediriger la rendrait inaccessible";

describe("the route table's pages", () => {
  it("are the routes but the 404 catch-all", () => {
    for (const path of ["/", "/tarifs", "/prestations/grossesse", "/blog/un-article", "/contact"]) {
      expect(isSitePage(path), path).toBe(true);
    }
    for (const path of ["/accueil", "/une-page-inconnue", "/prestations/inconnue"]) {
      expect(isSitePage(path), path).toBe(false);
    }
  });
});

describe("checkRedirect", () => {
  const context = {
    isSitePage,
    studioSlugs: ["ussel", "tulle"],
    others: new Map([
      ["/b", "/c"],
      ["/c", "/a?x=1"],
      ["/vieux", "/tarifs"],
    ]),
  };
  const check = (from: string, to: string) => checkRedirect({ from, to }, context);

  it("accepts an old path to a page, an https address, or another old path (a chain)", () => {
    expect(check("/ancienne-page/", "/tarifs")).toEqual({
      ok: true,
      from: "/ancienne-page",
      to: "/tarifs",
    });
    expect(check(" /promo ", "https://boutique.example.com/noel")).toMatchObject({ ok: true });
    expect(check("/promo", "/vieux")).toMatchObject({ ok: true });
    expect(check("/séance", "/tarifs#pro")).toMatchObject({ ok: true, from: "/s%C3%A9ance" });
  });

  it.each([
    ["", "Indiquez l'ancienne adresse (exemple : /ancienne-page)"],
    [
      "https://ancien-site.fr/page",
      "Indiquez seulement le chemin, sans le nom de domaine (exemple : /ancienne-page)",
    ],
    ["page", "L'ancienne adresse doit commencer par « / » (exemple : /ancienne-page)"],
    ["/page?id=3", "Indiquez seulement le chemin, sans « ? » ni « # » ni ce qui les suit"],
    ["/ma page", "L'ancienne adresse ne peut pas contenir d'espace"],
    ["/tarifs", PAGE_ERROR],
    ["/", PAGE_ERROR],
    ["/blog/un-article", PAGE_ERROR],
    ["/blog", PAGE_ERROR],
    ["/admin/studios", PAGE_ERROR],
    ["/studio-tulle", PAGE_ERROR],
    ["/contact-studio-ussel/", PAGE_ERROR],
    ["/vieux", "Cette ancienne adresse est déjà redirigée (vers /tarifs)"],
  ])("refuses the old address « %s »", (from, message) => {
    expect(check(from, "/tarifs")).toEqual({ ok: false, errors: { from: message } });
  });

  it.each([
    ["", "Indiquez la nouvelle adresse (exemple : /tarifs)"],
    ["http://ailleurs.example.com", "Une adresse d'un autre site doit commencer par https://"],
    [
      "tarifs",
      "La nouvelle adresse doit être une page de ce site (commençant par « / », exemple : /tarifs) ou une adresse https://",
    ],
    ["https://", "Cette adresse https:// n'est pas valide"],
    ["/tarfis", "« /tarfis » n'est pas une page du site : vérifiez l'adresse"],
    ["/a", "Cette redirection créerait une boucle : /a → /a"],
    ["/b", "Cette redirection créerait une boucle : /a → /b → /c → /a"],
  ])("refuses the new address « %s »", (to, message) => {
    expect(check("/a", to)).toEqual({ ok: false, errors: { to: message } });
  });

  it("stores paths as a browser sends them", () => {
    expect(normalisePath("/Été//")).toBe("/%C3%89t%C3%A9");
    expect(normalisePath("//ailleurs.fr")).toBeUndefined();
  });
});

describe("the redirects table", () => {
  it("the seed holds SPEC's 31 old addresses", async () => {
    expect(await listRedirects()).toHaveLength(31);
  });

  it("adds, edits and removes redirects, refusing loops and real pages; the site reads them at once", async () => {
    const created = await saveRedirect(null, { from: "/ancien-tarif", to: "/tarifs" }, isSitePage);
    expect(created).toMatchObject({ ok: true });
    if (!created.ok) throw new Error("not created");
    expect((await readSiteContent()).redirects.get("/ancien-tarif")).toBe("/tarifs");

    const chained = await saveRedirect(
      null,
      { from: "/tres-ancien", to: "/ancien-tarif" },
      isSitePage,
    );
    expect(chained).toMatchObject({ ok: true });
    expect(
      await saveRedirect(created.id, { from: "/ancien-tarif", to: "/tres-ancien" }, isSitePage),
    ).toEqual({
      ok: false,
      errors: {
        to: "Cette redirection créerait une boucle : /ancien-tarif → /tres-ancien → /ancien-tarif",
      },
    });
    expect(await saveRedirect(null, { from: "/galerie", to: "/tarifs" }, isSitePage)).toEqual({
      ok: false,
      errors: { from: PAGE_ERROR },
    });
    expect(await saveRedirect(null, { from: "/accueil", to: "/tarifs" }, isSitePage)).toEqual({
      ok: false,
      errors: { from: "Cette ancienne adresse est déjà redirigée (vers /)" },
    });

    expect(
      await saveRedirect(created.id, { from: "/ancien-tarif", to: "/galerie" }, isSitePage),
    ).toEqual({ ok: true, id: created.id });
    expect((await readSiteContent()).redirects.get("/ancien-tarif")).toBe("/galerie");

    expect(await deleteRedirect(created.id)).toBe(true);
    expect(await deleteRedirect(created.id)).toBe(false);
    expect((await listRedirects()).some((row) => row.from === "/ancien-tarif")).toBe(false);
    expect(await saveRedirect(created.id, { from: "/x", to: "/tarifs" }, isSitePage)).toEqual({
      ok: false,
      missing: true,
    });
  });
});

describe("a studio's new slug", () => {
  it("redirects its old addresses to the new ones in the same write, and back when restored", async () => {
    const [ussel] = await listStudios();
    if (!ussel) throw new Error("no studio");
    await saveStudio(ussel.id, "ussel-centre", ussel.data, owner);
    const table = new Map((await listRedirects()).map((row) => [row.from, row.to]));
    expect(table.get("/studio-ussel")).toBe("/studio-ussel-centre");
    expect(table.get("/contact-studio-ussel")).toBe("/contact-studio-ussel-centre");
    // The old site's address leads to the new page at once, not through a chain.
    expect(table.get("/contact-ussel")).toBe("/contact-studio-ussel-centre");

    // Back to « ussel »: its addresses are pages again, the other slug's lead to them.
    const [, previous] = await listRevisions(studioSubject(ussel.id));
    if (!previous) throw new Error("no revision");
    expect(await restoreStudio(ussel.id, previous.id, owner)).toBe(true);
    const after = new Map((await listRedirects()).map((row) => [row.from, row.to]));
    expect(after.has("/studio-ussel")).toBe(false);
    expect(after.has("/contact-studio-ussel")).toBe(false);
    expect(after.get("/studio-ussel-centre")).toBe("/studio-ussel");
    expect(after.get("/contact-ussel")).toBe("/contact-studio-ussel");
    await db().delete(redirects).where(eq(redirects.fromPath, "/studio-ussel-centre"));
  });

  it("a retired studio's addresses may be redirected", async () => {
    const [, brive] = await listStudios();
    if (!brive) throw new Error("no studio");
    await setStudioRetired(brive.id, true);
    // Judged without the route table (which may still list the three studios' pages).
    const noPage = () => false;
    expect(
      await saveRedirect(null, { from: "/studio-limoges", to: "/contact" }, noPage),
    ).toMatchObject({ ok: false, errors: { from: PAGE_ERROR } });
    expect(
      await saveRedirect(null, { from: "/studio-brive", to: "https://example.com/" }, noPage),
    ).toMatchObject({
      ok: true,
    });
    await setStudioRetired(brive.id, false);
  });
});
