import type { SubscriberStatus } from "./newsletter";
import type { ToastMessage } from "./toast";

/*
 * The pages of the e-mailed links (/newsletter/confirmation, /newsletter/desabonnement): what their loader
 * and action tell the page, and the HTTP status that goes with it (decision record 0081).
 */

/** How long a confirmation link works; an unconfirmed sign-up is forgotten after it. */
export const CONFIRMATION_LIFETIME_DAYS = 7;

/** What a link's token leads to. */
export type LinkTarget =
  /** Not a token of ours, altered, or missing: 400. */
  | { kind: "invalid" }
  /** A genuine token whose time is over or whose subscriber is no longer there: 404. */
  | { kind: "gone" }
  /** The link of a test e-mail or a preview (it belongs to nobody): 200, nothing changes. */
  | { kind: "sample" }
  /** A subscriber, as it stands now; the token goes back into the page's form. */
  | { kind: "subscriber"; status: SubscriberStatus; email: string; token: string };

/** What the page's button has just done (or refused to do). */
export type LinkEvent =
  | "confirmed"
  | "unsubscribed"
  /** « Me réinscrire »: the address must confirm, an e-mail is on its way (decision 0081). */
  | "confirmation_sent"
  | "rate_limited";

/** `notice`: the words of a refusal (rate limit), written by the server so that these pages' code stays small. */
export type LinkPageData = { target: LinkTarget; event?: LinkEvent; notice?: ToastMessage };

/**
 * The pages' addresses hold a secret: never stored by a cache. (Nor sent to another site as a referrer:
 * the site's policy, strict-origin-when-cross-origin, sends other sites the origin only.)
 */
export const LINK_PAGE_HEADERS = { "Cache-Control": "no-store" };

export function linkPageStatus({ target, event }: LinkPageData): number {
  if (event === "rate_limited") return 429;
  if (target.kind === "invalid") return 400;
  if (target.kind === "gone") return 404;
  return 200;
}

/** The body of RFC 8058's one-click unsubscribe request, as a form field. */
export const ONE_CLICK_FIELD = { name: "List-Unsubscribe", value: "One-Click" } as const;

/** The unsubscribe page's button that brings the person back. */
export const RESUBSCRIBE_INTENT = "reinscrire";

/**
 * The sentence above « Me réinscrire » on the unsubscribe page, stored the same way. Non-breaking spaces
 * inside the quotation marks, as French typography wants (no line starting with a closing mark).
 */
export const RESUBSCRIBE_CONSENT_TEXT =
  "En cliquant sur «\u00a0Me réinscrire\u00a0», vous acceptez de recevoir de nouveau nos articles par email.";

/** The consent source of a person who came back through the unsubscribe page. */
export const RESUBSCRIBE_SOURCE = "reinscription";
