import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { moneyJournal, orders, refunds, siteDocuments, vouchers } from "../../app/server/db/schema";
import { VOUCHER_ORDER_RATE_LIMIT } from "../../app/routes/bons-cadeaux.server";
import { useAdmin } from "../support/accounts";
import { plainSpaces, storedDocument, useDocumentsRestored } from "../support/admin-content";
import { expectFileRefusal } from "../support/file-refusal";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { insertSessionType, studioIds } from "../support/booking";
import { useOwnServer } from "../support/own-server";
import { serverBaseUrl, serverDatabase } from "../support/server-under-test";
import { voucherOrderFields } from "../support/voucher-form";
import { instantLabelFr } from "~/lib/booking/words";
import { isoDayInParis } from "~/lib/dates";
import { addCalendarDays, formatCalendarDayFr } from "~/lib/vouchers/terms";

/*
 * /bons-cadeaux and /commande/{jeton} as the server answers them, JavaScript off (decisions 0166, 0167):
 * absent while vouchers are not on sale; an order by transfer leads to its page with the bank details, the
 * reference and the amount; a refused order comes back with French messages at the fields and everything
 * typed; the voucher's PDF does not exist before payment; an order paid offline and withdrawn within 14
 * days is left for the owner to refund, refused later or once the voucher served; past the orders' limit
 * per visitor address nothing is created. On a server of the file's own: vouchers on sale change every
 * page that links to them.
 */

const home0 = useOwnServer({
  // The limit test posts from an address of its own (X-Forwarded-For).
  TRUST_PROXY: "loopback",
});
const admin = useAdmin();
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

