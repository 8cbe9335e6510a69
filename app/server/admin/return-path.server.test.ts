import { describe, expect, it } from "vitest";
import { returnPathOf, withReturnPath } from "./return-path.server";

const asked = (retour: string) =>
  returnPathOf(new Request(`https://studio.test/admin/login?retour=${encodeURIComponent(retour)}`));

describe("the address the sign-in comes back to", () => {
  it("is an address of this site's admin, with its query", () => {
    expect(asked("/admin/sauvegardes/derniere?jeton=abc.d-e_f")).toBe(
      "/admin/sauvegardes/derniere?jeton=abc.d-e_f",
    );
    expect(asked("/admin/sauvegardes")).toBe("/admin/sauvegardes");
    expect(withReturnPath("/admin/login", "/admin/sauvegardes?a=1")).toBe(
      "/admin/login?retour=%2Fadmin%2Fsauvegardes%3Fa%3D1",
    );
    expect(withReturnPath("/admin/login", null)).toBe("/admin/login");
  });

  it("is never another site, a scheme, a public page or an odd address", () => {
    for (const elsewhere of [
      "//example.com/admin/",
      "https://example.com/admin/",
      "/admin//example.com",
      "/tarifs",
      "/administrateur",
      "/admin/\\example.com",
      "javascript:alert(1)",
      "/admin/x\ny",
      `/admin/${"a".repeat(1000)}`,
    ]) {
      expect(asked(elsewhere), elsewhere).toBeNull();
    }
    expect(returnPathOf(new Request("https://studio.test/admin/login"))).toBeNull();
  });
});
