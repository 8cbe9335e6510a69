import { beforeAll, describe, expect, it } from "vitest";
import { newsletterDeliveries } from "../../app/server/db/schema";
import { useAdmin } from "../support/accounts";
import { flashedToast } from "../support/admin-forms";
import { fetchPage, postForm, textOf, type FetchedPage } from "../support/html";
import { addArticle, sampleArticle, useNewsletterReaders } from "../support/newsletter-admin";
import { useOwnServer } from "../support/own-server";
import { serverDatabase } from "../support/server-under-test";

/*
 * The send page of a site whose e-mail is not configured (no SMTP_URL), as the server answers it: it says
 * so and what to set, and the sending is still created: its e-mails wait in the queue (decision 0080:
 * nothing is lost). The page in a browser is tests/e2e/admin-newsletter-send-without-mail.
 */

useOwnServer({ SMTP_URL: "" });
const admin = useAdmin();
const { marker, activeCount } = useNewsletterReaders(2);
let articleId = "";

beforeAll(async () => {
  articleId = await addArticle(sampleArticle("En attente", marker, { published: true }));
});

/** The page's « not configured » box. */
const notConfigured = (page: FetchedPage) =>
  [...page.document.querySelectorAll("[role=status]")]
    .map((element) => textOf(element))
    .find((text) => text.includes("n'est pas configuré"));

describe("sending an article while e-mail is off", () => {
  it("warns what to set, then sends anyway: the e-mails wait in the queue", async () => {
    const sendPath = `/admin/newsletter/envoyer/${articleId}`;
    const page = await fetchPage(sendPath, { cookie: admin.cookie() });
    expect(notConfigured(page)).toContain("SMTP_URL");
    expect(notConfigured(page)).toContain(
      "L'envoi reste possible : rien n'est perdu, les e-mails attendent dans la file",
    );

    const total = activeCount();
    const sent = await postForm(
      sendPath,
      { intent: "send", id: articleId, mode: "excerpt" },
      { cookie: admin.cookie() },
    );
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toMatch(/^\/admin\/newsletter\/envois\/[0-9a-f-]{36}$/);
    expect(flashedToast(sent.headers)?.description).toBe(
      `Les e-mails vers ${total} abonnés attendent que l'envoi d'e-mails soit configuré (SMTP_URL).`,
    );

    const sending = await fetchPage(sent.headers.get("location") ?? "", {
      cookie: admin.cookie(),
    });
    expect(notConfigured(sending)).toContain("SMTP_URL");
    expect(
      textOf(sending.document.querySelector('section[aria-labelledby="progression-titre"]')),
    ).toContain(`0 % (0 sur ${total})`);
    expect([...sending.document.querySelectorAll("dd")].map((figure) => textOf(figure))).toEqual([
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
