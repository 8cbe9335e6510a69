import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { contentRevisions, orders, siteDocuments } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import {
  formOf,
  intentButton,
  labelled,
  shownValue,
  storedDocument,
  typeInto,
  useDocumentsRestored,
} from "../support/admin-content";
import { buttonLabelled, flashedToast, pressButton } from "../support/admin-forms";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

/*
 * /admin/reglages/paiement as the server answers it, JavaScript off (decision 0162): the settings saved
 * with a revision, refused with French messages at the fields (what was typed kept), and the card's keys
 * kept out of every page once saved.
 */

const PAGE = "/admin/reglages/paiement";
// Cards turned on change every page's Content-Security-Policy: a server of its own, so that no other
// file sees it.
useOwnServer();
const admin = useAdmin();
useDocumentsRestored(["payments"] as const);
afterAll(async () => {
  await serverDatabase().delete(siteDocuments).where(eq(siteDocuments.key, "payment-keys"));
});

const SECRET = "sk_test_51PaymentPageTestKey000000004321";
const WEBHOOK = "whsec_PaymentPageTestSigningSecret0000";
const page = () => fetchPage(PAGE, { cookie: admin.cookie() });
const settingsForm = (fetched: FetchedPage) =>
  formOf(fetched, 'form[aria-label="Réglages de paiement"]');
const keysForm = (fetched: FetchedPage) => formOf(fetched, 'form[aria-label="Clés Stripe"]');

function save(fetched: FetchedPage, changes: Record<string, string | boolean>) {
  return pressButton(PAGE, intentButton(typeInto(settingsForm(fetched), changes), "save"), {
    cookie: admin.cookie(),
  });
}

const errorOf = (fetched: FetchedPage, name: string) =>
  textOf(fetched.document.getElementById(`champ-${name}-erreur`));

