import { describe, expect, it } from "vitest";
import { fetchPage } from "../support/html";
import { redirects } from "../support/studios";

// The old addresses of SPEC §2 (the seeded `redirects` table). A client-side navigation to one is in
// tests/e2e/redirects.test.ts.

describe("old addresses", () => {
  it.each(redirects)("$from answers 301 to $to, keeping the query string", async ({ from, to }) => {
    const response = await fetchPage(`${from}?utm_source=flyer`);
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(`${to}?utm_source=flyer`);
  });

  it("every target is a page that exists", async () => {
    for (const target of new Set(redirects.map((entry) => entry.to))) {
      expect((await fetchPage(target)).status, target).toBe(200);
    }
  });
});