function order(
  page: FetchedPage,
  changes: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  return postForm(
    PAGE,
    voucherOrderFields({
      montant: "autre",
      montantLibre: "80",
      message: "Joyeux anniversaire !\nÀ très vite au studio.",
      acheteurTelephone: "06 12 34 56 78",
      paiement: "transfer",
      cle: hiddenKey(page),
      ...changes,
    }),
    { headers },
  );
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
      // The instant the order lapses (the expiry job cancels it at `pay_by`), as its e-mail gives it: its
      // day alone would promise the hours after it.
      const [placedOrder] = await serverDatabase()
        .select({ payBy: orders.payBy })
        .from(orders)
        .where(eq(orders.transferReference, definition(page, "Référence à indiquer")));
      expect(placedOrder?.payBy).toBeInstanceOf(Date);
      expect(text).toContain(
        plainSpaces(
          `Il est attendu avant le ${instantLabelFr(placedOrder?.payBy ?? "")} ; passé ce délai, la commande est annulée.`,
        ),
      );
      expect(page.document.querySelector('meta[name="robots"]')?.getAttribute("content")).toContain(
        "noindex",
      );
      // Said to crawlers in its headers too (a crawler reading no HTML), as its data, its refusals and
      // an unknown order's 404.
      expect(page.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      const data = await fetch(`${serverBaseUrl()}${location}.data`, { redirect: "manual" });
      expect(data.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      const unknown = await fetchPage("/commande/jeton-inconnu");
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get("x-robots-tag")).toBe("noindex, nofollow");

      const pdf = await fetchPage(`${location}/bon.pdf`);
      expect(pdf.status).toBe(404);
      expect(pdf.headers.get("x-robots-tag")).toBe("noindex, nofollow");

      // Lapsed unpaid, its page says so and where to order again (the bank details gone).
      await serverDatabase()
        .update(orders)
        .set({ status: "expired" })
        .where(eq(orders.transferReference, definition(page, "Référence à indiquer")));
      const lapsed = await fetchPage(location);
      const notice = plainSpaces(textOf(lapsed.document.querySelector('[role="status"]')));
      expect(notice).toContain("Cette commande n'a pas été réglée à temps");
      expect(notice).toContain(
        "Elle est annulée : rien ne vous a été débité. Si vous avez payé entre-temps, répondez à l'e-mail de votre commande : le studio la retrouvera.",
      );
      expect(hrefs(lapsed, "Commander un nouveau bon cadeau")).toEqual(["/bons-cadeaux"]);
      expect(lapsed.document.querySelector("#virement")).toBeNull();
    });

    it("refuses the same form's key asking for another voucher, keeping what was typed, then orders it anew", async () => {
      const form = await fetchPage(PAGE);
      const first = await order(form);
      expect(first.status).toBe(303);
      // The page shown again by « Précédent » with its key, the amount and the recipient changed.
      const changed = { montantLibre: "120", beneficiaire: "Lucien Martin" };
      const refused = await order(form, changed);
      expect(refused.status).toBe(409);
      expect(plainSpaces(textOf(refused.document.querySelector('[role="alert"]')))).toContain(
        "Ce formulaire a déjà servi à une autre commande : vérifiez ce que vous commandez ci-dessous, puis validez de nouveau pour passer une nouvelle commande.",
      );
      expect(valueOf(refused, "montantLibre")).toBe("120");
      expect(valueOf(refused, "beneficiaire")).toBe("Lucien Martin");
      expect(hiddenKey(refused)).not.toBe(hiddenKey(form));

      const second = await order(refused, changed);
      expect(second.status).toBe(303);
      expect(second.headers.get("location")).not.toBe(first.headers.get("location"));
      const page = await fetchPage(second.headers.get("location") ?? "");
      expect(plainSpaces(textOf(page.document.body))).toContain("Bon cadeau de 120 €");
    });

    it("orders to pay at the studio: its page says what to do, and to whom and on which day the voucher goes", async () => {
      const day = addCalendarDays(isoDayInParis(new Date()), 20);
      const placed = await order(await fetchPage(PAGE), {
        paiement: "studio",
        montant: "50",
        montantLibre: "",
        destinataire: "beneficiaire",
        beneficiaireEmail: "lea.martin@example.test",
        envoi: "date",
        dateEnvoi: day,
      });
      expect(placed.status).toBe(303);
      const page = await fetchPage(placed.headers.get("location") ?? "");
      const text = plainSpaces(textOf(page.document.body));
      expect(text).toContain("Payer au studio");
      expect(text).toContain("Passez au studio ou appelez-le pour régler 50 €");
      // Never « vous est envoyé » for a gift its recipient gets on a later day.
      expect(text).not.toContain("vous est envoyé");
      expect(text).toContain(
        plainSpaces(
          `Le bon sera envoyé à Léa Martin (lea.martin@example.test) le ${formatCalendarDayFr(day)} à 9 h, ou dès réception du paiement s'il arrive après.`,
        ),
      );
      expect(page.document.querySelectorAll("dd")).toHaveLength(0);
    });

    it("orders nothing when the spam trap is filled", async () => {
      const refused = await order(await fetchPage(PAGE), { site_web: "https://spam.example" });
      expect(refused.status).toBe(400);
      expect(refused.headers.get("location")).toBeNull();
      expect(valueOf(refused, "acheteurEmail")).toBe("zoe@example.test");
    });

    describe("withdrawn after an offline payment", () => {
      const day = 24 * 3_600_000;
      let visitor = 0;
      /** An order by transfer placed from an address of its own, marked paid by the owner. */
      async function paidByTransfer(changes: Record<string, string> = {}) {
        const email = `retractation-${++visitor}-${Date.now()}@example.test`;
        const placed = await order(
          await fetchPage(PAGE),
          { acheteurEmail: email, ...changes },
          { "X-Forwarded-For": `203.0.113.${visitor}` },
        );
        expect(placed.status).toBe(303);
        const [row] = await serverDatabase()
          .select()
          .from(orders)
          .where(eq(orders.buyerEmail, email));
        if (!row) throw new Error("no order");
        const paid = await postForm(
          `/admin/ventes/${row.id}`,
          { intent: "mark-paid", means: "transfer" },
          { cookie: admin.cookie() },
        );
        expect(paid.status).toBe(302);
        const [voucher] = await serverDatabase()
          .select()
          .from(vouchers)
          .where(eq(vouchers.orderId, row.id));
        expect(voucher?.status).toBe("active");
        return {
          path: placed.headers.get("location") ?? "",
          orderId: row.id,
          voucherId: voucher?.id ?? "",
        };
      }
      const withdraw = (path: string) => postForm(path, { intent: "retracter" });
      const refundsOf = (orderId: string) =>
        serverDatabase().select().from(refunds).where(eq(refunds.orderId, orderId));
      const journalOf = async (orderId: string) =>
        (
          await serverDatabase()
            .select({ kind: moneyJournal.kind, amountCents: moneyJournal.amountCents })
            .from(moneyJournal)
            .where(eq(moneyJournal.orderId, orderId))
            .orderBy(moneyJournal.seq)
        ).map((row) => `${row.kind} ${row.amountCents}`);
      const voucherStatus = async (voucherId: string) =>
        (await serverDatabase().select().from(vouchers).where(eq(vouchers.id, voucherId)))[0];

      it("names on its page the studio a session voucher is valid in, as its PDF does", async () => {
        const { path } = await paidByTransfer({ offre: typeId, studio: "brive" });
        const page = plainSpaces(textOf((await fetchPage(path)).document.body));
        expect(page).toContain("Séance Iris, Studio de Brive");
        expect(page).not.toContain("dans le studio de votre choix");
      });

      it("says on its page the voucher could not be delivered, to which address, and sends it once to the address corrected", async () => {
        const mistyped = `lea.martin-${Date.now()}@exmaple.test`;
        const { path, voucherId } = await paidByTransfer({
          destinataire: "beneficiaire",
          beneficiaireEmail: mistyped,
        });
        // Its e-mail given up by the outbox (the mail server refused the mailbox: the integration test).
        await serverDatabase()
          .update(vouchers)
          .set({ deliveryFailedAt: new Date(), deliveryFailedTo: mistyped })
          .where(eq(vouchers.id, voucherId));
        const deliveryJobs = async () =>
          (
            await serverDatabase().$client.query<{ count: string }>(
              "select count(*) from pgboss.job where name = 'mail' and data->>'kind' = 'voucher-delivery' and data->>'voucherId' = $1",
              [voucherId],
            )
          ).rows[0]?.count;
        expect(await deliveryJobs()).toBe("1");

        const shown = await fetchPage(path);
        const text = plainSpaces(textOf(shown.document.body));
        expect(text).toContain(
          `Le bon n'a pas pu être envoyé à Léa Martin (${mistyped}) : cette adresse a été refusée par sa messagerie, ou celle-ci n'a pas répondu.`,
        );
        expect(text).toContain("Le bon n'a pas pu être envoyé");
        expect(
          shown.document.querySelector<HTMLInputElement>('input[name="beneficiaireEmail"]')?.value,
        ).toBe(mistyped);
        // Checked by the server, whose answer is in French beside the field, not by the browser's bubble.
        expect(
          shown.document
            .querySelector('input[name="beneficiaireEmail"]')
            ?.closest("form")
            ?.hasAttribute("novalidate"),
        ).toBe(true);
        // The owner's list says it too.
        const owner = plainSpaces(
          textOf(
            (await fetchPage("/admin/bons-cadeaux", { cookie: admin.cookie() })).document.body,
          ),
        );
        expect(owner).toContain(`Envoi impossible à ${mistyped} le `);

        // Refused in French, what she typed kept: not an address, then the refused one again.
        const send = (fields: Record<string, string>) =>
          postForm(path, { intent: "renvoyer", destinataire: "beneficiaire", ...fields });
        const invalid = await send({ beneficiaireEmail: "lea.martin@" });
        expect(invalid.status).toBe(400);
        expect(textOf(invalid.document.getElementById("renvoi-erreur"))).toBe(
          "Indiquez une adresse e-mail valide (par exemple prenom@exemple.fr), ou recevez le bon vous-même.",
        );
        expect(
          invalid.document.querySelector<HTMLInputElement>('input[name="beneficiaireEmail"]')
            ?.value,
        ).toBe("lea.martin@");
        const same = await send({ beneficiaireEmail: mistyped.toUpperCase() });
        expect(same.status).toBe(400);
        expect(textOf(same.document.getElementById("renvoi-erreur"))).toContain(
          "C'est l'adresse qui a été refusée",
        );
        expect(await deliveryJobs()).toBe("1");

        // Corrected, posted twice: sent again once, to that address.
        const corrected = mistyped.replace("exmaple", "example");
        const [first, second] = await Promise.all([
          send({ beneficiaireEmail: ` ${corrected} ` }),
          send({ beneficiaireEmail: corrected }),
        ]);
        for (const answer of [first, second]) {
          expect(answer.status).toBe(303);
          expect(answer.headers.get("location")).toBe(`${path}?fait=renvoi`);
        }
        expect(await deliveryJobs()).toBe("2");
        expect(await voucherStatus(voucherId)).toMatchObject({
          recipientEmail: corrected,
          sendTo: "recipient",
          deliveryFailedTo: null,
        });
        const after = plainSpaces(textOf((await fetchPage(`${path}?fait=renvoi`)).document.body));
        expect(after).toContain(
          "C'est noté : le bon part à l'adresse indiquée dans quelques minutes.",
        );
        expect(after).toContain(`à Léa Martin (${corrected})`);
        expect(after).not.toContain("n'a pas pu être envoyé");
      });

      it("lets a buyer whose own address was refused correct it on her page, and sends her voucher there once", async () => {
        const { path, orderId, voucherId } = await paidByTransfer();
        const [placed] = await serverDatabase().select().from(orders).where(eq(orders.id, orderId));
        const mistyped = placed?.buyerEmail ?? "";
        expect((await voucherStatus(voucherId))?.sendTo).toBe("buyer");
        // Her voucher's e-mail given up at her own address (a typo: the mail server refused it).
        await serverDatabase()
          .update(vouchers)
          .set({ deliveryFailedAt: new Date(), deliveryFailedTo: mistyped })
          .where(eq(vouchers.id, voucherId));
        const jobsOf = async (kind: string, key: string, id: string) =>
          (
            await serverDatabase().$client.query<{ count: string }>(
              `select count(*) from pgboss.job where name = 'mail' and data->>'kind' = $1 and data->>'${key}' = $2`,
              [kind, id],
            )
          ).rows[0]?.count;
        const deliveries = () => jobsOf("voucher-delivery", "voucherId", voucherId);
        const orderMails = () => jobsOf("voucher-order", "orderId", orderId);
        expect(await deliveries()).toBe("1");
        expect(await orderMails()).toBe("1");

        // Her page offers her own address to correct, as she typed it.
        const shown = await fetchPage(path);
        const own = shown.document.querySelector<HTMLInputElement>('input[name="acheteurEmail"]');
        expect(own?.value).toBe(mistyped);
        expect(own?.closest("form")?.hasAttribute("novalidate")).toBe(true);
        expect(checked(shown, "destinataire")).toBe("moi");

        // Refused in French beside her field, what she typed kept and her choice still checked.
        const send = (fields: Record<string, string>) =>
          postForm(path, { intent: "renvoyer", destinataire: "moi", ...fields });
        const invalid = await send({ acheteurEmail: "chez-moi@", beneficiaireEmail: "" });
        expect(invalid.status).toBe(400);
        expect(textOf(invalid.document.getElementById("renvoi-erreur"))).toBe(
          "Indiquez une adresse e-mail valide (par exemple prenom@exemple.fr), ou téléchargez le bon sur cette page.",
        );
        expect(
          invalid.document.querySelector<HTMLInputElement>('input[name="acheteurEmail"]')?.value,
        ).toBe("chez-moi@");
        expect(checked(invalid, "destinataire")).toBe("moi");
        const same = await send({ acheteurEmail: mistyped.toUpperCase() });
        expect(same.status).toBe(400);
        expect(textOf(same.document.getElementById("renvoi-erreur"))).toContain(
          "C'est l'adresse qui a été refusée",
        );
        expect(await deliveries()).toBe("1");

        // Corrected, posted twice: her order takes it, her voucher and her order's e-mail leave once.
        const corrected = mistyped.replace("@example.test", "@example.org");
        const [first, second] = await Promise.all([
          send({ acheteurEmail: ` ${corrected} ` }),
          send({ acheteurEmail: corrected }),
        ]);
        for (const answer of [first, second]) {
          expect(answer.status).toBe(303);
          expect(answer.headers.get("location")).toBe(`${path}?fait=renvoi`);
        }
        expect(await deliveries()).toBe("2");
        expect(await orderMails()).toBe("2");
        const [after] = await serverDatabase().select().from(orders).where(eq(orders.id, orderId));
        expect(after?.buyerEmail).toBe(corrected);
        expect(await voucherStatus(voucherId)).toMatchObject({
          sendTo: "buyer",
          deliveryFailedTo: null,
        });
        const page = plainSpaces(textOf((await fetchPage(`${path}?fait=renvoi`)).document.body));
        expect(page).not.toContain("n'a pas pu être envoyé");
      });

      it("cancels the voucher, shows the owner the money to give back, journalled once when she marks it", async () => {
        const { path, orderId, voucherId } = await paidByTransfer();
        const shown = await fetchPage(path);
        const link = [...shown.document.querySelectorAll("a")].find(
          (candidate) => textOf(candidate) === "Annuler ma commande",
        );
        expect(link?.getAttribute("href")).toBe(`${path}?retractation=1`);
        const asked = await fetchPage(`${path}?retractation=1`);
        expect(textOf(asked.document.body)).toContain("Annuler votre commande ?");
        expect(textOf(asked.document.body)).toContain("vous sera remboursé par le studio");

        const withdrawn = await withdraw(path);
        expect(withdrawn.status).toBe(303);
        expect(withdrawn.headers.get("location")).toBe(`${path}?fait=retractation`);
        const after = await fetchPage(`${path}?fait=retractation`);
        expect(textOf(after.document.body)).toContain(
          "Votre commande est annulée : le studio vous rembourse le prix payé",
        );
        expect((await voucherStatus(voucherId))?.status).toBe("cancelled");
        // The voucher's link in her e-mail now opens a French page that says so, not a bare answer.
        expect(expectFileRefusal(await fetchPage(`${path}/bon.pdf`), 404)).toContain(
          "Ce lien ne mène à aucun fichier",
        );
        expect((await refundsOf(orderId)).map((refund) => refund.status)).toEqual([
          "to_refund_offline",
        ]);

        const owner = `/admin/ventes/${orderId}`;
        const toGiveBack = await fetchPage(owner, { cookie: admin.cookie() });
        const text = plainSpaces(textOf(toGiveBack.document.body));
        expect(text).toContain("80 € à rendre au client (Rétractation de l'acheteur).");
        expect(text).toContain("à rembourser par vous");
        // No money has left yet: the payment and the voucher's issue and cancellation only.
        expect(await journalOf(orderId)).toEqual([
          "payment 8000",
          "voucher_issue 8000",
          "voucher_cancellation -8000",
        ]);

        const [refund] = await refundsOf(orderId);
        const marked = { intent: "refunded-offline", id: refund?.id ?? "" };
        const done = await postForm(owner, marked, { cookie: admin.cookie() });
        expect(done.status).toBe(302);
        // Pressed again (a second tab, a reload): nothing more.
        expect((await postForm(owner, marked, { cookie: admin.cookie() })).status).toBe(302);
        expect((await refundsOf(orderId)).map((each) => each.status)).toEqual(["refunded_offline"]);
        expect((await journalOf(orderId)).filter((row) => row.startsWith("refund"))).toEqual([
          "refund -8000",
        ]);
        const [row] = await serverDatabase().select().from(orders).where(eq(orders.id, orderId));
        expect(row?.status).toBe("refunded");
        const given = plainSpaces(
          textOf((await fetchPage(owner, { cookie: admin.cookie() })).document.body),
        );
        expect(given).not.toContain("à rendre au client");

        // Posted again (a second tab, a resubmitted form): answered as the first, nothing more refunded.
        const again = await withdraw(path);
        expect(again.status).toBe(303);
        expect(again.headers.get("location")).toBe(`${path}?fait=retractation`);
        expect(await refundsOf(orderId)).toHaveLength(1);
      });

      it("refuses in French after the 14 days, and once the voucher served", async () => {
        const late = await paidByTransfer();
        await serverDatabase()
          .update(orders)
          .set({ createdAt: new Date(Date.now() - 30 * day) })
          .where(eq(orders.id, late.orderId));
        const shown = await fetchPage(late.path);
        expect(textOf(shown.document.body)).not.toContain("Annuler ma commande");
        const tooLate = await withdraw(late.path);
        expect(tooLate.status).toBe(409);
        expect(textOf(tooLate.document.body)).toMatch(
          /Le délai de rétractation est passé : il courait jusqu'au \d{1,2}(er)? \p{L}+ \d{4}\./u,
        );
        expect((await voucherStatus(late.voucherId))?.status).toBe("active");
        expect(await refundsOf(late.orderId)).toEqual([]);

        const used = await paidByTransfer();
        const spent = await postForm(
          "/admin/bons-cadeaux",
          { intent: "use-amount", id: used.voucherId, amount: "10" },
          { cookie: admin.cookie() },
        );
        expect(spent.status).toBe(302);
        const refused = await withdraw(used.path);
        expect(refused.status).toBe(409);
        expect(textOf(refused.document.body)).toContain(
          "Ce bon a déjà servi (ou n'est plus valable) : la commande ne peut plus être annulée.",
        );
        expect(await voucherStatus(used.voucherId)).toMatchObject({
          status: "active",
          balanceCents: 7000,
        });
        expect(await refundsOf(used.orderId)).toEqual([]);
        expect(
          (await journalOf(used.orderId)).filter((row) => row.startsWith("voucher_cancel")),
        ).toEqual([]);
      });

      it("refuses the owner's refund confirmed while the voucher was used meanwhile, in French, her amount kept", async () => {
        const { orderId, voucherId } = await paidByTransfer();
        const owner = `/admin/ventes/${orderId}`;
        const confirm = await fetchPage(`${owner}?rembourser=1&montant=70&motif=Geste`, {
          cookie: admin.cookie(),
        });
        expect(plainSpaces(textOf(confirm.document.body))).toContain("Le solde du bon (80 €)");
        const form = [...confirm.document.querySelectorAll("form")].find((each) =>
          each.querySelector('button[value="refund"]'),
        );
        const fields = Object.fromEntries(
          [...(form?.querySelectorAll('input[type="hidden"]') ?? [])].map((input) => [
            input.getAttribute("name") ?? "",
            input.getAttribute("value") ?? "",
          ]),
        );
        expect(fields.bon).toBe("8000");
        // Meanwhile, 30 € of it used at the studio: 50 € left, the refund would give back 20 € spent.
        const spent = await postForm(
          "/admin/bons-cadeaux",
          { intent: "use-amount", id: voucherId, amount: "30" },
          { cookie: admin.cookie() },
        );
        expect(spent.status).toBe(302);
        const refused = await postForm(
          owner,
          { ...fields, intent: "refund" },
          { cookie: admin.cookie() },
        );
        expect(refused.status).toBe(400);
        const text = plainSpaces(textOf(refused.document.body));
        expect(text).toContain(
          "Le bon a servi entre-temps : il ne reste que 50 € sur son solde, et non 80 €.",
        );
        const typed = (name: string) =>
          refused.document.querySelector(`[name="${name}"]`)?.getAttribute("value");
        expect([typed("montant"), typed("motif")]).toEqual(["70", "Geste"]);
        expect(await refundsOf(orderId)).toEqual([]);
        expect((await voucherStatus(voucherId))?.balanceCents).toBe(5000);
      });
    });

    it(`creates nothing past ${VOUCHER_ORDER_RATE_LIMIT.limit} orders an hour from one address: a French 429, everything typed kept`, async () => {
      const from = { "X-Forwarded-For": "198.51.100.20" };
      const email = `limite-${Date.now()}@example.test`;
      const ordersOf = async () =>
        (
          await serverDatabase()
            .select({ count: count() })
            .from(orders)
            .where(and(eq(orders.buyerEmail, email)))
        )[0]?.count;
      const form = await fetchPage(PAGE);
      for (let placed = 0; placed < VOUCHER_ORDER_RATE_LIMIT.limit; placed++) {
        const answer = await order(form, { acheteurEmail: email, cle: crypto.randomUUID() }, from);
        expect(answer.status).toBe(303);
      }
      expect(await ordersOf()).toBe(VOUCHER_ORDER_RATE_LIMIT.limit);

      const refused = await order(
        form,
        { acheteurEmail: email, cle: crypto.randomUUID(), paiement: "studio" },
        from,
      );
      expect(refused.status).toBe(429);
      expect(refused.headers.get("location")).toBeNull();
      expect(textOf(refused.document.querySelector("main"))).toContain(
        "Trop de commandes depuis cette connexion : réessayez dans une heure.",
      );
      expect(await ordersOf()).toBe(VOUCHER_ORDER_RATE_LIMIT.limit);
      expect(valueOf(refused, "acheteurEmail")).toBe(email);
      expect(valueOf(refused, "beneficiaire")).toBe("Léa Martin");
      expect(valueOf(refused, "montantLibre")).toBe("80");
      expect(refused.document.querySelector("textarea[name=message]")?.textContent).toBe(
        "Joyeux anniversaire !\nÀ très vite au studio.",
      );
      expect(checked(refused, "paiement")).toBe("studio");

      // Another visitor still orders.
      const other = await order(
        form,
        { cle: crypto.randomUUID() },
        { "X-Forwarded-For": "198.51.100.21" },
      );
      expect(other.status).toBe(303);
    });

    it("answers the site's 404 for an order nobody has", async () => {
      const page = await fetchPage(`/commande/${"A".repeat(43)}`);
      expect(page.status).toBe(404);
      expectFileRefusal(await fetchPage(`/commande/${"A".repeat(43)}/bon.pdf`), 404);
      expectFileRefusal(
        await fetchPage(`/commande/${"A".repeat(43)}/facture/F-2026-000001.pdf`),
        404,
      );
    });
  });
});
