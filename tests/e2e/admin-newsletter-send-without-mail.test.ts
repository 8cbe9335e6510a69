import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  blogArticles,
  blogNewsletterSubscribers,
  newsletterDeliveries,
} from "../../app/server/db/schema";
import { signedInPage, waitForToastsToClose } from "./support/admin";
import {
  clearSignInLimits,
  createAccount,
  deleteAccount,
  type TestAccount,
} from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { serverDatabase } from "../support/server-under-test";
import { useOwnServer } from "../support/own-server";

/*
 * The send page of a site whose e-mail is not configured (no SMTP_URL): it says so and what to set, and the
 * sending is still created: its e-mails wait in the queue (issue 12, item 6: nothing is lost).
 */

const url = useOwnServer({ SMTP_URL: "" });
const { openPage } = useBrowser({ baseUrl: url });
const marker = randomBytes(4).toString("hex");
let admin: TestAccount;
let articleId = "";

beforeAll(async () => {
  await clearSignInLimits();
  admin = await createAccount("admin");
  const database = serverDatabase();
  await database.insert(blogNewsletterSubscribers).values(
    [0, 1].map((index) => ({
      email: `lecteur-${index}-${marker}@example.com`,
      consentSource: "blog",
      status: "active" as const,
    })),
  );
  const [article] = await database
    .insert(blogArticles)
    .values({
      title: `En attente ${marker}`,
      slug: `en-attente-${marker}`,
      excerpt: "Extrait",
      content: "<p>Texte</p>",
      author: "Claire",
      published: true,
      publishedAt: new Date(),
    })
    .returning();
  articleId = article?.id ?? "";
});

afterAll(async () => {
  await deleteAccount(admin);
});

describe("sending an article while e-mail is off", () => {
  it("warns what to set, then sends anyway: the e-mails wait in the queue", async () => {
    const page = await signedInPage(openPage, admin, `/admin/newsletter/envoyer/${articleId}`);
    const warning = page.getByRole("status").filter({ hasText: "n'est pas configuré" });
    await warning.waitFor();
    expect(await warning.textContent()).toContain("SMTP_URL");
    expect(await warning.textContent()).toContain(
      "L'envoi reste possible : rien n'est perdu, les e-mails attendent dans la file",
    );
    await waitForToastsToClose(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "M'envoyer un test" }).click();
    await page
      .getByText(`Il partira vers ${admin.email} dès que l'envoi d'e-mails sera configuré`)
      .waitFor();

    const total = (
      await serverDatabase()
        .select()
        .from(blogNewsletterSubscribers)
        .where(eq(blogNewsletterSubscribers.status, "active"))
    ).length;
    await page.getByRole("button", { name: new RegExp(`^Envoyer à ${total} abonnés`) }).click();
    await page
      .getByRole("alertdialog")
      .getByRole("button", { name: `Envoyer à ${total} abonnés` })
      .click();
    await page.waitForURL(/\/admin\/newsletter\/envois\/[0-9a-f-]{36}$/);
    await page.getByRole("status").filter({ hasText: "n'est pas configuré" }).waitFor();
    await page.getByText(`0 % (0 sur ${total})`).waitFor();
    expect(await page.getByRole("definition").allTextContents()).toEqual([
      "0",
      "0",
      String(total),
      "0",
    ]);
    const deliveries = await serverDatabase().select().from(newsletterDeliveries);
    expect(deliveries.map((delivery) => delivery.status)).toEqual(
      Array.from({ length: total }, () => "pending"),
    );
  });
});