describe("/admin/reglages/paiement", () => {
  it("saves what is on sale and how clients pay, with its revision", async () => {
    const saved = await save(await page(), {
      vouchersOnSale: true,
      studio: true,
      transfer: true,
      transferHolder: "Studio Lumière",
      transferIban: "fr76 3000 6000 0112 3456 7890 189",
      amountPresets: "40, 80, 120",
    });
    expect(saved.status).toBe(302);
    expect(flashedToast(saved.headers)?.title).toBe("Réglages de paiement enregistrés");
    expect(await storedDocument("payments")).toMatchObject({
      vouchersOnSale: true,
      studio: true,
      transfer: true,
      card: false,
      transferIban: "FR7630006000011234567890189",
      amountPresets: [40, 80, 120],
    });
    const again = await page();
    expect(shownValue(labelled(again.document, "IBAN"))).toBe("FR76 3000 6000 0112 3456 7890 189");
    expect(textOf(again.document.body)).toContain("Historique des réglages de paiement");
    expect(textOf(again.document.body)).toContain("Vente de bons cadeaux");
  });

  it("refuses settings that do not hold together, in French, keeping what was typed", async () => {
    const refused = await save(await page(), {
      vouchersOnSale: true,
      card: true,
      studio: false,
      transfer: true,
      transferHolder: "",
      transferIban: "FR76 3000 6000 0112 3456 7890 188",
      amountMin: "600",
    });
    expect(refused.status).toBe(400);
    expect(errorOf(refused, "transferIban")).toBe(
      "Cet IBAN n'est pas valide : recopiez-le depuis votre RIB.",
    );
    expect(shownValue(labelled(refused.document, "IBAN"))).toBe(
      "FR76 3000 6000 0112 3456 7890 188",
    );
    const checked = await save(await page(), { card: true, transferHolder: "", amountMin: "600" });
    expect(checked.status).toBe(400);
    expect(errorOf(checked, "card")).toBe(
      "Enregistrez d'abord vos clés Stripe, plus bas sur cette page",
    );
    expect(errorOf(checked, "transferHolder")).toBe(
      "Indiquez le titulaire du compte pour recevoir des virements",
    );
    expect(errorOf(checked, "amountMax")).toBe("Le maximum doit être au moins égal au minimum");
    expect((await storedDocument("payments")).card).toBe(false);
  });

  it("keeps the card's keys out of every page, shows test mode, and removes them only with cards off", async () => {
    const wrong = await pressButton(
      PAGE,
      buttonLabelled(
        typeInto(keysForm(await page()), { secretKey: "pk_test_123456789012" }),
        "Enregistrer les clés",
      ),
      { cookie: admin.cookie() },
    );
    expect(wrong.status).toBe(400);
    expect(errorOf(wrong, "secretKey")).toContain("Ce n'est pas une clé secrète Stripe");
    expect(wrong.html).not.toContain("pk_test_123456789012");

    const saved = await pressButton(
      PAGE,
      buttonLabelled(
        // With the signing secret the keys are kept as typed: no call to Stripe (a test never leaves
        // the machine; the endpoint's registration is tested against the fake in card.integration).
        typeInto(keysForm(await page()), { secretKey: SECRET, webhookSecret: WEBHOOK }),
        "Enregistrer les clés",
      ),
      { cookie: admin.cookie() },
    );
    expect(saved.status).toBe(302);
    expect(flashedToast(saved.headers)).toMatchObject({ title: "Clés Stripe enregistrées" });
    const shown = await page();
    expect(shown.html).not.toContain(SECRET);
    expect(shown.html).not.toContain(WEBHOOK);
    expect(textOf(shown.document.body)).toContain("sk_test_…4321 (mode test)");
    expect(textOf(shown.document.querySelector('[role="status"]'))).toContain("Mode test");
    expect(shown.document.querySelector('[role="alert"]')).toBeNull();

    // Stripe refused this key (the server records it, by its digest, at the first refused call): the
    // page says so, and what to do, while it is the key in force.
    await serverDatabase()
      .insert(siteDocuments)
      .values({
        key: "payment-key-refused",
        data: {
          digest: createHash("sha256").update(SECRET).digest("hex"),
          at: "2026-12-01T09:12:00.000Z",
        },
      });
    const keyRefused = await page();
    expect(textOf(keyRefused.document.querySelector('main [role="alert"]'))).toBe(
      "Stripe refuse cette clé secrète depuis le 1er décembre 2026 à 10:12 : elle a sans doute été révoquée ou remplacée depuis votre tableau de bord Stripe. Vos clients ne peuvent pas payer par carte et les remboursements par carte ne partent pas. Copiez vos clés depuis votre tableau de bord Stripe (Développeurs › Clés API) et saisissez-les de nouveau ci-dessous.",
    );
    await serverDatabase()
      .delete(siteDocuments)
      .where(eq(siteDocuments.key, "payment-key-refused"));

    expect((await save(shown, { card: true })).status).toBe(302);
    // Cards accepted: forms may lead to Stripe's hosted page, on a rendered page and on a cached one.
    const formAction = async () => {
      const answers = [await fetchPage("/tarifs"), await fetchPage("/tarifs")];
      expect(answers[1]?.headers.get("x-page-cache")).toBe("hit");
      return answers.map(
        (answer) =>
          /form-action ([^;]*)/.exec(answer.headers.get("content-security-policy") ?? "")?.[1],
      );
    };
    expect(await formAction()).toEqual([
      "'self' https://checkout.stripe.com",
      "'self' https://checkout.stripe.com",
    ]);
    const kept = await postForm(
      PAGE,
      { intent: "remove-keys", id: "stripe" },
      { cookie: admin.cookie() },
    );
    expect(flashedToast(kept.headers)?.title).toBe("Clés conservées");
    expect(await save(await page(), { card: false }).then((answer) => answer.status)).toBe(302);
    // Cards off, keys kept: an order placed by card before is still paid on Stripe's page.
    expect(await formAction()).toEqual([
      "'self' https://checkout.stripe.com",
      "'self' https://checkout.stripe.com",
    ]);

    // A buyer who ordered by card before cards were turned off may still pay with these keys.
    const [awaiting] = await serverDatabase()
      .insert(orders)
      .values({
        kind: "voucher",
        amountCents: 5_000,
        method: "card",
        buyerName: "Camille Martin",
        buyerEmail: "camille@example.test",
        termsAcceptedAt: new Date(),
        rulesSnapshot: {},
        tokenHash: randomBytes(32).toString("hex"),
        idempotencyKey: randomUUID(),
        payBy: new Date("2026-12-03T13:30:00Z"),
      })
      .returning();
    const refused = await postForm(
      PAGE,
      { intent: "remove-keys", id: "stripe" },
      { cookie: admin.cookie() },
    );
    expect(flashedToast(refused.headers)).toMatchObject({
      title: "Clés conservées",
      description:
        "Des paiements par carte sont en cours (1) : retirez les clés quand ils seront terminés, après le 3 décembre 2026 à 14:32.",
    });
    await serverDatabase()
      .update(orders)
      .set({ status: "expired" })
      .where(eq(orders.id, awaiting?.id ?? ""));

    const removed = await postForm(
      PAGE,
      { intent: "remove-keys", id: "stripe" },
      { cookie: admin.cookie() },
    );
    expect(flashedToast(removed.headers)?.title).toBe("Clés Stripe retirées");
    expect(textOf((await page()).document.body)).toContain("Aucune clé enregistrée");
    expect(await formAction()).toEqual(["'self'", "'self'"]);

    // The history's version with cards on, keys gone: refused as its save would be, nothing changed.
    const [withCards] = await serverDatabase()
      .select({ id: contentRevisions.id })
      .from(contentRevisions)
      .where(
        and(
          eq(contentRevisions.subject, "document:payments"),
          sql`${contentRevisions.data}->>'card' = 'true'`,
        ),
      )
      .orderBy(desc(contentRevisions.createdAt))
      .limit(1);
    const restored = await postForm(
      PAGE,
      { intent: "restore", revision: withCards?.id ?? "" },
      { cookie: admin.cookie() },
    );
    expect(flashedToast(restored.headers)).toEqual({
      type: "error",
      title: "Version non restaurée",
      description:
        "Enregistrez d'abord vos clés Stripe, plus bas sur cette page. La version en ligne n'a pas changé.",
    });
    expect((await storedDocument("payments")).card).toBe(false);
  });
});
