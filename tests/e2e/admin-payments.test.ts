import { describe, expect, it } from "vitest";
import { useAdmin } from "../support/accounts";
import { storedDocument, useDocumentsRestored } from "../support/admin-content";
import { signedInPage } from "./support/admin";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * /admin/reglages/paiement in the browser (decision 0166): the page and its refusals pass axe, and a
 * refusal puts the cursor on the first field to correct. What the server answers to each post is
 * tests/http/admin-payments.
 */

const { openPage } = useBrowser();
const admin = useAdmin();
useDocumentsRestored(["payments"] as const);

describe("/admin/reglages/paiement", () => {
  it("refuses cards without keys at the box itself, the cursor on it, and passes axe", async () => {
    const page = await signedInPage(openPage, admin.account(), "/admin/reglages/paiement");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Carte bancaire").check();
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    const card = page.getByLabel("Carte bancaire");
    await expect.poll(() => card.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => card.evaluate((box) => box === document.activeElement)).toBe(true);
    expect(await page.getByText("Enregistrez d'abord vos clés Stripe").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect((await storedDocument("payments")).card).toBe(false);
  });
});
