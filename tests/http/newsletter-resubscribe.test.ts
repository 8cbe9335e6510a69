import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { blogNewsletterSubscribers } from "../../app/server/db/schema";
import { signLinkTokenWith } from "../../app/server/signed-link.server";
import { fetchPage, textOf } from "../support/html";
import { serverAuthSecret, serverDatabase } from "../support/server-under-test";

// « Me réinscrire » on a newsletter's unsubscribe address needs the site's own page: only leaving is open to
// other sites (RFC 8058's one-click), so a forged page cannot make a person who left active again (decision
// 0081). Coming back from the page, even a minute after leaving, asks for the address's confirmation by
// e-mail (decision 0081, amended 2026-11-29): the token may be a program's.

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

/** The confirmation e-mails queued for the address's row (the row is made anew by `leftMinutesAgo`). */
async function confirmationJobs(): Promise<number> {
  const [row] = await serverDatabase()
    .select({ id: blogNewsletterSubscribers.id })
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.email, email));
  const { rows } = await serverDatabase().execute<{ count: string }>(
    sql`select count(*) from pgboss.job where name = 'mail' and data->>'kind' = 'confirmation'
          and data->>'subscriberId' = ${row?.id ?? ""}`,
  );
  return Number(rows[0]?.count);
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

  it("from the site's own page or a program without Origin: pending until the e-mailed confirmation, never at once", async () => {
    const asked: Array<Record<string, string>> = [{ "Sec-Fetch-Site": "same-origin" }, {}];
    for (const headers of asked) {
      const recent = await leftMinutesAgo(5);
      const back = await resubscribe(recent, headers);
      expect(back.status).toBe(200);
      expect(textOf(back.document.querySelector("h1"))).toBe("Confirmez votre réinscription");
      expect(await status()).toBe("pending");
      expect(await confirmationJobs()).toBe(1);
    }

    const old = await leftMinutesAgo(25 * 60);
    const later = await resubscribe(old, { "Sec-Fetch-Site": "same-origin" });
    expect(later.status).toBe(200);
    expect(textOf(later.document.querySelector("h1"))).toBe("Confirmez votre réinscription");
    expect(await status()).toBe("pending");
  });
});
