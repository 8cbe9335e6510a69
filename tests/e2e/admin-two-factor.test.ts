import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  EXPECTED_REFUSALS,
  signIn,
  type TestAccount,
  waitForToastsToClose,
} from "./support/admin";
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
    const key = (await page.getByTestId("cle-totp").textContent()) ?? "";
    expect(key).toMatch(/^[A-Z2-7]+=*$/);
    const backupCodes = await page
      .getByRole("list", { name: "Codes de secours" })
      .locator("li")
      .allTextContents();
    expect(backupCodes).toHaveLength(10);
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Code de vérification").fill("000000");
    await page.getByRole("button", { name: "Activer", exact: true }).click();
    await expect
      .poll(() => page.locator("main [role=alert]").textContent())
      .toContain("Code invalide");
    // The backup codes are shown once only.
    expect(await page.getByRole("list", { name: "Codes de secours" }).count()).toBe(0);

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
    await page.getByLabel("Code de vérification").fill(backupCodes[0] ?? "");
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
  });
});
