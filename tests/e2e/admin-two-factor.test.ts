import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { EXPECTED_REFUSALS, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { totp } from "../support/two-factor";

/*
 * Two-factor sign-in (TOTP) where a person goes through it: the set-up on the security page, then the code
 * asked after the password in the login form. What the server refuses (a wrong password, codes not said to
 * be saved, a wrong code, a password alone, a used backup code) is tests/http/admin-two-factor.
 */

const { openPage } = useBrowser();
const admin = useAdmin();

async function passwordStep(page: Page) {
  await page.getByLabel("Email").fill(admin.account().email);
  await page.getByLabel("Mot de passe").fill(admin.account().password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.waitForURL(/\/admin\/verification$/);
}

describe("two-factor sign-in (TOTP)", () => {
  it("enrols with a QR code and a first code, then asks for a code at sign-in; disabling it", async () => {
    const page = await openPage("/admin/securite", {
      session: admin.session(),
      allowConsole: EXPECTED_REFUSALS,
    });
    await page.getByLabel("Mot de passe actuel").fill(admin.account().password);
    await page.getByRole("button", { name: "Activer la double authentification" }).click();
    await page
      .getByAltText("QR code de configuration de l'application d'authentification")
      .waitFor();
    const key = ((await page.getByTestId("cle-totp").textContent()) ?? "").replace(/ /g, "");
    // The code field has the focus.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("name")))
      .toBe("code");
    const listed = () =>
      page.getByRole("list", { name: "Codes de secours" }).locator("li").allTextContents();
    const backupCodes = await listed();
    expect(backupCodes).toHaveLength(10);
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    // The codes can be downloaded as a text file, copied or printed.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Télécharger (.txt)" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("codes-de-secours.txt");
    const file = await readFile((await download.path()) ?? "", "utf8");
    for (const code of backupCodes) expect(file).toContain(code);
    expect(await page.getByRole("button", { name: "Copier les codes" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Imprimer" }).count()).toBe(1);

    // A wrong code keeps the same codes (and key) on screen, with the message at the field, focused.
    await page.getByLabel("J'ai enregistré mes codes de secours en lieu sûr").check();
    await page.getByLabel("Code de vérification").fill("000000");
    await page.getByRole("button", { name: "Activer", exact: true }).click();
    await expect
      .poll(() => page.locator("main [role=alert]").textContent())
      .toContain("Code invalide");
    expect(await listed()).toEqual(backupCodes);
    expect((await page.getByTestId("cle-totp").textContent())?.replace(/ /g, "")).toBe(key);
    expect(await page.getByLabel("Code de vérification").getAttribute("aria-invalid")).toBe("true");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("name")))
      .toBe("code");
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    // The right code then turns two-factor on.
    await page.getByLabel("J'ai enregistré mes codes de secours en lieu sûr").check();
    await page.getByLabel("Code de vérification").fill(await totp(key));
    await page.getByRole("button", { name: "Activer", exact: true }).click();
    await expect.poll(() => page.getByText("Double authentification activée").count()).toBe(1);
    await expect.poll(() => page.getByText("activée", { exact: true }).count()).toBe(1);

    // Sign-in now asks for a code after the password.
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await page.waitForURL(/\/admin\/login$/);
    await passwordStep(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Code de vérification").fill(await totp(key));
    await page.getByRole("button", { name: "Vérifier" }).click();
    await page.waitForURL(/\/admin\/dashboard$/);
    await expect.poll(() => page.getByText("Connexion réussie").count()).toBe(1);

    // Disabling it, with the password.
    await page.goto("/admin/securite");
    await page.getByLabel("Mot de passe actuel").fill(admin.account().password);
    await page.getByRole("button", { name: "Désactiver la double authentification" }).click();
    await expect.poll(() => page.getByText("Double authentification désactivée").count()).toBe(1);
  });
});
