import { expect } from "vitest";

/**
 * The services, prices and gallery pages, with what their server HTML must say: the http tests read their
 * tags, the browser tests check each for axe and small screens.
 */
export const servicePages = [
  {
    path: "/prestations",
    h1: "Nos Prestations",
    title: /prestations/i,
    description: /Naissance, grossesse/,
  },
  {
    path: "/professionnels",
    h1: "Prestations pour les professionnels",
    title: /professionnels/i,
    description: /borne selfie/,
  },
  {
    path: "/gendarmerie",
    h1: "Offre Gendarmerie",
    title: /gendarmerie/i,
    description: /Offre spéciale 2025/,
  },
  {
    path: "/scolaire",
    h1: "Photographie scolaire",
    title: /scolaire/i,
    description: /Photos de classe/,
  },
  {
    path: "/portrait-famille",
    h1: "Portrait & Famille",
    title: /Portrait et famille/,
    description: /79\u00a0€/,
  },
  {
    path: "/prestations/grossesse",
    h1: "Photographie de grossesse",
    title: /grossesse/i,
    description: /7e ou 8e mois/,
  },
  {
    path: "/prestations/naissances",
    h1: "Photographie de naissance",
    title: /naissance/i,
    description: /99\u00a0€/,
  },
  {
    path: "/prestations/mariages",
    h1: "Photographe de mariage",
    title: /mariage/i,
    description: /à partir de 990\u00a0€/,
  },
  {
    path: "/seances-a-offrir",
    h1: "Séances à offrir",
    title: /à offrir/,
    description: /Iris, Fashion, Super-Héros ou Princesse/,
  },
  { path: "/tarifs", h1: "Nos Tarifs", title: /Nos Tarifs/, description: /sur devis/ },
  { path: "/galerie", h1: "Galerie", title: /Galerie/, description: /galeries photo/ },
  { path: "/boudoir", h1: "Galerie boudoir", title: /boudoir/i, description: /bientôt en ligne/ },
];

/** Elements a browser lays out as blocks: their text reads apart from their neighbours'. */
const BLOCKS = new Set(
  [
    "address article aside blockquote br dd div dl dt figcaption figure footer form",
    "h1 h2 h3 h4 h5 h6 header li main nav ol p section table td th tr ul",
  ]
    .join(" ")
    .split(" "),
);

// The site's utility classes: `block`, `flex` and `grid` lay an element out as a block, and a flex or grid
// container lays its children out as blocks (a price and its « au lieu de » read apart).
const classesOf = (element: Element) => (element.getAttribute("class") ?? "").split(/\s+/);
const laidOutAsBlock = (element: Element) =>
  BLOCKS.has(element.nodeName.toLowerCase()) ||
  classesOf(element).some((name) => name === "block" || name === "flex" || name === "grid");
const laysOutChildrenAsBlocks = (element: Element) =>
  classesOf(element).some((name) => /^(inline-)?(flex|grid)$/.test(name));

/**
 * The words of a node as a browser's `innerText` reads them: blocks (and flex or grid items) apart, inline
 * elements run on. With `accessible`, as an accessible name is computed: without what is hidden from
 * assistive technologies, an image by its alternative text.
 */
function wordsOf(node: Node, accessible: boolean, inBlockLayout = false): string {
  if (node.nodeType === 3) return node.textContent ?? "";
  if (node.nodeType !== 1) return "";
  const element = node as Element;
  const tag = element.nodeName.toLowerCase();
  if (tag === "script" || tag === "style" || tag === "template") return "";
  if (
    accessible &&
    (element.getAttribute("aria-hidden") === "true" || element.hasAttribute("hidden"))
  )
    return "";
  if (accessible && tag === "img") return ` ${element.getAttribute("alt") ?? ""} `;
  const childrenAsBlocks = laysOutChildrenAsBlocks(element);
  const inner = [...element.childNodes]
    .map((child) => wordsOf(child, accessible, childrenAsBlocks))
    .join("");
  return inBlockLayout || laidOutAsBlock(element) ? ` ${inner} ` : inner;
}

const normalised = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * The text of an element as a visitor reads it on the page (its `innerText`), spaces normalised: prices use
 * no-break spaces.
 */
export const readableText = (element: Element | null | undefined): string =>
  element ? normalised(wordsOf(element, false)) : "";

/** The accessible name of a link or button: its `aria-label`, or its text and images' alternatives. */
export function accessibleName(element: Element): string {
  const label = element.getAttribute("aria-label");
  if (label) return normalised(label);
  return normalised([...element.childNodes].map((child) => wordsOf(child, true)).join(""));
}

/**
 * The one link in `root` named `name` (exactly, or matching the pattern), as a browser test's
 * `getByRole("link", { name, exact: true })` finds it: fails when there is none or more than one.
 */
export function linkNamed(root: ParentNode | null, name: string | RegExp): Element {
  const links = [...(root?.querySelectorAll("a[href]") ?? [])].filter((link) => {
    const linkName = accessibleName(link);
    return typeof name === "string" ? linkName === name : name.test(linkName);
  });
  expect(links, `un seul lien « ${String(name)} »`).toHaveLength(1);
  return links[0] as Element;
}

/** The `href` of the one link in `root` named `name` (see `linkNamed`). */
export const hrefOf = (root: ParentNode | null, name: string | RegExp) =>
  linkNamed(root, name).getAttribute("href");

/** The structured data (JSON-LD blocks) of a server-rendered page. */
export const structuredData = (document: Document): Array<Record<string, unknown>> =>
  [...document.querySelectorAll('script[type="application/ld+json"]')].map(
    (block) => JSON.parse(block.textContent ?? "{}") as Record<string, unknown>,
  );
