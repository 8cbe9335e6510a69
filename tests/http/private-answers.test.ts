import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  type TestAccount,
} from "../support/accounts";
import { serverBaseUrl } from "../support/server-under-test";

/**
 * Nothing personal may be kept by a shared cache (a proxy, a CDN) or the browser's back-forward cache:
 * every admin answer, the login, 404s and refusals send `Cache-Control: no-store`; the flash cookie is
 * signed (decision 0031: nothing personal is ever cached).
 */

const baseUrl = serverBaseUrl();
let account: TestAccount;

beforeAll(async () => {
  account = await createAccount();
  await clearSignInLimits(account);
});
afterAll(() => deleteAccount(account));

async function get(path: string, cookie = "") {
  return fetch(`${baseUrl}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
}

/** Signs in through the login form: the session cookie, and the flash cookie set with it. */
async function signIn() {
  const response = await fetch(`${baseUrl}/admin/login`, {
    method: "POST",
    body: new URLSearchParams({ email: account.email, password: account.password }),
    redirect: "manual",
  });
  expect(response.status).toBe(302);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const cookies = response.headers.getSetCookie();
  const session = cookies
    .map((cookie) => cookie.split(";")[0] ?? "")
    .filter((c) => c.includes("session_token"));
  const toast = cookies.find((cookie) => cookie.startsWith("toast="));
  return { session: session.join("; "), toast };
}

describe("private answers", () => {
  it("send no-store without a session: the login, admin addresses, their data requests, 404s", async () => {
    for (const path of [
      "/admin/login",
      "/admin/login.data",
      "/admin",
      "/admin/messages",
      "/admin/messages.data",
      "/admin/subscribers",
      "/admin/subscribers/export.csv",
      "/page-inexistante",
      "/page-inexistante.data",
      "/blog/article-inexistant",
    ]) {
      const response = await get(path);
      expect(response.headers.get("cache-control"), `${path} (${response.status})`).toBe(
        "no-store",
      );
    }
  });

  it("send no-store to the signed-in administrator on every page and data request", async () => {
    const { session } = await signIn();
    for (const path of [
      "/admin/dashboard",
      "/admin/messages",
      "/admin/subscribers",
      "/admin/categories",
      "/admin/securite",
      "/admin/messages.data",
      "/admin/subscribers.data",
      "/admin/subscribers/export.csv",
    ]) {
      const response = await get(path, session);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe("no-store");
    }
  });
});

describe("the flash cookie", () => {
  it("is signed: the next page shows it, a forged one is ignored", async () => {
    const { session, toast } = await signIn();
    expect(toast).toMatch(/; HttpOnly/);
    const value = toast?.split(";")[0] ?? "";
    // A signed value: the payload, a dot, its signature.
    expect(decodeURIComponent(value)).toMatch(/^toast=[^.]+\.[^.]+$/);
    const shown = await (await get("/admin/dashboard", `${session}; ${value}`)).text();
    expect(shown).toContain("Connexion réussie");

    const forged = btoa(JSON.stringify({ type: "error", title: "Message pirate" }));
    const signature = decodeURIComponent(value).split(".").at(-1) ?? "";
    for (const cookie of [
      `toast=${forged}`,
      `toast=${encodeURIComponent(`${forged}.${signature}`)}`,
    ]) {
      const page = await get("/admin/dashboard", `${session}; ${cookie}`);
      expect(page.status).toBe(200);
      expect(await page.text()).not.toContain("Message pirate");
    }
  });
});
