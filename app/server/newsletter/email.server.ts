import sanitizeHtml from "sanitize-html";
import type { Identity } from "~/content/schemas";
import { formatDateFr } from "~/lib/dates";
import { absoluteUrl } from "~/lib/seo";
import { sanitizeArticleHtml } from "../sanitize.server";
import { emailButton, emailLayout, escapeHtml } from "../mail/layout.server";
import { ofName } from "~/lib/french";

/*
 * An article as a newsletter: a French HTML e-mail (cover, title, date, excerpt or the whole text, a button
 * to the article, the brand, the unsubscribe link) and its plain-text part. Rendered once per sending; the
 * placeholder below becomes each subscriber's own unsubscribe link when the e-mail leaves. No tracking
 * pixel, no rewritten links: every reader gets the same addresses (decision record 0080).
 */

/** Where each subscriber's unsubscribe address goes (never a valid URL on its own). */
export const UNSUBSCRIBE_PLACEHOLDER = "%%LIEN_DESINSCRIPTION%%";

export type NewsletterArticle = {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  author: string;
  coverImageUrl: string | null;
  publishedAt: Date | null;
};

/** 'excerpt': the summary and a button; 'full': the whole article in the e-mail. */
export const NEWSLETTER_MODES = ["excerpt", "full"] as const;
export type NewsletterMode = (typeof NEWSLETTER_MODES)[number];

/** The mode a form or an address asks for, or null for anything else. */
export function newsletterMode(value: unknown): NewsletterMode | null {
  return NEWSLETTER_MODES.find((mode) => mode === value) ?? null;
}

export type NewsletterContent = { subject: string; html: string; text: string };

/** The article's body for an e-mail: sanitised, images and links absolute, images fitted to the width. */
function emailBody(html: string, siteUrl: string, articleUrl: string): string {
  // In an e-mail, a link must say where it goes on its own: the site's paths get the site's address, an
  // anchor the article's; other links (https:, mailto:) stay as they are.
  const href = (value: string) =>
    value.startsWith("#")
      ? `${articleUrl}${value}`
      : value.startsWith("/") && !value.startsWith("//")
        ? `${siteUrl}${value}`
        : value;
  return sanitizeHtml(sanitizeArticleHtml(html), {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(["img"]),
    // Only the styles set below: the article's HTML brings none (its sanitiser drops them).
    allowedAttributes: {
      a: ["href", "style"],
      img: ["src", "alt", "width", "style"],
      p: ["style"],
    },
    transformTags: {
      a: (tagName, attributes) => ({
        tagName,
        attribs: {
          ...(attributes.href ? { href: href(attributes.href) } : {}),
          style: "color:#9a3412",
        },
      }),
      img: (tagName, attributes) => ({
        tagName,
        attribs: {
          src: href(attributes.src ?? ""),
          alt: attributes.alt ?? "",
          // Outlook ignores max-width: the width attribute keeps a wide photo inside the 544 px column.
          width: "544",
          style: "display:block;width:100%;max-width:544px;height:auto;border-radius:6px",
        },
      }),
      p: (tagName) => ({ tagName, attribs: { style: "margin:0 0 14px" } }),
    },
  });
}

/** The article's text without markup, paragraphs kept apart, for the plain-text part. */
export function plainText(html: string): string {
  const marked = html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<li[^>]*>/gi, "\n• ")
    .replace(/<\/(p|h[1-6]|ul|ol|blockquote|figure)>/gi, "\n\n");
  const text = sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function renderNewsletter(
  article: NewsletterArticle,
  identity: Pick<Identity, "brand">,
  { siteUrl, mode }: { siteUrl: string; mode: NewsletterMode },
): NewsletterContent {
  const { brand } = identity;
  const articleUrl = `${siteUrl}/blog/${article.slug}`;
  const date = article.publishedAt ? formatDateFr(article.publishedAt) : null;
  const byline = [date, `par ${article.author}`].filter(Boolean).join(" · ");
  const cover = article.coverImageUrl
    ? `<img src="${escapeHtml(absoluteUrl(siteUrl, article.coverImageUrl))}" alt="" width="544" style="display:block;width:100%;max-width:544px;height:auto;border-radius:6px;margin:16px 0 0">`
    : "";
  const main =
    mode === "full"
      ? emailBody(article.content, siteUrl, articleUrl)
      : `<p style="margin:0 0 14px">${escapeHtml(article.excerpt)}</p>`;
  const html = emailLayout({
    title: article.title,
    brand,
    preheader: article.excerpt,
    body: `${cover}
<h1 style="font-family:Georgia,'Times New Roman',serif;font-size:26px;line-height:1.25;margin:20px 0 6px">${escapeHtml(article.title)}</h1>
<p style="margin:0 0 18px;font-size:14px;color:#57534e">${escapeHtml(byline)}</p>
${main}
${emailButton(articleUrl, mode === "full" ? "Voir l'article sur le site" : "Lire l'article")}`,
    footer: `Vous recevez cet e-mail parce que vous êtes inscrit·e à la newsletter ${escapeHtml(ofName(brand))}.<br><a href="${UNSUBSCRIBE_PLACEHOLDER}" style="color:#57534e">Se désinscrire</a>`,
  });
  const text = [
    article.title,
    byline,
    "",
    mode === "full" ? plainText(article.content) : article.excerpt,
    "",
    `${mode === "full" ? "Voir l'article sur le site" : "Lire l'article"} : ${articleUrl}`,
    "",
    "—",
    `Vous recevez cet e-mail parce que vous êtes inscrit·e à la newsletter ${ofName(brand)}.`,
    `Se désinscrire : ${UNSUBSCRIBE_PLACEHOLDER}`,
  ].join("\n");
  return { subject: article.title, html, text };
}

/** A rendered newsletter addressed to one subscriber: their unsubscribe link in place. */
export function personalise(content: NewsletterContent, unsubscribeUrl: string): NewsletterContent {
  return {
    subject: content.subject,
    html: content.html.replaceAll(UNSUBSCRIBE_PLACEHOLDER, escapeHtml(unsubscribeUrl)),
    text: content.text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, unsubscribeUrl),
  };
}
