import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { siteDocuments } from "../../app/server/db/schema";
import { plainSpaces, storedDocument, useDocumentsRestored } from "../support/admin-content";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { insertSessionType, studioIds } from "../support/booking";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

/*
 * /bons-cadeaux and /commande/{jeton} as the server answers them, JavaScript off (decisions 0166, 0167):
 * absent while vouchers are not on sale; an order by transfer leads to its page with the bank details, the
 * reference and the amount; a refused order comes back with French messages at the fields and everything
 * typed; the voucher's PDF does not exist before payment. On a server of the file's own: vouchers on sale
 * change every page that links to them.
 */

const home0 = useOwnServer();
const original = useDocumentsRestored(["payments", "giftSessions"] as const);

const PAGE = "/bons-cadeaux";
const IBAN = "FR7630006000011234567890189";

async function turnVouchersOn() {
  await serverDatabase()
    .update(siteDocuments)
    .set({
      data: {
        ...original("payments"),
        vouchersOnSale: true,
        transfer: true,
        studio: true,
        transferHolder: "Studio Lumière",
        transferIban: IBAN,
        transferDays: 8,
        amountPresets: [50, 100],
        amountMin: 30,
        amountMax: 500,
      },
    })
    .where(eq(siteDocuments.key, "payments"));
}

/** The addresses the page's links lead to. */
const hrefs = (page: FetchedPage, name: string) =>
  [...page.document.querySelectorAll("a")]
    .filter((link) => textOf(link).startsWith(name))
    .map((link) => link.getAttribute("href"));

/** Where the site leads a visitor who wants to give a voucher, page by page. */
async function voucherLinks() {
  const [home, tarifs, studio, gifts, sitemap] = await Promise.all([
    fetchPage("/"),
    fetchPage("/tarifs"),
    fetchPage("/studio-brive"),
    fetchPage("/seances-a-offrir"),
    fetch(new URL("/sitemap.xml", new URL(home0()))).then((response) => response.text()),
  ]);
  return {
    footer: hrefs(home, "Bons cadeaux"),
    tarifs: hrefs(tarifs, "Offrir un bon cadeau"),
    studio: hrefs(studio, "Offrir un bon cadeau"),
    gifts: hrefs(gifts, "Séance Iris"),
    giftsButton: hrefs(gifts, "Offrir un bon cadeau"),
    sitemap: sitemap.includes("/bons-cadeaux</loc>"),
  };
}

let typeId = "";
async function linkIrisToASessionType() {
  const { brive } = await studioIds(serverDatabase());
  typeId = await insertSessionType([brive], { name: "Séance Iris (studio)" }, serverDatabase());
  const gifts = await storedDocument("giftSessions");
  await serverDatabase()
    .update(siteDocuments)
    .set({
      data: {
        sessions: gifts.sessions.map((session) =>
          session.title === "Séance Iris"
            ? {
                ...session,
                price: { kind: "fixed", euros: 120 },
                sessionType: typeId,
                link: "https://boutique.studio-lumiere.fr/seance-iris",
              }
            : session,
        ),
      },
    })
    .where(eq(siteDocuments.key, "giftSessions"));
}

const hiddenKey = (page: FetchedPage) =>
  page.document.querySelector<HTMLInputElement>('input[name="cle"]')?.value ?? "";

function order(page: FetchedPage, changes: Record<string, string> = {}) {
  return postForm(PAGE, {
    offre: "montant",
    montant: "autre",
    montantLibre: "80",
    studio: "tous",
    beneficiaire: "Léa Martin",
    message: "Joyeux anniversaire !\nÀ très vite au studio.",
    envoi: "maintenant",
    destinataire: "acheteur",
    acheteurNom: "Zoé Lefèvre",
    acheteurEmail: "zoe@example.test",
    acheteurTelephone: "06 12 34 56 78",
    paiement: "transfer",
    conditions: "on",
    cle: hiddenKey(page),
    ...changes,
  });
}

const errorOf = (page: FetchedPage, name: string) =>
  textOf(page.document.getElementById(`bon-cadeau-${name}-erreur`));
const valueOf = (page: FetchedPage, name: string) =>
  page.document.querySelector<HTMLInputElement>(`[name="${name}"]:not([type="radio"])`)?.value;
/** The text of the <dd> a <dt> named `term` introduces. */
const definition = (page: FetchedPage, term: string) =>
  plainSpaces(
    textOf(
      [...page.document.querySelectorAll("dt")].find((dt) => textOf(dt) === term)
        ?.nextElementSibling,
    ),
  );
