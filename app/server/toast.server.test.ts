import { afterEach, describe, expect, it, vi } from "vitest";

const SECRET = "a-secret-of-at-least-thirty-two-characters";

/** toast.server as a process with this SITE_URL would load it (the configuration is read once). */
async function toastModule(siteUrl: string) {
  vi.resetModules();
  vi.stubEnv("SITE_URL", siteUrl);
  vi.stubEnv("AUTH_SECRET", SECRET);
  return import("./toast.server");
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

function requestWith(setCookie: string): Request {
  return new Request("http://localhost/", {
    headers: { Cookie: setCookie.split(";")[0] ?? "" },
  });
}

describe("the toast cookie", () => {
  it("is Secure on an https site, like the session cookie, and not on an http one", async () => {
    const secure = await toastModule("https://studio.example.com");
    const header = await secure.toastCookieHeader({ type: "success", title: "Article publié" });
    expect(header).toMatch(/; Secure/);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);

    const plain = await toastModule("http://localhost:3000");
    expect(await plain.toastCookieHeader({ type: "success", title: "x" })).not.toMatch(/Secure/);
  });

  it("is signed: read back as written, a forged or unsigned one is ignored and cleared", async () => {
    const { readToast, toastCookieHeader } = await toastModule("https://studio.example.com");
    const toast = { type: "success", title: "Article publié" } as const;
    const header = await toastCookieHeader(toast);
    expect((await readToast(requestWith(header))).toast).toEqual(toast);

    const forgedPayload = btoa(JSON.stringify({ type: "error", title: "Pirate" }));
    const signature = (header.split(";")[0] ?? "").split(".").at(-1) ?? "";
    for (const forged of [`toast=${forgedPayload}`, `toast=${forgedPayload}.${signature}`]) {
      const read = await readToast(requestWith(forged));
      expect(read.toast).toBeNull();
      expect(read.headers.get("Set-Cookie")).toMatch(/^toast=; .*Max-Age=0/);
    }
  });
});
