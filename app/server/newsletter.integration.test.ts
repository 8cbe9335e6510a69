import { sql } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../tests/support/database";
import { clientAddressContext } from "./context";
import { db } from "./db/client.server";
import { blogNewsletterSubscribers } from "./db/schema";
import {
  handleNewsletterSubmission,
  NEWSLETTER_RATE_LIMIT,
  subscribeToNewsletter,
} from "./newsletter.server";

useAppDatabase();

beforeEach(async () => {
  await db().execute(sql`delete from rate_limits`);
});

async function submit(fields: Record<string, string>, client = "192.0.2.1") {
  const request = new Request("http://localhost/blog", {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  const context = new RouterContextProvider();
  context.set(clientAddressContext, client);
  const response = await handleNewsletterSubmission(request, context);
  return { status: response.init?.status, ...response.data.newsletter };
}

async function rowsFor(email: string) {
  return db()
    .select()
    .from(blogNewsletterSubscribers)
    .where(sql`lower(email) = lower(${email})`);
}

describe("newsletter sign-up", () => {
  it("subscribes a new address, trimmed, and records which form the consent came from", async () => {
    const result = await submit({ email: "  marie@example.com  ", source: "article" });
    expect(result).toMatchObject({
      status: 200,
      outcome: "subscribed",
      toast: {
        title: "Inscription réussie !",
        description: "Vous recevrez nos prochains articles par email.",
      },
    });
    expect(result.email).toBeUndefined();
    const [row] = await rowsFor("marie@example.com");
    expect(row).toMatchObject({
      email: "marie@example.com",
      consentSource: "article",
      active: true,
    });
    expect(row?.subscribedAt).toBeInstanceOf(Date);
  });

  it("answers 'Déjà inscrit·e' for an address already there, whatever its case", async () => {
    await submit({ email: "paul@example.com" });
    for (const email of ["paul@example.com", "Paul@Example.COM"]) {
      const result = await submit({ email });
      expect(result).toMatchObject({
        status: 200,
        outcome: "duplicate",
        toast: {
          title: "Déjà inscrit·e",
          description: "Cette adresse email est déjà abonnée à la newsletter.",
        },
      });
    }
    expect(await rowsFor("paul@example.com")).toHaveLength(1);
  });

  it("keeps one row and one success when the same address signs up twenty times at once", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        subscribeToNewsletter(index % 2 ? "Lea@example.com" : "lea@example.com", "blog"),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === "subscribed")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(19);
    expect(await rowsFor("lea@example.com")).toHaveLength(1);
  });

  it("refuses an invalid or too long address with the message of SPEC §5, keeping what was typed", async () => {
    expect(await submit({ email: "pas-une-adresse" })).toMatchObject({
      status: 400,
      outcome: "invalid",
      email: "pas-une-adresse",
      toast: { type: "error", title: "Erreur", description: "Email invalide" },
    });
    expect(await submit({ email: "" })).toMatchObject({
      status: 400,
      toast: { description: "Email invalide" },
    });
    const long = `${"a".repeat(250)}@example.com`;
    expect(await submit({ email: long })).toMatchObject({
      status: 400,
      toast: { title: "Erreur", description: "Email trop long" },
    });
    expect(await rowsFor(long)).toHaveLength(0);
  });

  it("stores an unknown form name as 'blog' (the consent source is not free text)", async () => {
    await submit({ email: "source@example.com", source: "<script>" });
    expect((await rowsFor("source@example.com"))[0]?.consentSource).toBe("blog");
  });

  it("limits attempts per client address: 'Trop de tentatives'", async () => {
    for (let attempt = 0; attempt < NEWSLETTER_RATE_LIMIT.limit; attempt++) {
      expect((await submit({ email: `essai${attempt}@example.com` }, "192.0.2.9")).status).toBe(
        200,
      );
    }
    expect(await submit({ email: "encore@example.com" }, "192.0.2.9")).toMatchObject({
      status: 429,
      outcome: "rate_limited",
      toast: {
        type: "error",
        title: "Trop de tentatives",
        description: "Veuillez réessayer dans quelques minutes.",
      },
    });
    expect(await rowsFor("encore@example.com")).toHaveLength(0);
    // Another visitor is not affected.
    expect((await submit({ email: "autre@example.com" }, "192.0.2.10")).outcome).toBe("subscribed");
  });
});
