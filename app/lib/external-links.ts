/*
 * Links to other sites that the owner has not set yet (decision 0126). The seed fills the external links it
 * cannot know (the booking and gift-voucher services, the selfie-booth site, the host's site, the client
 * galleries) with addresses on the domains reserved for examples (RFC 2606, RFC 6761): the go-live checklist
 * lists them for the owner, and the public pages show no link to them, since no such site exists.
 */

const RESERVED_DOMAINS = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;

/** True for an address on a domain reserved for examples: a placeholder, not a site a visitor can open. */
export function isPlaceholderAddress(address: string): boolean {
  let host: string;
  try {
    host = new URL(address.trim()).hostname;
  } catch {
    return false;
  }
  return RESERVED_DOMAINS.test(host.replace(/\.$/, ""));
}

/** The address a public page links to: "" (no link) while it is still a placeholder. */
export const shownAddress = (address: string): string =>
  isPlaceholderAddress(address) ? "" : address;
