import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { redirects } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import {
  elementsWithText,
  formOf,
  intentButton,
  labelled,
  shownValue,
  typeInto,
} from "../support/admin-content";
import { flashedToast, pressButton } from "../support/admin-forms";
import { fetchPage, textOf, type FetchedPage } from "../support/html";
import { serverDatabase } from "../support/server-under-test";

/*
 * /admin/studios and /admin/redirections as the server answers them (decision 0070): the list
 * of studios, and the redirects' refusals posted without JavaScript. Changing a studio, its previews and
 * its history, and the redirects' own page in use, are tests/e2e/admin-studios (a server of its own: a
 * studio's phone shows on pages other files check). Nothing here changes what a page shows.
 */

const admin = useAdmin();
const marker = randomBytes(4).toString("hex");

afterAll(async () => {
  await serverDatabase()
    .delete(redirects)
    .where(like(redirects.fromPath, `%${marker}%`));
});

const adminPage = (path: string) => fetchPage(path, { cookie: admin.cookie() });

describe("/admin/studios", () => {
  it("lists the studios in menu order, with their phone", async () => {
    const page = await adminPage("/admin/studios");
    expect(textOf(page.document.querySelector("h1"))).toBe("Studios");
    const names = [...page.document.querySelectorAll("li h2")].map((name) => textOf(name));
    expect(names.slice(0, 3)).toEqual(["Studio d'Ussel", "Studio de Brive", "Studio de Limoges"]);
    expect(textOf(page.document.querySelector("main"))).toContain("05 36 49 10 01");
  });

  it("refuses a name, an address or a phone that a gift voucher could not print, keeping what was typed", async () => {
    const list = await adminPage("/admin/studios");
    const edit = [...list.document.querySelectorAll("main a")]
      .map((link) => link.getAttribute("href") ?? "")
      .find((href) => /^\/admin\/studios\/[0-9a-f-]{36}$/.test(href));
    if (!edit) throw new Error("no studio to edit");
    const form = formOf(await adminPage(edit));
    const before = shownValue(labelled(form, "Nom du studio"));
    const refused = await pressButton(
      edit,
      intentButton(
        typeInto(form, {
          name: `${before} 📷`,
          street: "★ 19 rue du 4 Septembre",
          addressCity: "Ussel",
          phone: "☎ 05 55 72 00 00",
        }),
        "save",
      ),
      { cookie: admin.cookie() },
    );
    expect(refused.status).toBe(400);
    const kept = formOf(refused);
    for (const character of ["📷", "★", "☎"]) {
      expect(textOf(kept)).toContain(
        `Ces caractères ne peuvent pas être imprimés sur le bon : ${character}. Retirez-les ou remplacez-les.`,
      );
    }
    expect(shownValue(labelled(kept, "Nom du studio"))).toBe(`${before} 📷`);
    expect(shownValue(labelled(formOf(await adminPage(edit)), "Nom du studio"))).toBe(before);
  });
});

describe("/admin/redirections", () => {
  /** The page's « Ajouter une redirection » form, `from` and `to` typed in, posted. */
  async function add(from: string, to: string): Promise<FetchedPage> {
    const form = formOf(await adminPage("/admin/redirections"));
    return pressButton(
      "/admin/redirections",
      intentButton(typeInto(form, { from, to }), "create"),
      {
        cookie: admin.cookie(),
      },
    );
  }

  it("refuses to redirect a real page, and a loop, keeping the typed values", async () => {
    const realPage = await add("/galerie", "/tarifs");
    expect(realPage.status).toBe(400);
    expect(
      elementsWithText(
        realPage.document,
        "Cette adresse est celle d'une page du site : la rediriger la rendrait inaccessible",
      ),
    ).toHaveLength(1);
    expect(shownValue(labelled(formOf(realPage), "Ancienne adresse"))).toBe("/galerie");
    expect(
      await serverDatabase().select().from(redirects).where(eq(redirects.fromPath, "/galerie")),
    ).toEqual([]);

    // /old → /promo → /tarifs, then /promo → /old would loop.
    const promo = await add(`/promo-${marker}`, "/tarifs");
    expect(promo.status).toBe(302);
    expect(flashedToast(promo.headers)).toMatchObject({ title: "Redirection ajoutée" });
    expect((await add(`/old-${marker}`, `/promo-${marker}`)).status).toBe(302);
    const [row] = await serverDatabase()
      .select()
      .from(redirects)
      .where(eq(redirects.fromPath, `/promo-${marker}`));
    const editForm = (page: FetchedPage) => {
      const form = [...page.document.querySelectorAll("main form")].find(
        (each) => each.querySelector('input[name="id"]')?.getAttribute("value") === row?.id,
      );
      if (!form) throw new Error("the redirect's row is not being edited");
      return form;
    };
    const editing = await adminPage(`/admin/redirections?modifier=${row?.id}`);
    const loop = await pressButton(
      "/admin/redirections",
      intentButton(typeInto(editForm(editing), { to: `/old-${marker}` }), "update"),
      { cookie: admin.cookie() },
    );
    expect(loop.status).toBe(400);
    expect(
      elementsWithText(
        loop.document,
        `Cette redirection créerait une boucle : /promo-${marker} → /old-${marker} → /promo-${marker}`,
      ),
    ).toHaveLength(1);
    expect(shownValue(labelled(editForm(loop), "Nouvelle adresse"))).toBe(`/old-${marker}`);
    const [kept] = await serverDatabase()
      .select()
      .from(redirects)
      .where(eq(redirects.fromPath, `/promo-${marker}`));
    expect(kept?.toPath).toBe("/tarifs");
  });
});
