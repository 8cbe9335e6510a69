/*
 * The addresses a link of an article may have (the editor's dialog checks them as the sanitizer will): a
 * page of the site (/tarifs), an address on the web (https://…), an e-mail (mailto:…) or a place in the
 * page (#…).
 */

const LINK_ADDRESS =
  /^(?:https?:\/\/[^\s/$.?#][^\s]*|mailto:[^\s@]+@[^\s@]+|\/(?!\/)[^\s]*|#[^\s]*)$/i;

export const LINK_ADDRESS_MESSAGE =
  "Adresse invalide : une page du site (/tarifs), une adresse web (https://…) ou un e-mail (mailto:…)";

export function isLinkAddress(address: string): boolean {
  return LINK_ADDRESS.test(address.trim());
}

/** A page of the site the editor's dialog offers to link to. */
export type SitePage = { label: string; path: string; group: "Pages" | "Studios" | "Articles" };

/** Where the editor's dialog reads the site's pages from (admin only, JSON). */
export const SITE_PAGES_PATH = "/admin/pages-du-site";
