import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { blogNewsletterSubscribers, rateLimits } from "../../app/server/db/schema";
import { newsletterToasts } from "../../app/lib/newsletter";
import {
  deleteSubscribers,
  ownLoopbackAddress,
  requestFrom,
  submitForm,
  subscriber,
} from "../support/blog-and-newsletter";
import { textOf } from "../support/html";
import { serverDatabase } from "../support/server-under-test";

// The sign-up block as the server answers its form posted: the blog's pages are light (decision 0137), so
// this is every visitor's sign-up; the focus and the sending state are in tests/e2e/blog-newsletter.test.ts.

const token = randomBytes(4).toString("hex");
const address = (name: string) => `${name}-${token}@example.com`;
// This file's own clients: the per-client limit of sign-ups counts them apart from every other file's.
const clients = { file: ownLoopbackAddress(), limited: ownLoopbackAddress() };

afterAll(async () => {
  await deleteSubscribers(`%-${token}@example.com`);
  for (const client of Object.values(clients)) {
    await serverDatabase()
      .delete(rateLimits)
      .where(eq(rateLimits.key, `newsletter:${client}`));
  }
});

/** The blog's sign-up block, filled with `email` and posted without JavaScript from `client`. */
async function signUp(email: string, client = clients.file) {
  const blog = await requestFrom("/blog", { from: client });
  const answer = await submitForm(blog, "/blog", "S'inscrire", { fields: { email }, from: client });
  const block = [...answer.document.querySelectorAll("section")].find(
    (section) => textOf(section.querySelector("h2")) === "Restez inspiré·e",
  );
  return {
    status: answer.status,
    document: answer.document,
    /** What the block's status line says, to the letter. */
    said: block?.querySelector('[role="status"]')?.textContent ?? "",
  };
}

describe("newsletter sign-up without JavaScript", () => {
  it("writes the outcome in the block, and a refusal at the field, which keeps what was typed", async () => {
    const subscribed = await signUp(address("sans-js"));
    expect(subscribed.status).toBe(200);
    expect(subscribed.said).toBe(
      `${newsletterToasts.subscribed.title} ${newsletterToasts.subscribed.description}`,
    );
    expect((await subscriber(address("sans-js"))).status).toBe("pending");
    // A light page again (decision 0137), the outcome focused by the HTML itself (and so brought into view).
    const html = subscribed.document.documentElement.outerHTML;
    expect(html).not.toMatch(/rel="modulepreload"|type="module"|rr-scripts|__reactRouterContext/);
    const status = [...subscribed.document.querySelectorAll("[autofocus]")];
    expect(status.map((element) => element.getAttribute("role"))).toEqual(["status"]);
    expect(status[0]?.getAttribute("tabindex")).toBe("-1");

    // The refusal is written at the field (decision 0060).
    const refused = await signUp("invalide");
    expect(refused.status).toBe(400);
    const field = refused.document.querySelector('input[name="email"]');
    expect(field?.getAttribute("aria-invalid")).toBe("true");
    const describedBy = field?.getAttribute("aria-describedby") ?? "";
    expect(textOf(refused.document.getElementById(describedBy))).toBe("Email invalide");
    expect(field?.getAttribute("value")).toBe("invalide");
    const focused = refused.document.querySelectorAll("[autofocus]");
    expect(focused).toHaveLength(1);
    expect(focused[0]).toBe(field);
  });

  it("says 'Déjà inscrit·e' for an address already subscribed, whatever its case", async () => {
    await serverDatabase()
      .insert(blogNewsletterSubscribers)
      .values({ email: address("deja"), consentSource: "blog", status: "active" });
    const again = await signUp(address("DEJA").replace(token, token.toUpperCase()));
    expect(again.status).toBe(200);
    expect(again.said).toBe("Déjà inscrit·e Cette adresse email est déjà abonnée à la newsletter.");
    expect((await subscriber(address("deja"))).status).toBe("active");
  });

  it("says 'Trop de tentatives' past five sign-ups from one client", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signUp(address(`essai${attempt}`), clients.limited)).status).toBe(200);
    }
    const refused = await signUp(address("de-trop"), clients.limited);
    expect(refused.status).toBe(429);
    expect(refused.said).toBe("Trop de tentatives Veuillez réessayer dans quelques minutes.");
    await expect(subscriber(address("de-trop"))).rejects.toThrow();
  });
});
