import { beforeAll, describe, expect, it } from "vitest";
import { signedInPage, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import { addArticle, sampleArticle, useNewsletterReaders } from "../support/newsletter-admin";
import { useOwnServer } from "../support/own-server";

/*
 * The send page of a site whose e-mail is not configured (no SMTP_URL), in a browser: it says so, and the
 * test e-mail is said to wait for the configuration. The sending itself, queued all the same (decision
 * 0080: nothing is lost), is tests/http/admin-newsletter-send-without-mail.
 */

const url = useOwnServer({ SMTP_URL: "" });
const { openPage } = useBrowser({ baseUrl: url });
const admin = useAdmin();
const { marker } = useNewsletterReaders(2);
let articleId = "";

beforeAll(async () => {
  articleId = await addArticle(sampleArticle("En attente", marker, { published: true }));
});

describe("sending an article while e-mail is off", () => {
  it("warns that e-mail is not configured; the test e-mail is said to wait for it", async () => {
    const page = await signedInPage(
      openPage,
      admin.account(),
      `/admin/newsletter/envoyer/${articleId}`,
    );
    await page.getByRole("status").filter({ hasText: "n'est pas configuré" }).waitFor();
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "M'envoyer un test" }).click();
    await page
      .getByText(
        `Il partira vers ${admin.account().email} dès que l'envoi d'e-mails sera configuré`,
      )
      .waitFor();
  });
});
