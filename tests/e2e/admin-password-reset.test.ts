import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { rateLimits, users, verifications } from "../../app/server/db/schema";
import { mailsTo, resetLink } from "../support/smtp-capture";
import { EXPECTED_REFUSALS, signIn, signedInPage, waitForToastsToClose } from "./support/admin";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  sessionCookieHeader,
  type TestAccount,
} from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";

const { openPage, baseUrl } = useBrowser();
const mailboxUrl = inject("mailboxUrl");

let admin: TestAccount;
const invited = `e2e-invite-${randomBytes(5).toString("hex")}@example.com`;

async function clearResetLimits() {
  await serverDatabase().delete(rateLimits).where(like(rateLimits.key, "admin-reset%"));
}

beforeAll(async () => {
  await clearSignInLimits();
  await clearResetLimits();
  admin = await createAccount("admin");
});
afterAll(async () => {
  await deleteAccount(admin);
  await serverDatabase().delete(users).where(eq(users.email, invited));
  await clearResetLimits();
});

/** Waits for the `count`-th e-mail to `address` and returns the reset link it holds. */
async function linkInMail(address: string, count: number): Promise<string> {
  await expect.poll(async () => (await mailsTo(mailboxUrl, address)).length).toBe(count);
  const mails = await mailsTo(mailboxUrl, address);
  return resetLink(mails[count - 1]?.text ?? "");
}

async function requestLink(page: Page, email: string) {
  await page.goto("/admin/mot-de-passe-oublie");
  await page.getByLabel("Email").fill(email);
  const [response] = await Promise.all([
    page.waitForResponse((response) => response.request().method() === "POST"),
    page.getByRole("button", { name: "Recevoir un lien" }).click(),
  ]);
  return response.status();
}

const SENT =
  "Demande enregistréeSi cette adresse est celle d'un compte administrateur, un e-mail vient de lui être envoyé avec un lien pour choisir un nouveau mot de passe. Le lien est valable une heure et ne fonctionne qu'une fois.";

describe("forgotten password", () => {
  it("e-mails a single-use link, answers the same for an unknown address, and signs out other sessions", async () => {
    const otherSession = await sessionCookieHeader(admin);
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

    // The same answer for an unknown address and for the administrator's.
    const unknown = `inconnu-${randomBytes(4).toString("hex")}@example.com`;
    expect(await requestLink(page, unknown)).toBe(200);
    await expect.poll(() => page.locator("[role=status]").textContent()).toBe(SENT);
    expect(await requestLink(page, admin.email.toUpperCase())).toBe(200);
    await expect.poll(() => page.locator("[role=status]").textContent()).toBe(SENT);
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    const link = await linkInMail(admin.email, 1);
    expect(link.startsWith(`${baseUrl}/admin/reinitialiser-mot-de-passe?token=`)).toBe(true);
    expect(await mailsTo(mailboxUrl, unknown)).toEqual([]);

    // The link opens a form with the login's rule for passwords.
    await page.goto(link);
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

    // The session opened before the reset is over; the new password works, the old one no longer.
    const before = await fetch(`${baseUrl}/admin/dashboard`, {
      headers: { cookie: otherSession },
      redirect: "manual",
    });
    expect(before.headers.get("location")).toBe("/admin/login");
    const oldPassword = await fetch(`${baseUrl}/admin/login`, {
      method: "POST",
      body: new URLSearchParams({ email: admin.email, password: admin.password }),
      redirect: "manual",
    });
    expect(oldPassword.status).toBe(401);
    admin.password = newPassword;
    await clearSignInLimits(admin);
    await waitForToastsToClose(page);
    await signIn(page, admin);

    // The link works once.
    await page.goto(link);
    await expect
      .poll(() => page.locator("[role=alert]").first().textContent())
      .toContain("Ce lien n'est plus valable");
    await clearSignInLimits(admin);
  });

  it("refuses a link after its hour, and limits requests per client", async () => {
    await clearResetLimits();
    const page = await openPage("/admin/mot-de-passe-oublie", { allowConsole: EXPECTED_REFUSALS });
    const sent = (await mailsTo(mailboxUrl, admin.email)).length;
    expect(await requestLink(page, admin.email)).toBe(200);
    const link = await linkInMail(admin.email, sent + 1);
    const [user] = await serverDatabase().select().from(users).where(eq(users.email, admin.email));
    await serverDatabase()
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.value, user?.id ?? ""));
    await page.goto(link);
    await expect
      .poll(() => page.locator("[role=alert]").first().textContent())
      .toContain("Ce lien n'est plus valable");

    // Five requests per client per quarter of an hour (one made above).
    for (let request = 2; request <= 5; request++) {
      expect(await requestLink(page, `x${request}-${admin.email}`)).toBe(200);
    }
    expect(await requestLink(page, admin.email)).toBe(429);
    await expect
      .poll(() => page.locator("form [role=alert]").textContent())
      .toContain("Trop de tentatives");
    await clearResetLimits();
  });
});

describe("inviting an administrator", () => {
  it("creates an administrator without a password, e-mails a link to choose one, then lets them in", async () => {
    const page = await signedInPage(openPage, admin, "/admin/administrateurs");
    expect(await page.getByRole("heading", { name: "Administrateurs", level: 1 }).count()).toBe(1);
    expect(await page.getByRole("cell", { name: `${admin.email} (vous)` }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Email").fill("pas-un-email");
    await page.getByRole("button", { name: "Envoyer l'invitation" }).click();
    await expect
      .poll(() => page.locator("#champ-email-erreur").textContent())
      .toBe("Email invalide");

    await page.getByLabel("Email").fill(admin.email);
    await page.getByRole("button", { name: "Envoyer l'invitation" }).click();
    await expect
      .poll(() => page.locator("#champ-email-erreur").textContent())
      .toBe("Un compte existe déjà pour cette adresse");

    await page.getByLabel("Email").fill(invited);
    await page.getByRole("button", { name: "Envoyer l'invitation" }).click();
    await expect.poll(() => page.getByText("Invitation envoyée").count()).toBe(1);
    await expect
      .poll(() => page.getByRole("row", { name: new RegExp(invited) }).textContent())
      .toContain("Invitation en attente");
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    const [user] = await serverDatabase().select().from(users).where(eq(users.email, invited));
    expect(user?.role).toBe("admin");
    // No password yet: nothing opens the account.
    const guess = await fetch(`${baseUrl}/admin/login`, {
      method: "POST",
      body: new URLSearchParams({ email: invited, password: "motdepasse" }),
      redirect: "manual",
    });
    expect(guess.status).toBe(401);

    const link = await linkInMail(invited, 1);
    const mail = (await mailsTo(mailboxUrl, invited))[0];
    expect(mail?.subject).toContain("Invitation à l'administration du site");
    expect(mail?.text).toContain(`${admin.email} vous invite à administrer le site`);

    const newcomer = await openPage(link, { allowConsole: EXPECTED_REFUSALS });
    const password = `bienvenue-${randomBytes(4).toString("hex")}`;
    await newcomer.getByLabel("Nouveau mot de passe").fill(password);
    await newcomer.getByLabel("Confirmez le mot de passe").fill(password);
    await newcomer.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
    await newcomer.waitForURL(/\/admin\/login$/);
    await waitForToastsToClose(newcomer);
    await signIn(newcomer, { email: invited, password, role: "admin" });
    await clearSignInLimits({ email: invited, password, role: "admin" });
  });
});
