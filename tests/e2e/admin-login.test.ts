import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimits, sessions, users } from "../../app/server/db/schema";
import { EXPECTED_REFUSALS, signIn, waitForToastsToClose } from "./support/admin";
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

let admin: TestAccount;
let member: TestAccount;

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
  member = await createAccount("user");
});
afterAll(async () => {
  await deleteAccount(admin);
  await deleteAccount(member);
});

describe("admin sign-in", () => {
  it("shows the first validation failure under 'Erreur de validation'", async () => {
    const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Email").fill("pas-un-email");
    await page.getByLabel("Mot de passe").fill("123");
    await page.getByRole("button", { name: "Se connecter" }).click();
    const alert = page.locator("form [role=alert]");
    await expect.poll(() => alert.textContent()).toBe("Erreur de validationEmail invalide");
    // The message is at the field too, and the focus is on the first field to correct.
    expect(await page.locator("#champ-email-erreur").textContent()).toBe("Email invalide");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("champ-email");
    expect(await page.getByText("Une erreur est survenue").count()).toBe(0);
    await page.getByLabel("Email").fill(admin.email);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect
      .poll(() => alert.textContent())
      .toBe("Erreur de validationLe mot de passe doit contenir au moins 6 caractères");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("champ-password");
    expect(page.url()).toMatch(/\/admin\/login$/);
  });

  it("refuses an address of more than 255 characters with 'Email trop long', in the page and on the server", async () => {
    const long = `${"a".repeat(10_000)}@example.com`;
    const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    await page.getByLabel("Email").fill(long);
    await page.getByLabel("Mot de passe").fill("motdepasse");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect
      .poll(() => page.locator("form [role=alert]").textContent())
      .toBe("Erreur de validationEmail trop long");
    expect(await page.locator("#champ-email-erreur").textContent()).toBe("Email trop long");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("champ-email");

    const response = await fetch(`${baseUrl}/admin/login`, {
      method: "POST",
      body: new URLSearchParams({ email: long, password: "motdepasse" }),
      redirect: "manual",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Email trop long");
  });

  it("refuses a wrong password with 'Erreur de connexion' / 'Email ou mot de passe incorrect'", async () => {
    const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Mot de passe").fill("mauvais-mot-de-passe");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect
      .poll(() => page.locator("form [role=alert]").textContent())
      .toBe("Erreur de connexionEmail ou mot de passe incorrect");
    await expect
      .poll(() => page.getByText("Email ou mot de passe incorrect").count())
      .toBeGreaterThanOrEqual(2); // in the form and in the toast
    await clearSignInLimits(admin, member);
  });

  it("signs an administrator in: toast, dashboard; the login page then leads to the dashboard; logout", async () => {
    const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    await signIn(page, admin);
    await expect.poll(() => page.getByText("Connexion réussie").count()).toBe(1);
    await expect
      .poll(() => page.getByText("Redirection vers le tableau de bord...").count())
      .toBe(1);
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    const cookies = await page.context().cookies();
    const session = cookies.find((cookie) => cookie.name.includes("session_token"));
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");

    await page.goto("/admin/login");
    await page.waitForURL(/\/admin\/dashboard$/);

    await page.getByRole("button", { name: "Déconnexion" }).click();
    await page.waitForURL(/\/admin\/login$/);
    await page.goto("/admin/dashboard");
    await page.waitForURL(/\/admin\/login$/);
  });

  it("renews the session and its cookie while the administrator keeps working", async () => {
    const cookie = await sessionCookieHeader(admin);
    const [user] = await serverDatabase().select().from(users).where(eq(users.email, admin.email));
    await serverDatabase()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000) })
      .where(eq(sessions.userId, user?.id ?? ""));
    const response = await fetch(`${baseUrl}/admin/dashboard`, { headers: { cookie } });
    expect(response.status).toBe(200);
    const renewed = response.headers
      .getSetCookie()
      .find((value) => value.includes("session_token="));
    expect(renewed).toMatch(/Max-Age=604800/);
    expect(renewed).toMatch(/HttpOnly/);
    const [session] = await serverDatabase()
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user?.id ?? ""));
    expect(session?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 60 * 60 * 1000);
    await clearSignInLimits(admin, member);
  });

  it("works without JavaScript", async () => {
    const page = await openPage("/admin/login", {
      javaScriptEnabled: false,
      allowConsole: EXPECTED_REFUSALS,
    });
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Mot de passe").fill("mauvais-mot-de-passe");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.waitForLoadState();
    expect(await page.locator("form [role=alert]").textContent()).toBe(
      "Erreur de connexionEmail ou mot de passe incorrect",
    );
    await page.getByLabel("Mot de passe").fill(admin.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.waitForURL(/\/admin\/dashboard$/);
    await clearSignInLimits(admin, member);
  });

  it("does not let a signed-in user who is not an administrator in", async () => {
    const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    await page.getByLabel("Email").fill(member.email);
    await page.getByLabel("Mot de passe").fill(member.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect
      .poll(() => page.locator("form [role=alert]").textContent())
      .toContain("Ce compte n'a pas accès à l'administration.");
    await page.goto("/admin/dashboard");
    await page.waitForURL(/\/admin\/login$/);
  });

  it("stops brute force per address, then accepts the right password once the window has passed", async () => {
    await clearSignInLimits(admin, member);
    const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    const submit = async (password: string) => {
      await page.getByLabel("Email").fill(admin.email);
      await page.getByLabel("Mot de passe").fill(password);
      const [response] = await Promise.all([
        page.waitForResponse((response) => response.request().method() === "POST"),
        page.getByRole("button", { name: "Se connecter" }).click(),
      ]);
      return response.status();
    };
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await submit(`mauvais-${attempt}`)).toBe(401);
    }
    // The sixth attempt is refused even with the right password.
    expect(await submit(admin.password)).toBe(429);
    await expect
      .poll(() => page.locator("form [role=alert]").textContent())
      .toMatch(
        /^Trop de tentativesTrop de tentatives de connexion\. Veuillez réessayer dans \d+ minutes?\.$/,
      );
    expect(page.url()).toMatch(/\/admin\/login$/);

    // The window ends (moved into the past rather than waited for).
    await serverDatabase()
      .update(rateLimits)
      .set({ resetAt: new Date(Date.now() - 1000) })
      .where(like(rateLimits.key, "admin-login:%"));
    await signIn(page, admin);
    const left = await serverDatabase()
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `admin-login:email:${admin.email}`));
    expect(left).toEqual([]);
    await clearSignInLimits(admin, member);
  });

  it("lets the owner's known browser in while a stranger has used up the account's attempts", async () => {
    await clearSignInLimits(admin, member);
    const other = await createAccount("admin");
    const post = async (email: string, password: string, cookie = "") =>
      fetch(`${baseUrl}/admin/login`, {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams({ email, password }),
        redirect: "manual",
      });

    // The owner signs in once from her browser: it receives a device cookie, then she signs out.
    const owner = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    await signIn(owner, admin);
    const device = (await owner.context().cookies()).find((c) => c.name === "studio.device");
    expect(device?.httpOnly).toBe(true);
    expect(device?.sameSite).toBe("Lax");
    expect(device?.path).toBe("/admin");
    await waitForToastsToClose(owner);
    await owner.getByRole("button", { name: "Déconnexion" }).click();
    await owner.waitForURL(/\/admin\/login$/);

    // A stranger uses up the attempts of browsers the account does not know…
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await post(admin.email, `mauvais-${attempt}`)).status).toBe(401);
    }
    expect((await post(admin.email, admin.password)).status).toBe(429);

    // …and cannot make a device cookie: a changed signature, another account's valid cookie, a changed
    // nonce are all treated as an unknown browser.
    const [nonce, issued, mac] = (device?.value ?? "").split(".");
    const otherSignIn = await post(other.email, other.password);
    const otherDevice = otherSignIn.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("studio.device="))
      ?.split(";")[0];
    expect(otherDevice).toBeDefined();
    const forged = [
      `studio.device=${nonce}.${issued}.${"A".repeat(mac?.length ?? 43)}`,
      otherDevice ?? "",
      `studio.device=${"B".repeat(22)}.${issued}.${mac}`,
    ];
    for (const cookie of forged) {
      expect((await post(admin.email, admin.password, cookie)).status, cookie).toBe(429);
    }

    // The owner's browser still signs in, with the right password.
    // Only the per-client counters are cleared (all test requests share 127.0.0.1), not the account's.
    await clearSignInLimits();
    await signIn(owner, admin);
    // The stranger is still stopped.
    expect((await post(admin.email, admin.password)).status).toBe(429);

    await deleteAccount(other);
    await clearSignInLimits(admin, member);
  });

  it("stops brute force from one client across addresses", async () => {
    const page = await openPage("/admin/login", { allowConsole: EXPECTED_REFUSALS });
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Mot de passe").fill(admin.password);
    // Right before the click: other files clear the sign-in counters (all e2e requests share 127.0.0.1).
    await clearSignInLimits(admin, member);
    await serverDatabase()
      .insert(rateLimits)
      .values({
        key: "admin-login:client:127.0.0.1",
        count: 30,
        resetAt: new Date(Date.now() + 600_000),
      });
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect
      .poll(() => page.locator("form [role=alert]").textContent())
      .toContain("Trop de tentatives");
    await clearSignInLimits(admin, member);
  });
});
