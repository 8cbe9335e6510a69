import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { blogNewsletterSubscribers } from "../../app/server/db/schema";
import { signLinkTokenWith } from "../../app/server/signed-link.server";
import { fetchPage, textOf } from "../support/html";
import { serverAuthSecret, serverDatabase } from "../support/server-under-test";

// « Me réinscrire » on a newsletter's unsubscribe address needs the site's own page: only leaving is open to
// other sites (RFC 8058's one-click), so a forged page cannot make a person who left active again (issue 24,
// item 4). After 24 hours, coming back from the page asks for the address's confirmation (decision 0081).

const email = `reinscription-${randomBytes(4).toString("hex")}@example.com`;

afterAll(async () => {
  await serverDatabase()
    .delete(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.email, email));
});

async function leftMinutesAgo(minutes: number) {
  await serverDatabase()
    .delete(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.email, email));
  const [row] = await serverDatabase()
    .insert(blogNewsletterSubscribers)
    .values({
      email,
      status: "unsubscribed",
      consentSource: "blog",
      confirmedAt: new Date(Date.now() - 90 * 86_400_000),
      unsubscribedAt: new Date(Date.now() - minutes * 60_000),
    })
    .returning();
  if (!row) throw new Error("no subscriber");
  return signLinkTokenWith(serverAuthSecret(), "newsletter-unsubscribe", row.id);
}

const status = async () =>
  (
    await serverDatabase()
      .select({ status: blogNewsletterSubscribers.status })
      .from(blogNewsletterSubscribers)
      .where(eq(blogNewsletterSubscribers.email, email))
  )[0]?.status;

const resubscribe = (token: string, headers: Record<string, string>) =>
  fetchPage(`/newsletter/desabonnement?token=${token}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ token, intent: "reinscrire" }).toString(),
  });

describe("coming back to the newsletter", () => {
  it("is refused in French from another site, and changes nothing", async () => {
    const token = await leftMinutesAgo(5);
    const foreign: Array<Record<string, string>> = [
      { Origin: "https://evil.example" },
      { "Sec-Fetch-Site": "cross-site" },
      { Origin: "null" },
    ];
    for (const headers of foreign) {
      const answer = await resubscribe(token, headers);
      expect(answer.status).toBe(403);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(textOf(answer.document.querySelector("main") ?? answer.document.body)).toContain(
        "Une réinscription se fait depuis notre propre page",
      );
      expect(await status()).toBe("unsubscribed");
    }
  });

  it("from the site's own page: at once within 24 hours, by e-mailed confirmation after", async () => {
    const recent = await leftMinutesAgo(5);
    const back = await resubscribe(recent, { "Sec-Fetch-Site": "same-origin" });
    expect(back.status).toBe(200);
    expect(textOf(back.document.querySelector("h1"))).toBe("Vous êtes de nouveau inscrit·e");
    expect(await status()).toBe("active");

    const old = await leftMinutesAgo(25 * 60);
    const later = await resubscribe(old, { "Sec-Fetch-Site": "same-origin" });
    expect(later.status).toBe(200);
    expect(textOf(later.document.querySelector("h1"))).toBe("Confirmez votre réinscription");
    expect(await status()).toBe("pending");
  });
});
