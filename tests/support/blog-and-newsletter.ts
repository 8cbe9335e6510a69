import { randomInt, randomUUID } from "node:crypto";
import http from "node:http";
import { eq, like } from "drizzle-orm";
import { blogNewsletterSubscribers } from "../../app/server/db/schema";
import { signLinkTokenWith, type LinkPurpose } from "../../app/server/signed-link.server";
import type { blogFixtures } from "./blog-fixtures";
import { parseDocument, textOf, type FetchedPage } from "./html";
import { serverAuthSecret, serverBaseUrl, serverDatabase } from "./server-under-test";

/*
 * What the blog's and the newsletter's tests share, in the browser and over HTTP: the blog list's articles,
 * and a subscriber's side of the newsletter (the sign-up block, the e-mailed links' pages, forms posted as a
 * browser without JavaScript posts them).
 */

/**
 * The blog list's articles, named after the fixtures' token (whose category must exist): ten that a search
 * for the token finds (a full page of nine, then one), the three oldest in the category, and one found by a
 * search without its accents (`Été au studio`).
 */
export async function createListArticles(fixtures: ReturnType<typeof blogFixtures>) {
  const { token } = fixtures;
  await fixtures.createArticles(
    Array.from({ length: 10 }, (_, index) => ({
      slug: `liste-${token}-${index}`,
      title: `Liste ${token} numéro ${index}`,
      publishedAt: new Date(Date.UTC(2025, 2, 5 + index, 10)),
      inCategory: index < 3,
    })),
  );
  await fixtures.createArticles([
    {
      slug: `ete-${token}`,
      title: `Été au studio ${token}`,
      excerpt: "Nos idées de séances en plein air.",
      publishedAt: new Date(Date.UTC(2020, 0, 1)),
    },
  ]);
}

/**
 * A loopback address of the caller's own (every 127.x.y.z reaches the server): a client of its own for the
 * per-client limits of sign-ups and link presses, which other files counting from 127.0.0.1 do not touch.
 */
