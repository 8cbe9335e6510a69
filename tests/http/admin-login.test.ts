import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rateLimits, sessions, users } from "../../app/server/db/schema";
import { clearSignInLimits, createAccount, deleteAccount, useAdmin } from "../support/accounts";
import { flashedToast, postLogin } from "../support/admin-forms";
import { cookieAfter } from "../support/auth";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

/*
 * What the server answers to the login form: refusals, limits, cookies, redirects. The form in a browser
 * (its checks before posting, the focus, the toast) is tests/e2e/admin-login. Every request of the tests
 * comes from 127.0.0.1, one client for the per-client limit: this file runs a server of its own, so that
 * its limits neither stop nor are cleared by another file's sign-ins.
 */

useOwnServer();
const admin = useAdmin();
const member = useAdmin("user");

/** The form's message (`form [role=alert]`) as the page shows it. */
const formAlert = (answer: FetchedPage) =>
  textOf(answer.document.querySelector("form [role=alert]"));

describe("the login form, answered by the server", () => {
  it("refuses what the page refuses: an invalid address, a short password, an address of more than 255 characters", async () => {
    const invalid = await postLogin("pas-un-email", "123");
    expect(invalid.status).toBe(400);
    expect(formAlert(invalid)).toBe("Erreur de validationEmail invalide");
    expect(textOf(invalid.document.querySelector("#champ-email-erreur"))).toBe("Email invalide");

    const short = await postLogin(admin.account().email, "123");
    expect(short.status).toBe(400);
    expect(formAlert(short)).toBe(
      "Erreur de validationLe mot de passe doit contenir au moins 6 caractères",
    );

    const long = await postLogin(`${"a".repeat(10_000)}@example.com`, "motdepasse");
    expect(long.status).toBe(400);
    expect(formAlert(long)).toBe("Erreur de validationEmail trop long");
    expect(textOf(long.document.querySelector("#champ-email-erreur"))).toBe("Email trop long");
  });

  it("refuses a wrong password in the form, keeping the address; the right one leads to the dashboard (without JavaScript)", async () => {
    const { email, password } = admin.account();
    const wrong = await postLogin(email, "mauvais-mot-de-passe");
    expect(wrong.status).toBe(401);
    expect(formAlert(wrong)).toBe("Erreur de connexionEmail ou mot de passe incorrect");
    expect(wrong.document.querySelector("input[name=email]")?.getAttribute("value")).toBe(email);

    const right = await postLogin(email, password);
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/admin/dashboard");
  });

  it("signs an administrator in: an HttpOnly, SameSite=Lax session, a toast, the login page leading to the dashboard; logging out ends the session", async () => {
    const signedIn = await postLogin(admin.account().email, admin.account().password);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/admin/dashboard");
    const session = signedIn.headers
      .getSetCookie()
      .find((cookie) => /^[^=]*session_token=/.test(cookie));
    expect(session).toMatch(/; HttpOnly/i);
    expect(session).toMatch(/; SameSite=Lax/i);
    expect(flashedToast(signedIn.headers)).toEqual({
      type: "success",
      title: "Connexion réussie",
      description: "Redirection vers le tableau de bord...",
    });
    const cookie = cookieAfter(signedIn.headers);

    const login = await fetchPage("/admin/login", { cookie });
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/admin/dashboard");
    expect((await fetchPage("/admin/dashboard", { cookie })).status).toBe(200);

    const loggedOut = await postForm("/admin/logout", {}, { cookie });
    expect(loggedOut.status).toBe(302);
    expect(loggedOut.headers.get("location")).toBe("/admin/login");
    // The session is over on the server, not only forgotten by the browser.
    const after = await fetchPage("/admin/dashboard", { cookie });
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toBe("/admin/login");
  });

  it("renews the session and its cookie while the administrator keeps working", async () => {
    const [user] = await serverDatabase()
      .select()
      .from(users)
      .where(eq(users.email, admin.account().email));
    await serverDatabase()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000) })
      .where(eq(sessions.userId, user?.id ?? ""));
    const response = await fetchPage("/admin/dashboard", { cookie: admin.cookie() });
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
  });

  it("does not let a signed-in user who is not an administrator in", async () => {
    const refused = await postLogin(member.account().email, member.account().password);
    expect(refused.status).toBe(403);
    expect(formAlert(refused)).toContain("Ce compte n'a pas accès à l'administration.");
    const dashboard = await fetchPage("/admin/dashboard", {
      cookie: cookieAfter(refused.headers),
    });
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get("location")).toBe("/admin/login");
  });
});

