import { describe, expect, it } from "vitest";
import { EXPECTED_REFUSALS, signIn, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";

/*
 * The login form where a person uses it: its checks before posting, the focus, the toasts. What the server
 * answers (refusals, limits, cookies, redirects) is tests/http/admin-login.
 */

const { openPage } = useBrowser();
const admin = useAdmin();

describe("admin sign-in", () => {
  it("says what is wrong at the field, focused, before posting; a wrong password in the form and a toast", async () => {
    const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    expect(await axeViolations(page)).toEqual([]);
    const alert = page.locator("form [role=alert]");
    const submit = () => page.getByRole("button", { name: "Se connecter" }).click();
    const focused = () => page.evaluate(() => document.activeElement?.id);

    // The first validation failure under 'Erreur de validation'.
    await page.getByLabel("Email").fill("pas-un-email");
    await page.getByLabel("Mot de passe").fill("123");
    await submit();
    await expect.poll(() => alert.textContent()).toBe("Erreur de validationEmail invalide");
    // The message is at the field too, and the focus is on the first field to correct.
    expect(await page.locator("#champ-email-erreur").textContent()).toBe("Email invalide");
    expect(await focused()).toBe("champ-email");
    expect(await page.getByText("Une erreur est survenue").count()).toBe(0);
    await page.getByLabel("Email").fill(admin.account().email);
    await submit();
    await expect
      .poll(() => alert.textContent())
      .toBe("Erreur de validationLe mot de passe doit contenir au moins 6 caractères");
    expect(await focused()).toBe("champ-password");
    expect(page.url()).toMatch(/\/admin\/login$/);

    // An address of more than 255 characters.
    await page.getByLabel("Email").fill(`${"a".repeat(10_000)}@example.com`);
    await page.getByLabel("Mot de passe").fill("motdepasse");
    await submit();
    await expect.poll(() => alert.textContent()).toBe("Erreur de validationEmail trop long");
    expect(await page.locator("#champ-email-erreur").textContent()).toBe("Email trop long");
    expect(await focused()).toBe("champ-email");

    // A wrong password: the server's refusal, in the form and in a toast.
    await page.getByLabel("Email").fill(admin.account().email);
    await page.getByLabel("Mot de passe").fill("mauvais-mot-de-passe");
    await submit();
    await expect
      .poll(() => alert.textContent())
      .toBe("Erreur de connexionEmail ou mot de passe incorrect");
    await expect
      .poll(() => page.getByText("Email ou mot de passe incorrect").count())
      .toBeGreaterThanOrEqual(2);
  });

  it("signs an administrator in: toast, dashboard; 'Déconnexion' leads back to the login page", async () => {
    const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    await signIn(page, admin.account());
    await expect.poll(() => page.getByText("Connexion réussie").count()).toBe(1);
    await expect
      .poll(() => page.getByText("Redirection vers le tableau de bord...").count())
      .toBe(1);
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Déconnexion" }).click();
    await page.waitForURL(/\/admin\/login$/);
    await page.getByRole("button", { name: "Se connecter" }).waitFor();
  });
});