export const ownLoopbackAddress = () =>
  `127.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;

type RequestOptions = {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** The loopback address to send from (`ownLoopbackAddress`), else the system's choice (127.0.0.1). */
  from?: string;
};

/** A request to the server under test, read and parsed as `fetchPage` reads it; redirects not followed. */
export function requestFrom(path: string, options: RequestOptions = {}): Promise<FetchedPage> {
  const { method = "GET", body = "", headers = {}, from } = options;
  const url = new URL(path, serverBaseUrl());
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: `${url.pathname}${url.search}`,
        ...(from ? { localAddress: from } : {}),
        headers: { Accept: "text/html", "Content-Length": Buffer.byteLength(body), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const html = Buffer.concat(chunks).toString("utf8");
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: answerHeaders,
            html,
            document: parseDocument(html),
          });
        });
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("délai dépassé")));
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * Presses the submit button called `button` in `page` (the answer of `path`) as a browser without
 * JavaScript does: the button's form sends its fields as the page filled them, `fields` typed over them,
 * and the button's own name and value, to the form's action (the page's address by default), with the
 * site's Origin.
 */
export function submitForm(
  page: FetchedPage,
  path: string,
  button: string | RegExp,
  options: Omit<RequestOptions, "method" | "body"> & {
    fields?: Record<string, string>;
    cookie?: string;
  } = {},
): Promise<FetchedPage> {
  const { fields = {}, cookie, headers = {}, ...request } = options;
  const pressed = [...page.document.querySelectorAll("button, input[type=submit]")].find(
    (candidate) => {
      const name = textOf(candidate) || (candidate.getAttribute("value") ?? "");
      return typeof button === "string" ? name === button : button.test(name);
    },
  );
  const form = pressed?.closest("form");
  if (!pressed || !form) throw new Error(`Aucun bouton « ${String(button)} » dans un formulaire`);
  const values = new URLSearchParams();
  // The forms these tests post have inputs only (no select, no textarea).
  for (const field of form.querySelectorAll("input[name]")) {
    const type = field.getAttribute("type") ?? "";
    if (["submit", "button", "image", "reset"].includes(type)) continue;
    if (["checkbox", "radio"].includes(type) && !field.hasAttribute("checked")) continue;
    values.append(field.getAttribute("name") ?? "", field.getAttribute("value") ?? "");
  }
  for (const [name, value] of Object.entries(fields)) values.set(name, value);
  const buttonName = pressed.getAttribute("name");
  if (buttonName) values.append(buttonName, pressed.getAttribute("value") ?? "");

  const action = new URL(form.getAttribute("action") ?? path, new URL(path, serverBaseUrl()));
  const allHeaders = { ...(cookie ? { Cookie: cookie } : {}), ...headers };
  if ((form.getAttribute("method") ?? "get").toLowerCase() === "get") {
    action.search = values.toString();
    return requestFrom(`${action.pathname}${action.search}`, { ...request, headers: allHeaders });
  }
  return requestFrom(`${action.pathname}${action.search}`, {
    ...request,
    method: "POST",
    body: values.toString(),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: new URL(serverBaseUrl()).origin,
      ...allHeaders,
    },
  });
}

/** The address of an e-mailed link's page, signed with the server's secret as the server signs it. */
export function linkUrl(
  purpose: LinkPurpose,
  subject: string,
  options: Parameters<typeof signLinkTokenWith>[3] = {},
): string {
  const token = signLinkTokenWith(serverAuthSecret(), purpose, subject, options);
  const page = purpose === "newsletter-confirm" ? "confirmation" : "desabonnement";
  return `/newsletter/${page}?token=${token}`;
}

/** The subscriber row of `email`, as stored now. */
export async function subscriber(email: string) {
  const [row] = await serverDatabase()
    .select()
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.email, email));
  if (!row) throw new Error(`Aucun abonné ${email}`);
  return row;
}

/** Removes the subscribers whose address is `like` the pattern (a test file's marker in it). */
export async function deleteSubscribers(pattern: string) {
  await serverDatabase()
    .delete(blogNewsletterSubscribers)
    .where(like(blogNewsletterSubscribers.email, pattern));
}

/** Stores `email` as a subscriber who confirmed a while ago. */
export async function activeSubscriber(email: string) {
  const [row] = await serverDatabase()
    .insert(blogNewsletterSubscribers)
    .values({ email, status: "active", consentSource: "blog", confirmedAt: new Date() })
    .returning();
  if (!row) throw new Error("abonné non créé");
  return row;
}

/** The address of the confirmation page in an e-mail's text, and the one its HTML links to. */
export function confirmationLinks(mail: { text: string; html: string }) {
  const pattern = /https?:\/\/[^\s"<>]+\/newsletter\/confirmation\?token=[A-Za-z0-9_.-]+/;
  const inText = pattern.exec(mail.text)?.[0];
  const inHtml = new RegExp(`href="(${pattern.source})"`).exec(mail.html)?.[1];
  return { inText, inHtml };
}

/**
 * The links that lead to no subscriber (path, status, the page's heading), built around the subscriber
 * `id`: forged or altered 400, expired or orphaned 404, a test e-mail's 200.
 */
export function linksThatLeadNowhere(id: string): Array<[string, number, string]> {
  const valid = signLinkTokenWith(serverAuthSecret(), "newsletter-unsubscribe", id);
  const [, signature] = valid.split(".");
  // Someone else's id under a genuine signature: the link cannot be forged for another address.
  const otherBody = Buffer.from(
    JSON.stringify({ p: "newsletter-unsubscribe", s: randomUUID() }),
  ).toString("base64url");
  return [
    ["/newsletter/confirmation", 400, "Lien invalide"],
    ["/newsletter/confirmation?token=abc.def", 400, "Lien invalide"],
    [`/newsletter/confirmation?token=${valid}`, 400, "Lien invalide"],
    [
      linkUrl("newsletter-confirm", id, { lifetimeSeconds: 60, now: Date.now() - 3_600_000 }),
      404,
      "Lien expiré",
    ],
    [linkUrl("newsletter-confirm", randomUUID(), { lifetimeSeconds: 600 }), 404, "Lien expiré"],
    [linkUrl("newsletter-confirm", "apercu"), 200, "Lien d'un email de test"],
    [`/newsletter/desabonnement?token=${otherBody}.${signature}`, 400, "Lien invalide"],
    [linkUrl("newsletter-unsubscribe", randomUUID()), 404, "Adresse introuvable"],
    [linkUrl("newsletter-unsubscribe", "apercu"), 200, "Lien d'un email de test"],
  ];
}
