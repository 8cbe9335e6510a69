import { beforeAll, describe, expect, it } from "vitest";
import { signedInPage, closeToasts } from "./support/admin";
import { useAdmin } from "../support/accounts";
import { axeViolations, useBrowser } from "./support/browser";
import {
  addArticle,
  REFUSED_DELIVERY,
  sendingUnderWay,
  useNewsletterReaders,
} from "../support/newsletter-admin";
import { useOwnServerWithMail } from "../support/own-server";

/*
 * Sending an article from the admin (decision 0084) where a person does it: the preview's frame and its
 * mode, the sending behind a confirmation dialog, its live progress. Sendings go to every active subscriber
 * of the database: this file runs a server and database of its own, with its own SMTP capture to read what
 * left. What the server answers (the preview's policy, the test e-mail, the sending without JavaScript,
 * never twice, « Publier et envoyer ») is tests/http/admin-newsletter-send.
 */

const { url, mailsTo } = useOwnServerWithMail();
const { openPage } = useBrowser({ baseUrl: url });
const admin = useAdmin();
const { marker, readers, waiting, gone, activeCount } = useNewsletterReaders(6);

const published = {
  title: `Lumière d'hiver ${marker}`,
  slug: `lumiere-hiver-${marker}`,
  excerpt: `Les séances en studio quand la neige tombe sur la Corrèze ${marker}.`,
  content: `<p>Texte complet de l'article ${marker}, avec <strong>tous</strong> ses détails.</p>`,
};
let publishedId = "";
beforeAll(async () => {
  publishedId = await addArticle({
    ...published,
    coverImageUrl: "/images/demo-blog/ete.jpg",
    published: true,
  });
});

const signedIn = (path: string, options: Parameters<typeof openPage>[1] = {}) =>
  signedInPage(openPage, admin.account(), path, options);

const sendPath = (id: string) => `/admin/newsletter/envoyer/${id}`;
const SENDING_PATH = /\/admin\/newsletter\/envois\/[0-9a-f-]{36}$/;

/** Waits until the page's progress bar is full and says so. */
async function expectFinished(page: Awaited<ReturnType<typeof signedIn>>) {
  const bar = page.getByRole("progressbar", { name: "Progression de l'envoi" });
  await expect
    .poll(
      async () => {
        const [value, max] = await Promise.all([
          bar.getAttribute("value"),
          bar.getAttribute("max"),
        ]);
        return value !== null && value === max;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await expect.poll(() => page.getByText("100 %").count()).toBeGreaterThan(0);
  await expect.poll(() => page.getByText(/^Terminé le /).count()).toBe(1);
}

describe("/admin/newsletter/envoyer/:id", () => {
  it("shows the e-mail's preview in a sandboxed frame, with its cover, and follows the mode chosen", async () => {
    const page = await signedIn(sendPath(publishedId));
    const preview = page.frameLocator('iframe[title="Aperçu de l\'e-mail"]');
    await preview.getByRole("heading", { name: published.title }).waitFor();
    // The cover is shown (the frame's own policy lets the site's images in).
    await expect
      .poll(() =>
        preview
          .locator("img")
          .first()
          .evaluate((image: HTMLImageElement) => image.naturalWidth),
      )
      .toBeGreaterThan(0);
    expect(await preview.getByText(`Texte complet de l'article ${marker}`).count()).toBe(0);

    await page.getByRole("radio", { name: "Article complet" }).check();
    await page.waitForURL(/\?mode=full$/);
    await preview.getByText(`Texte complet de l'article ${marker}`).waitFor();
    expect(await preview.getByRole("link", { name: "Voir l'article sur le site" }).count()).toBe(1);

    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("sends the article once to every active subscriber, after a confirmation, and shows its progress", async () => {
    const page = await signedIn(sendPath(publishedId));
    const label = `Envoyer à ${activeCount()} abonnés`;
    await page.getByRole("button", { name: new RegExp(`^${label}`) }).click();
    const dialog = page.getByRole("alertdialog", {
      name: `Envoyer cet article à ${activeCount()} abonnés ?`,
    });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`« ${published.title} »`);
    await dialog.getByRole("button", { name: label }).click();
    await page.waitForURL(SENDING_PATH);
    await page.getByText("Envoi commencé").waitFor();
    await expectFinished(page);
    expect(await page.getByRole("definition").allTextContents()).toEqual([
      String(activeCount()),
      "0",
      "0",
      "0",
    ]);
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);

    // Exactly one e-mail each, as the issue describes it; nothing for the others.
    await expect
      .poll(() => readers.every((reader) => mailsTo(reader).length === 1), { timeout: 20_000 })
      .toBe(true);
    const links = new Set<string>();
    for (const reader of readers) {
      const mails = mailsTo(reader);
      expect(mails, reader).toHaveLength(1);
      const mail = mails[0];
      expect(mail?.subject).toBe(published.title);
      expect(mail?.html).toContain(published.title.replace("'", "&#39;"));
      expect(mail?.html).toContain(`href="${url()}/blog/${published.slug}"`);
      expect(mail?.html).toContain(">Se désinscrire<");
      expect(mail?.text).toContain(published.excerpt);
      expect(mail?.text).toContain(`Lire l'article : ${url()}/blog/${published.slug}`);
      const unsubscribe = mail?.header("List-Unsubscribe") ?? "";
      expect(unsubscribe).toMatch(
        new RegExp(`^<${url()}/newsletter/desabonnement\\?token=[\\w.-]+>$`),
      );
      expect(mail?.text).toContain(unsubscribe.slice(1, -1));
      expect(mail?.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      links.add(unsubscribe);
    }
    // Each reader's own link.
    expect(links.size).toBe(readers.length);
    expect(mailsTo(waiting)).toEqual([]);
    expect(mailsTo(gone)).toEqual([]);
  });
});

describe("/admin/newsletter/envois/:id", () => {
  it("follows a sending live, then lists its failed addresses with their French errors", async () => {
    const sending = await sendingUnderWay(`Envoi suivi ${marker}`, readers.slice(0, 3));
    const page = await signedIn(`/admin/newsletter/envois/${sending.id}`);
    await page.getByText("0 % (0 sur 3)").waitFor();
    expect(await page.getByRole("progressbar").getAttribute("value")).toBe("0");
    await page.evaluate(() => {
      (window as unknown as { samePage: boolean }).samePage = true;
    });
    const refused = sending.subscribers[2];
    await sending.sent(sending.subscribers.slice(0, 2));
    await page.getByText("66 % (2 sur 3)").waitFor({ timeout: 15_000 });
    await sending.refusedThenDone(refused);
    await expectFinished(page);
    expect(await page.getByRole("link", { name: "Actualiser" }).count()).toBe(0);
    const failures = page.getByRole("table");
    await failures.getByRole("cell", { name: refused?.email }).waitFor();
    expect(await failures.textContent()).toContain(REFUSED_DELIVERY);
    // Followed without reloading the page.
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(
      true,
    );
    await closeToasts(page);
    expect(await axeViolations(page)).toEqual([]);
  });
});