const checked = (page: FetchedPage, name: string) =>
  page.document.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`)?.value;

describe("/bons-cadeaux", () => {
  it("is the site's 404 while vouchers are not on sale", async () => {
    expect((await storedDocument("payments")).vouchersOnSale).toBe(false);
    const page = await fetchPage(PAGE);
    expect(page.status).toBe(404);
  });

  it("is linked from nowhere while off: the studios' shop and the gift sessions' links stay", async () => {
    await linkIrisToASessionType();
    expect(await voucherLinks()).toEqual({
      footer: [],
      tarifs: [],
      // The seed's placeholder shop is not shown (decision 0126).
      studio: [],
      gifts: ["https://boutique.studio-lumiere.fr/seance-iris"],
      giftsButton: [],
      sitemap: false,
    });
  });

  describe("on sale", () => {
    beforeAll(turnVouchersOn);

    it("is linked from the footer, /tarifs, the studios, /seances-a-offrir and the sitemap", async () => {
      expect(await voucherLinks()).toEqual({
        footer: [PAGE],
        tarifs: [PAGE],
        studio: [PAGE],
        gifts: [`${PAGE}?offre=${typeId}`],
        giftsButton: [PAGE],
        sitemap: true,
      });
    });

    it("offers each gift session linked to a session type, preselected from its link", async () => {
      const page = await fetchPage(`${PAGE}?offre=${typeId}`);
      expect(checked(page, "offre")).toBe(typeId);
      const offer = page.document
        .querySelector(`input[name="offre"][value="${typeId}"]`)
        ?.closest("label");
      expect(plainSpaces(textOf(offer))).toContain("Séance Iris · 120 €");
      expect(plainSpaces(textOf(offer))).toContain("Où : Studio de Brive.");
    });

    it("offers amounts and the ways of paying allowed, the terms before « Commander et payer »", async () => {
      const page = await fetchPage(PAGE);
      expect(page.status).toBe(200);
      const text = plainSpaces(textOf(page.document.body));
      expect(text).toContain("Un montant");
      expect(text).toContain("Virement");
      expect(text).toContain("Au studio");
      expect(text).not.toContain("Carte bancaire");
      expect(text).toContain("ni échangeable ni remboursable en espèces");
      const button = [...page.document.querySelectorAll("form button")].at(-1);
      expect(textOf(button)).toBe("Commander et payer");
      expect(hiddenKey(page)).toMatch(/^[0-9a-f-]{36}$/);
      // A light page: no framework script.
      expect(page.html).not.toContain("window.__reactRouterContext");
    });

    it("refuses an order that does not hold, in French at its fields, keeping everything typed", async () => {
      const refused = await order(await fetchPage(PAGE), {
        montantLibre: "2",
        acheteurEmail: "zoe-sans-arobase",
        conditions: "",
      });
      expect(refused.status).toBe(400);
      expect(errorOf(refused, "montantLibre")).toBe("Choisissez un montant entre 30 et 500 €.");
      expect(errorOf(refused, "acheteurEmail")).toContain("Indiquez une adresse e-mail valide");
      expect(errorOf(refused, "conditions")).toBe(
        "Pour commander, acceptez les conditions des bons cadeaux.",
      );
      expect(valueOf(refused, "montantLibre")).toBe("2");
      expect(valueOf(refused, "acheteurNom")).toBe("Zoé Lefèvre");
      expect(valueOf(refused, "beneficiaire")).toBe("Léa Martin");
      expect(refused.document.querySelector("textarea[name=message]")?.textContent).toBe(
        "Joyeux anniversaire !\nÀ très vite au studio.",
      );
      expect(checked(refused, "offre")).toBe("montant");
      expect(checked(refused, "montant")).toBe("autre");
      expect(checked(refused, "paiement")).toBe("transfer");
    });

    it("refuses a name the voucher's fonts cannot print", async () => {
      const refused = await order(await fetchPage(PAGE), { beneficiaire: "Léa 🎁" });
      expect(refused.status).toBe(400);
      expect(errorOf(refused, "beneficiaire")).toContain("ne peuvent pas être imprimés sur le bon");
      expect(valueOf(refused, "beneficiaire")).toBe("Léa 🎁");
    });

    it("orders by transfer: its page gives the IBAN, the reference and the amount; no PDF before payment", async () => {
      const form = await fetchPage(PAGE);
      const placed = await order(form);
      expect(placed.status).toBe(303);
      const location = placed.headers.get("location") ?? "";
      expect(location).toMatch(/^\/commande\/[A-Za-z0-9_-]{43}$/);
      // The same form posted again finds the same order.
      expect((await order(form)).headers.get("location")).toBe(location);

      const page = await fetchPage(location);
      expect(page.status).toBe(200);
      expect(page.headers.get("cache-control")).toBe("no-store");
      const text = plainSpaces(textOf(page.document.body));
      expect(text).toContain("En attente de paiement");
      expect(definition(page, "IBAN")).toBe("FR76 3000 6000 0112 3456 7890 189");
      expect(definition(page, "Titulaire")).toBe("Studio Lumière");
      expect(definition(page, "Référence à indiquer")).toMatch(/^BC-[0-9A-Z]{4}$/);
      expect(definition(page, "Montant")).toBe("80 €");
      expect(text).toContain("Bon cadeau de 80 €");
      expect(page.document.querySelector('meta[name="robots"]')?.getAttribute("content")).toContain(
        "noindex",
      );

      const pdf = await fetchPage(`${location}/bon.pdf`);
      expect(pdf.status).toBe(404);
    });

    it("orders to pay at the studio: its page says what to do", async () => {
      const placed = await order(await fetchPage(PAGE), {
        paiement: "studio",
        montant: "50",
        montantLibre: "",
      });
      expect(placed.status).toBe(303);
      const page = await fetchPage(placed.headers.get("location") ?? "");
      const text = plainSpaces(textOf(page.document.body));
      expect(text).toContain("Payer au studio");
      expect(text).toContain("Passez au studio ou appelez-le pour régler 50 €");
      expect(page.document.querySelectorAll("dd")).toHaveLength(0);
    });

    it("orders nothing when the spam trap is filled", async () => {
      const refused = await order(await fetchPage(PAGE), { site_web: "https://spam.example" });
      expect(refused.status).toBe(400);
      expect(refused.headers.get("location")).toBeNull();
      expect(valueOf(refused, "acheteurEmail")).toBe("zoe@example.test");
    });

    it("answers the site's 404 for an order nobody has", async () => {
      const page = await fetchPage(`/commande/${"A".repeat(43)}`);
      expect(page.status).toBe(404);
      expect((await fetchPage(`/commande/${"A".repeat(43)}/bon.pdf`)).status).toBe(404);
    });
  });
});
