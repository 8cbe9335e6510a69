import { parseHTML } from "linkedom";
import { serverBaseUrl } from "./server-under-test";

/** An answer of the server under test, with its body read and, for HTML, parsed. */
export type FetchedPage = {
  status: number;
  headers: Headers;
  /** The body as text. */
  html: string;
  /** The server-rendered document (linkedom: querySelector, textContent, attributes; no layout, no script). */
  document: Document;
};

type FetchOptions = Omit<RequestInit, "headers"> & {
  headers?: Record<string, string>;
  /** A Cookie header (`useAdmin().cookie()`). */
  cookie?: string;
};

/**
 * Parses an HTML string as the browser's DOMParser would, without a browser. HTML attribute names are
 * case-insensitive and browsers keep them in lower case; linkedom keeps them as written (React writes
 * `autoComplete`, `srcSet`, `fetchPriority`), so they are lowered here for selectors and getAttribute.
 */
export function parseDocument(html: string): Document {
  const document = parseHTML(html).document as unknown as Document;
  for (const element of document.querySelectorAll("*")) {
    for (const { name, value } of [...element.attributes]) {
      const lower = name.toLowerCase();
      if (lower === name || element.namespaceURI === "http://www.w3.org/2000/svg") continue;
      element.removeAttribute(name);
      element.setAttribute(lower, value);
    }
  }
  return document;
}

/**
 * GET (by default) a path of the server under test as a browser would ask for a page, and parses the answer:
 * for the checks of what the server renders (status, headers, the HTML before any script). Redirects are not
 * followed unless `redirect: "follow"` is passed, so that a test sees the status and `Location` it expects.
 */
export async function fetchPage(path: string, options: FetchOptions = {}): Promise<FetchedPage> {
  const { cookie, headers = {}, ...init } = options;
  const response = await fetch(new URL(path, serverBaseUrl()), {
    redirect: "manual",
    ...init,
    headers: { Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}), ...headers },
  });
  const html = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    html,
    document: parseDocument(html),
  };
}

/**
 * POSTs a form to the server under test as the site's own page would (same-origin `Origin`, url-encoded),
 * without following the redirect that answers a successful post.
 */
export function postForm(
  path: string,
  fields: Record<string, string> | URLSearchParams,
  options: FetchOptions = {},
): Promise<FetchedPage> {
  const { headers = {}, ...init } = options;
  return fetchPage(path, {
    method: "POST",
    body: fields instanceof URLSearchParams ? fields : new URLSearchParams(fields),
    ...init,
    headers: { Origin: new URL(serverBaseUrl()).origin, ...headers },
  });
}

/** An element's text as a reader sees it: runs of white space as one space, trimmed. */
export const textOf = (element: Element | null | undefined): string =>
  (element?.textContent ?? "").replace(/\s+/g, " ").trim();

/** The `content` of `<meta name=…>` or `<meta property=…>`, or null. */
export function metaContent(document: Document, key: string): string | null {
  return (
    document
      .querySelector(`meta[name="${key}"], meta[property="${key}"]`)
      ?.getAttribute("content") ?? null
  );
}