describe("the sign-in limits", () => {
  it("stop brute force per address, then accept the right password once the window has passed", async () => {
    const { email, password } = admin.account();
    await clearSignInLimits(admin.account());
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await postLogin(email, `mauvais-${attempt}`)).status).toBe(401);
    }
    // The sixth attempt is refused even with the right password.
    const blocked = await postLogin(email, password);
    expect(blocked.status).toBe(429);
    expect(formAlert(blocked)).toMatch(
      /^Trop de tentativesTrop de tentatives de connexion\. Veuillez réessayer dans \d+ minutes?\.$/,
    );

    // The window ends (moved into the past rather than waited for).
    await serverDatabase()
      .update(rateLimits)
      .set({ resetAt: new Date(Date.now() - 1000) })
      .where(like(rateLimits.key, "admin-login:%"));
    const allowed = await postLogin(email, password);
    expect(allowed.status).toBe(302);
    expect(allowed.headers.get("location")).toBe("/admin/dashboard");
    const left = await serverDatabase()
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `admin-login:email:${email}`));
    expect(left).toEqual([]);
  });

  it("let the owner's known browser in while a stranger has used up the account's attempts", async () => {
    const { email, password } = admin.account();
    await clearSignInLimits(admin.account());
    const other = await createAccount("admin");

    // The owner signs in once from her browser: it receives a device cookie, then she signs out.
    const owner = await postLogin(email, password);
    expect(owner.status).toBe(302);
    const deviceCookie = owner.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("studio.device="));
    expect(deviceCookie).toMatch(/; HttpOnly/i);
    expect(deviceCookie).toMatch(/; SameSite=Lax/i);
    expect(deviceCookie).toMatch(/; Path=\/admin(;|$)/i);
    const device = deviceCookie?.split(";")[0] ?? "";
    await postForm("/admin/logout", {}, { cookie: cookieAfter(owner.headers) });

    // A stranger uses up the attempts of browsers the account does not know…
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await postLogin(email, `mauvais-${attempt}`)).status).toBe(401);
    }
    expect((await postLogin(email, password)).status).toBe(429);

    // …and cannot make a device cookie: a changed signature, another account's valid cookie, a changed
    // nonce are all treated as an unknown browser.
    const [nonce, issued, mac] = device.slice("studio.device=".length).split(".");
    const otherSignIn = await postLogin(other.email, other.password);
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
      expect((await postLogin(email, password, cookie)).status, cookie).toBe(429);
    }

    // The owner's browser still signs in, with the right password…
    const known = await postLogin(email, password, device);
    expect(known.status).toBe(302);
    expect(known.headers.get("location")).toBe("/admin/dashboard");
    // …while the stranger is still stopped.
    expect((await postLogin(email, password)).status).toBe(429);

    await deleteAccount(other);
  });

  it("stop brute force from one client across addresses", async () => {
    await clearSignInLimits(admin.account());
    await serverDatabase()
      .insert(rateLimits)
      .values({
        key: "admin-login:client:127.0.0.1",
        count: 30,
        resetAt: new Date(Date.now() + 600_000),
      });
    const blocked = await postLogin(admin.account().email, admin.account().password);
    expect(blocked.status).toBe(429);
    expect(formAlert(blocked)).toContain("Trop de tentatives");
  });
});
