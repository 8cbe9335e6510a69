import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EXPECTED_REFUSALS, signIn, signedInPage, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { linkInMail, RESET_REQUESTED, useInvitation } from "../support/password-reset";

/*
 * « Mot de passe oublié ? », the reset link's form and the invitation form where a person uses them: their
 * checks before posting, the focus, what the page shows. What the server does (the same answer for any
 * address, sessions ended, links that expire and work once, limits) is tests/http/admin-password-reset.
 */

const { openPage } = useBrowser();
const admin = useAdmin();
const { invited } = useInvitation();

describe("forgotten password", () => {
  it("asks for a link from the login page, chooses a new password through it, then signs in with it", async () => {
    const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    await page.getByRole("link", { name: "Mot de passe oublié ?" }).click();
    await page.waitForURL(/\/admin\/mot-de-passe-oublie$/);
    expect(await axeViolations(page)).toEqual([]);

    // A bad address is refused at the field, in French.
    await page.getByLabel("Email").fill("pas-un-email");
    await page.getByRole("button", { name: "Recevoir un lien" }).click();
    await expect
      .poll(() => page.locator("#champ-email-erreur").textContent())
      .toBe("Email invalide");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("champ-email");

    await page.getByLabel("Email").fill(admin.account().email);
    await page.getByRole("button", { name: "Recevoir un lien" }).click();
    await expect.poll(() => page.locator("[role=status]").textContent()).toBe(RESET_REQUESTED);
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    // The link opens a form with the login's rule for passwords.
    await page.goto(await linkInMail(admin.account().email, 1));
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Nouveau mot de passe").fill("123");
    await page.getByLabel("Confirmez le mot de passe").fill("123");
    await page.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
    await expect
      .poll(() => page.locator("#champ-password-erreur").textContent())
      .toBe("Le mot de passe doit contenir au moins 6 caractères");
    const newPassword = `nouveau-${randomBytes(4).toString("hex")}`;
    await page.getByLabel("Nouveau mot de passe").fill(newPassword);
    await page.getByLabel("Confirmez le mot de passe").fill(`${newPassword}x`);
    await page.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
    await expect
      .poll(() => page.locator("#champ-confirmation-erreur").textContent())
      .toBe("Les deux mots de passe ne correspondent pas");
    await page.getByLabel("Confirmez le mot de passe").fill(newPassword);
    await page.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
    await page.waitForURL(/\/admin\/login$/);
    await expect.poll(() => page.getByText("Mot de passe enregistré").count()).toBe(1);

    admin.account().password = newPassword;
    await closeToasts(page);
    await signIn(page, admin.account());
  });
});

describe("inviting an administrator", () => {
  it("lists the administrators, checks the address before posting, then shows the invitation sent", async () => {
    // A new session: the reset above ended the file's first one.
    const page = await signedInPage(openPage, admin.account(), "/admin/administrateurs");
    expect(await page.getByRole("heading", { name: "Administrateurs", level: 1 }).count()).toBe(1);
    expect(await page.getByRole("cell", { name: `${admin.account().email} (vous)` }).count()).toBe(
      1,
    );
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Email").fill("pas-un-email");
    await page.getByRole("button", { name: "Envoyer l'invitation" }).click();
    await expect
      .poll(() => page.locator("#champ-email-erreur").textContent())
      .toBe("Email invalide");

    await page.getByLabel("Email").fill(invited);
    await page.getByRole("button", { name: "Envoyer l'invitation" }).click();
    await expect.poll(() => page.getByText("Invitation envoyée").count()).toBe(1);
    await expect
      .poll(() => page.getByRole("row", { name: new RegExp(invited) }).textContent())
      .toContain("Invitation en attente");
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);
  });
});
