import { describe, expect, it } from "vitest";
import { newsletterSchema } from "./newsletter-schema";

const messageOf = (email: unknown) =>
  newsletterSchema.safeParse({ email }).error?.issues[0]?.message;

describe("newsletterSchema", () => {
  it("trims the address", () => {
    expect(newsletterSchema.parse({ email: "  a@example.com " })).toEqual({
      email: "a@example.com",
    });
  });

  it("says 'Email invalide' for an empty, missing or malformed address", () => {
    expect(messageOf("")).toBe("Email invalide");
    expect(messageOf(undefined)).toBe("Email invalide");
    expect(messageOf("a@")).toBe("Email invalide");
  });

  it("says 'Email trop long' past 255 characters", () => {
    expect(messageOf(`${"a".repeat(244)}@example.com`)).toBe("Email trop long");
    expect(messageOf(`${"a".repeat(243)}@example.com`)).not.toBe("Email trop long");
  });
});
