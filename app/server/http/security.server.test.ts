import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, policyWithNonce } from "./security.server";

function directives(policy: string) {
  return Object.fromEntries(
    policy.split(";").map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe("contentSecurityPolicy", () => {
  it("allows scripts only from the site or with this response's nonce", () => {
    const policy = directives(contentSecurityPolicy("abc123"));
    expect(policy["script-src"]).toEqual(["'self'", "'nonce-abc123'"]);
    expect(policy["script-src"]).not.toContain("'unsafe-inline'");
    expect(policy["script-src-attr"]).toEqual(["'none'"]);
  });

  it("forbids framing, plugins and foreign form targets", () => {
    const policy = directives(contentSecurityPolicy("n"));
    expect(policy["frame-ancestors"]).toEqual(["'none'"]);
    expect(policy["object-src"]).toEqual(["'none'"]);
    expect(policy["form-action"]).toEqual(["'self'"]);
    expect(policy["base-uri"]).toEqual(["'self'"]);
    expect(policy["default-src"]).toEqual(["'self'"]);
  });

  it("frames only the site's own documents (the newsletter preview) and the video host", () => {
    const policy = directives(contentSecurityPolicy("n"));
    expect(policy["frame-src"]).toEqual(["'self'", "https://www.youtube-nocookie.com"]);
  });
});

describe("policyWithNonce", () => {
  it("puts each answer's nonce in the same policy", () => {
    const policy = policyWithNonce();
    expect(policy("abc")).toBe(contentSecurityPolicy("abc"));
    expect(policy("xyz")).toBe(contentSecurityPolicy("xyz"));
  });

  it("lets forms lead to a payment provider's page only while it is allowed, and follows each change", () => {
    let allowed: readonly string[] = [];
    const policy = policyWithNonce({ formActions: () => allowed });
    expect(directives(policy("n"))["form-action"]).toEqual(["'self'"]);
    allowed = ["https://checkout.stripe.com"];
    expect(directives(policy("n"))["form-action"]).toEqual([
      "'self'",
      "https://checkout.stripe.com",
    ]);
    expect(directives(policy("m"))["script-src"]).toEqual(["'self'", "'nonce-m'"]);
    allowed = [];
    expect(directives(policy("n"))["form-action"]).toEqual(["'self'"]);
  });
});
