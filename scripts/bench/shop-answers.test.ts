import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { orderDestination, toastKind, voucherOrderFields } from "./shop-answers.ts";

describe("the « ventes » section's reading of the site's answers", () => {
  it("reads the kind of a signed toast cookie as the site sets it, accents included", async () => {
    const cookie = createCookie("toast", { path: "/", maxAge: 60, secrets: ["banc"] });
    const success = await cookie.serialize({
      type: "success",
      title: "Bon 7K3Q-M2XD-9PTX utilisé",
    });
    const refusal = await cookie.serialize({ type: "error", title: "Ce bon a déjà été utilisé." });
    expect(toastKind(success)).toBe("success");
    expect(toastKind(["session=abc; Path=/", refusal])).toBe("error");
  });

  it("finds no toast where there is none or it is not one", () => {
    expect(toastKind(undefined)).toBeNull();
    expect(toastKind(["session=abc; Path=/"])).toBeNull();
    expect(toastKind("toast=; Max-Age=0")).toBeNull();
    expect(toastKind("toast=bm90IGpzb24%3D.sig")).toBeNull();
  });

  it("tells a checkout on the provider's page from the order's page and from anything else", () => {
    const origin = "http://127.0.0.1:40123";
    expect(orderDestination(`${origin}/pay/cs_test_a1B2c3`, origin)).toEqual({
      to: "checkout",
      sessionId: "cs_test_a1B2c3",
    });
    expect(orderDestination("/commande/AbC-_09", origin)).toEqual({
      to: "order-page",
      path: "/commande/AbC-_09",
    });
    expect(orderDestination("http://127.0.0.1:9/pay/cs_test_a1", origin)).toBeNull();
    expect(orderDestination("/bons-cadeaux", origin)).toBeNull();
    expect(orderDestination(undefined, origin)).toBeNull();
  });

  it("posts a new order each time: its own key and e-mail, the offer and the method asked", () => {
    const first = voucherOrderFields({ kind: "amount", euros: 100 }, "card", 1, "r");
    const second = voucherOrderFields(
      { kind: "session", sessionTypeId: "t-1" },
      "transfer",
      2,
      "r",
    );
    expect(first).toMatchObject({ offre: "montant", montant: "100", paiement: "card" });
    expect(second).toMatchObject({ offre: "t-1", paiement: "transfer", studio: "tous" });
    expect(second).not.toHaveProperty("montant");
    expect(first.cle).not.toBe(second.cle);
    expect(first.acheteurEmail).not.toBe(second.acheteurEmail);
    expect(first.cle).toMatch(/^[A-Za-z0-9-]{8,100}$/);
  });
});
