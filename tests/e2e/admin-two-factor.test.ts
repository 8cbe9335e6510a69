import { readFile } from "node:fs/promises";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPECTED_REFUSALS, signIn, waitForToastsToClose } from "./support/admin";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  type TestAccount,
} from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";

const { openPage } = useBrowser();
let admin: TestAccount;

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
});
afterAll(() => deleteAccount(admin));

/** The current code of the authenticator app, from the manual key shown on the page (base32). */
function totp(key: string): Promise<string> {
  const secret = new TextDecoder().decode(base32.decode(key));
  return createOTP(secret).totp();
}

async function passwordStep(page: Page) {
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Mot de passe").fill(admin.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await page.waitForURL(/\/admin\/verification$/);
}

describe("two-factor sign-in (TOTP)", () => {
  it("enrols with a QR code and a first code, then asks for a code or a backup code at sign-in", async () => {
    const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    await signIn(page, admin);
    await waitForToastsToClose(page);
    await page.goto("/admin/securite");

    await page.getByLabel("Mot de passe actuel").fill("mauvais-mot-de-passe");
    await page.getByRole("button", { name: "Activer la double authentification" }).click();
    await expect
      .poll(() => page.locator("main [role=alert]").textContent())
      .toContain("Mot de passe incorrect");

    await page.getByLabel("Mot de passe actuel").fill(admin.password);
    await page.getByRole("button", { name: "Activer la double authentification" }).click();
    const qr = page.getByAltText("QR code de configuration de l'application d'authentification");
    await qr.waitFor();
    expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
    // The manual key is shown in groups of 4 characters; the code field has the focus.
    const shownKey = (await page.getByTestId("cle-totp").textContent()) ?? "";
    expect(shownKey).toMatch(/^[A-Z2-7=]{1,4}( [A-Z2-7=]{1,4})+$/);
    const key = shownKey.replace(/ /g, "");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("name")))
      .toBe("code");
    const listed = () =>
      page.getByRole("list", { name: "Codes de secours" }).locator("li").allTextContents();
    const backupCodes = await listed();
    expect(backupCodes).toHaveLength(10);
    for (const code of backupCodes) {
      // No character that reads like another: 0/O, 1/I/l.
      expect(code).toMatch(/^[2-9A-HJ-NP-Z]{5}-[2-9A-HJ-NP-Z]{5}$/);
    }
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    // The codes can be downloaded as a text file.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Télécharger (.txt)" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("codes-de-secours.txt");
    const file = await readFile((await download.path()) ?? "", "utf8");
    for (const code of backupCodes) expect(file).toContain(code);
    expect(await page.getByRole("button", { name: "Copier les codes" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Imprimer" }).count()).toBe(1);

    // Without confirming the codes were saved, two-factor cannot be turned on, even with a right code.
    await page.getByLabel("Code de vérification").fill(await totp(key));
    await page.getByRole("button", { name: "Activer", exact: true }).click();
    await expect
      .poll(() => page.locator("main [role=alert]").textContent())
      .toContain("Confirmez que vous avez enregistré vos codes de secours");
    expect(await listed()).toEqual(backupCodes);

    // A wrong code keeps the same codes (and key) on screen, with the message at the field.
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
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    // The right code then turns two-factor on.
    await page.getByLabel("J'ai enregistré mes codes de secours en lieu sûr").check();
    await page.getByLabel("Code de vérification").fill(await totp(key));
    await page.getByRole("button", { name: "Activer", exact: true }).click();
    await expect.poll(() => page.getByText("Double authentification activée").count()).toBe(1);
    await expect.poll(() => page.getByText("activée", { exact: true }).count()).toBe(1);

    // Sign-in now needs a code.
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await page.waitForURL(/\/admin\/login$/);
    await passwordStep(page);
    await page.goto("/admin/dashboard");
    await page.waitForURL(/\/admin\/login$/); // a password alone opens nothing
    await passwordStep(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Code de vérification").fill("123456");
    await page.getByRole("button", { name: "Vérifier" }).click();
    await expect
      .poll(() => page.locator("form [role=alert]").textContent())
      .toContain("Code invalide");
    await page.getByLabel("Code de vérification").fill(await totp(key));
    await page.getByRole("button", { name: "Vérifier" }).click();
    await page.waitForURL(/\/admin\/dashboard$/);
    await expect.poll(() => page.getByText("Connexion réussie").count()).toBe(1);

    // A backup code works once.
    await page.getByRole("button", { name: "Déconnexion" }).click();
    await page.waitForURL(/\/admin\/login$/);
    await passwordStep(page);
    // Typed in lower case and without its dash, it is still recognised.
    await page
      .getByLabel("Code de vérification")
      .fill((backupCodes[0] ?? "").replace("-", "").toLowerCase());
    await page.getByRole("button", { name: "Vérifier" }).click();
    await page.waitForURL(/\/admin\/dashboard$/);

    // Disabling requires the password.
    await page.goto("/admin/securite");
    await page.getByLabel("Mot de passe actuel").fill("mauvais-mot-de-passe");
    await page.getByRole("button", { name: "Désactiver la double authentification" }).click();
    await expect
      .poll(() => page.locator("main [role=alert]").textContent())
      .toContain("Mot de passe incorrect");
    await page.getByLabel("Mot de passe actuel").fill(admin.password);
    await page.getByRole("button", { name: "Désactiver la double authentification" }).click();
    await expect.poll(() => page.getByText("Double authentification désactivée").count()).toBe(1);

    await page.getByRole("button", { name: "Déconnexion" }).click();
    await page.waitForURL(/\/admin\/login$/);
    await signIn(page, admin);
    await clearSignInLimits(admin);
    // One whole journey (enrol, sign in with a code, then a backup code, disable): on a busy machine it
    // takes longer than the default minute.
  }, 180_000);
});
