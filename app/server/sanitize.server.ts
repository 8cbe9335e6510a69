import sanitizeHtml from "sanitize-html";
import { env } from "./env.server";

/**
 * The allowlist for article bodies. Run on every write and again on every render, so stored
 * HTML can never carry a script, whatever reached the database.
 */

// Links: http, https, mailto, site-relative paths ("/…", never "//…") and in-page anchors.
const safeHref = /^(?:https?:\/\/|mailto:|\/(?!\/)|#)/i;
// Images: http(s) or a path on this site.
const safeImageSrc = /^(?:https?:\/\/|\/(?!\/))/i;

function siteHost(): string | undefined {
  try {
    return new URL(env().SITE_URL).host;
  } catch {
    return undefined;
  }
}

/** A host without its « www. »: studio.fr and www.studio.fr are the same site. */
const bareHost = (host: string | undefined) => host?.toLowerCase().replace(/^www\./, "");

/**
 * A link to this site written as a full address (pasted from the browser's bar) becomes its path, so that
 * it stays on the site (no new tab) and keeps working on another address of the site (a preview, a new
 * domain). Other addresses are kept as written.
 */
function ownPath(href: string): string {
  if (!/^https?:\/\//i.test(href)) return href;
  try {
    const url = new URL(href);
    return bareHost(url.host) === bareHost(siteHost())
      ? `${url.pathname}${url.search}${url.hash}`
      : href;
  } catch {
    return href;
  }
}

function isExternal(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

const options: sanitizeHtml.IOptions = {
  allowedTags: [
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "ul",
    "ol",
    "li",
    "a",
    "img",
    "figure",
    "figcaption",
    "blockquote",
    "cite",
    "q",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "mark",
    "small",
    "sub",
    "sup",
    "abbr",
    "code",
    "pre",
    "kbd",
    "table",
    "caption",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
  ],
  allowedAttributes: {
    a: ["href", "title", "target", "rel"],
    img: ["src", "alt", "title", "width", "height", "loading", "decoding"],
    th: ["colspan", "rowspan", "scope"],
    td: ["colspan", "rowspan"],
    abbr: ["title"],
    ol: ["start", "reversed"],
    code: ["class"],
  },
  allowedClasses: { code: ["language-*"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  allowProtocolRelative: false,
  // Elements whose text must vanish with them, not be kept as loose text.
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "iframe",
    "object",
    "embed",
    "template",
    "title",
    "xmp",
    "noembed",
    "noframes",
    "svg",
    "math",
    "select",
    "button",
  ],
  transformTags: {
    // An h1 belongs to the page title; a body heading becomes an h2.
    h1: "h2",
    a: (tagName, attribs) => {
      const href = (attribs.href ?? "").trim();
      const attributes: sanitizeHtml.Attributes = {};
      if (attribs.title) attributes.title = attribs.title;
      if (safeHref.test(href)) {
        attributes.href = ownPath(href);
        if (isExternal(attributes.href)) {
          attributes.target = "_blank";
          attributes.rel = "noopener noreferrer";
        }
      }
      return { tagName, attribs: attributes };
    },
    img: (tagName, attribs) => {
      const src = (attribs.src ?? "").trim();
      const attributes: sanitizeHtml.Attributes = {};
      if (safeImageSrc.test(src)) attributes.src = src;
      attributes.alt = attribs.alt ?? "";
      attributes.loading = "lazy";
      attributes.decoding = "async";
      for (const name of ["title", "width", "height"]) {
        const value = attribs[name];
        if (value && (name === "title" || /^\d{1,4}$/.test(value))) attributes[name] = value;
      }
      return { tagName, attribs: attributes };
    },
  },
  // An image whose address was refused is dropped entirely.
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

/** The article body with everything outside the allowlist removed. */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, options);
}
