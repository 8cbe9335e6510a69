import { describe, expect, it } from "vitest";
import { isPlaceholderAddress, shownAddress } from "./external-links";

describe("placeholder addresses", () => {
  it("are the domains reserved for examples, with their subdomains", () => {
    for (const address of [
      "https://reservation.example.com/studio-ussel",
      "https://example.com",
      "http://bons-cadeaux.example.org/x",
      "https://EXAMPLE.NET.",
      "https://studio.test/",
      "https://galerie.invalid/a",
      "https://cadeaux.example/x",
    ]) {
      expect(isPlaceholderAddress(address), address).toBe(true);
      expect(shownAddress(address), address).toBe("");
    }
  });

  it("are not real sites, even with « example » in their name, nor pages of this site", () => {
    for (const address of [
      "https://www.facebook.com/studiophotoexemple",
      "https://myexample.com/",
      "https://example.com.evil.fr/",
      "https://reservation.studio-photo.fr/ussel",
      "/reserver/ussel",
      "",
    ]) {
      expect(isPlaceholderAddress(address), address).toBe(false);
      expect(shownAddress(address), address).toBe(address);
    }
  });
});
