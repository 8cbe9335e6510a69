import { data, type RouterContextProvider } from "react-router";
import { and, eq, ne, sql, type SQL } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { clientAddressContext } from "../context";
import { pagePath } from "../page-path.server";
import { db } from "../db/client.server";
import type { SubscriberStatus } from "~/lib/newsletter";
import { blogNewsletterSubscribers } from "../db/schema";
import type { Executor } from "../jobs/queue.server";
import { log } from "../logger.server";
import { enqueueConfirmationMail } from "./confirmation-email.server";
import { SAMPLE_SUBSCRIBER } from "./links.server";
import { consumeRateLimit } from "../rate-limit.server";
import { verifyLinkToken, type LinkPurpose } from "../signed-link.server";
import { isUuid, parseForm } from "~/lib/forms";
import {
  invalidEmailToast,
  NEWSLETTER_CONSENT_TEXT,
  newsletterSources,
  newsletterToasts,
  type NewsletterResult,
  type NewsletterSource,
} from "~/lib/newsletter";
import { newsletterSchema } from "~/lib/newsletter-schema";
import {
  LINK_PAGE_HEADERS,
  linkPageStatus,
  RESUBSCRIBE_CONSENT_TEXT,
  RESUBSCRIBE_SOURCE,
  type LinkPageData,
  type LinkTarget,
} from "~/lib/newsletter-links";

/*
 * The subscriber's own steps (decision records 0032, 0081): signing up (a pending address and its
 * confirmation e-mail), confirming from the e-mailed link, leaving and coming back from the unsubscribe
 * link. The owner's steps (import, unsubscribe, delete) are in newsletter/subscribers.server.ts.
 */

/** Sign-ups allowed per client address and window: enough for a family behind one box, not for a bot. */
export const NEWSLETTER_RATE_LIMIT = { limit: 5, windowSeconds: 10 * 60 };

/** A pending address signing up again gets its confirmation e-mail again, at most this often. */
export const CONFIRMATION_RESEND_MINUTES = 60;

/** Where the unsubscribe page records a re-subscription's consent. */
export const UNSUBSCRIBE_PAGE = "/newsletter/desabonnement";

const CONSENT_PAGE_MAX_LENGTH = 500;

export type SignUp = {
  email: string;
  source: NewsletterSource;
  /** The path of the page whose form the person used. */
  page: string;
};

export type SignUpOutcome =
  /** A new, pending or returning address, waiting for its confirmation (queued now or within the hour). */
  | { outcome: "subscribed"; subscriberId: string; confirmationQueued: boolean }
  /** Already receiving the newsletter: nothing changed. */
  | { outcome: "duplicate"; subscriberId: string };

/** The consent a pending address will confirm: where and on which sentence the person asked. */
type Consent = { consentSource: string; consentPage: string; consentText: string };

/** True when the address's last confirmation e-mail is old enough to be sent again (or was never sent). */
const resendDue = sql<boolean>`coalesce(confirmation_sent_at <= now() - make_interval(mins => ${CONFIRMATION_RESEND_MINUTES}), true)`;

/**
 * An address that is not active asks to receive the newsletter (a sign-up, or « Me réinscrire » long after
 * leaving): it becomes pending with this consent, to be confirmed from the e-mail, queued in `tx` when due.
 * The row is locked by the caller (`for update`). Returns whether an e-mail was queued.
 */
async function awaitConfirmation(
  tx: Executor,
  row: { id: string; status: SubscriberStatus; resend_due: boolean },
  consent: Consent,
): Promise<boolean> {
  // Back after leaving: a new consent, to be confirmed again; the old dates belong to the old one.
  const returning = row.status === "unsubscribed";
  const send = returning || row.resend_due;
  await tx
    .update(blogNewsletterSubscribers)
    .set({
      ...consent,
      status: "pending",
      lastActivityAt: sql`now()`,
      ...(returning ? { subscribedAt: sql`now()`, confirmedAt: null, unsubscribedAt: null } : {}),
      ...(send ? { confirmationSentAt: sql`now()` } : {}),
    })
    .where(eq(blogNewsletterSubscribers.id, row.id));
  if (send) await enqueueConfirmationMail({ subscriberId: row.id }, { tx });
  return send;
}

/**
 * Records a sign-up and, in the same transaction, queues the confirmation e-mail when one is due: for a
 * new address, for one that had left, and for a pending one whose last e-mail is an hour old or more.
 * An active address is left as it is. Concurrent sign-ups of one address wait for each other on the row
 * (the insert's unique index, then `for update`): one row, at most one confirmation.
 */
export async function subscribeToNewsletter({
  email,
  source,
  page,
}: SignUp): Promise<SignUpOutcome> {
  const consent: Consent = {
    consentSource: source,
    consentPage: page.slice(0, CONSENT_PAGE_MAX_LENGTH),
    consentText: NEWSLETTER_CONSENT_TEXT,
  };
  // A retry only if the row vanished between the two statements (deleted by the owner or the purge).
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await db().transaction(async (tx): Promise<SignUpOutcome | null> => {
      const inserted = await tx.execute<{ id: string }>(sql`
        insert into blog_newsletter_subscribers
          (email, status, consent_source, consent_page, consent_text, confirmation_sent_at)
        values (${email}, 'pending', ${consent.consentSource}, ${consent.consentPage},
          ${consent.consentText}, now())
        on conflict ((lower(email))) do nothing
        returning id
      `);
      const created = inserted.rows[0];
      if (created) {
        await enqueueConfirmationMail({ subscriberId: created.id }, { tx });
        return { outcome: "subscribed", subscriberId: created.id, confirmationQueued: true };
      }

      const existing = await tx.execute<{
        id: string;
        status: SubscriberStatus;
        resend_due: boolean;
      }>(sql`
        select id, status, ${resendDue} as resend_due
        from blog_newsletter_subscribers where lower(email) = lower(${email})
        for update
      `);
      const row = existing.rows[0];
      if (!row) return null;
      if (row.status === "active") return { outcome: "duplicate", subscriberId: row.id };
      const confirmationQueued = await awaitConfirmation(tx, row, consent);
      return { outcome: "subscribed", subscriberId: row.id, confirmationQueued };
    });
    if (outcome) return outcome;
  }
  throw new Error("L'inscription n'a pas pu être enregistrée.");
}

function answer(result: NewsletterResult["newsletter"], status: number) {
  // The outcome concerns one visitor: never stored by a shared cache.
  return data<NewsletterResult>(
    { newsletter: result },
    { status, headers: { "Cache-Control": "no-store" } },
  );
}

/** The newsletter form's action, shared by the pages that show the form (works without JavaScript). */
export async function handleNewsletterSubmission(
  request: Request,
  context: Readonly<RouterContextProvider>,
) {
  const formData = await request.formData();
  const submitted = formData.get("email");
  const email = typeof submitted === "string" ? submitted : "";
  const sourceField = formData.get("source");
  const source = newsletterSources.find((value) => value === sourceField) ?? "blog";
  // The form posts to the page that shows it: the action's address is the page's (with JavaScript, its
  // data request's: "/blog.data").
  const page = pagePath(new URL(request.url).pathname);

  try {
    const client = context.get(clientAddressContext);
    const limit = await consumeRateLimit(`newsletter:${client}`, NEWSLETTER_RATE_LIMIT);
    if (!limit.allowed) {
      return answer({ outcome: "rate_limited", toast: newsletterToasts.rate_limited, email }, 429);
    }

    const parsed = parseForm({ email }, newsletterSchema);
    if (!parsed.ok) {
      const message = parsed.errors.email ?? "Email invalide";
      return answer({ outcome: "invalid", toast: invalidEmailToast(message), email }, 400);
    }

    const signUp = await subscribeToNewsletter({ email: parsed.data.email, source, page });
    if (signUp.outcome === "subscribed") {
      log.info("newsletter_subscribed", {
        source,
        confirmationQueued: signUp.confirmationQueued,
      });
    }
    return answer(
      signUp.outcome === "subscribed"
        ? { outcome: "subscribed", toast: newsletterToasts.subscribed }
        : { outcome: "duplicate", toast: newsletterToasts.duplicate },
      200,
    );
  } catch (error) {
    log.error("newsletter_failed", { error });
    return answer({ outcome: "error", toast: newsletterToasts.error, email }, 500);
  }
}

// --- The e-mailed links' steps ------------------------------------------------------------------------

/*
 * What the link pages count (decision record 0081): what can be abused, never a genuine unsubscribe. A valid
 * token's unsubscribe is idempotent and must always be honoured (refusing it would be a legal fault, and
 * without TRUST_PROXY every client shares one budget): it is neither counted nor refused. Counted: the
 * requests whose token leads to no subscriber (forged, expired, deleted, a test e-mail's), the presses of
 * « Me réinscrire » and of « Confirmer mon inscription ».
 */

/** Counted presses and requests per client address and window: a person needs a handful. */
export const NEWSLETTER_LINK_RATE_LIMIT = { limit: 20, windowSeconds: 10 * 60 };

/**
 * One-click requests (RFC 8058) leading to no subscriber, per client address and window: a budget of their
 * own, since a mail provider sends those of all its users from a few servers.
 */
export const ONE_CLICK_RATE_LIMIT = { limit: 600, windowSeconds: 10 * 60 };

/** Counts one request of a link page for this client; false when it is one too many. */
export async function linkPressAllowed(
  context: Readonly<RouterContextProvider>,
  { oneClick = false }: { oneClick?: boolean } = {},
): Promise<boolean> {
  const client = context.get(clientAddressContext);
  const limit = oneClick
    ? await consumeRateLimit(`newsletter-un-clic:${client}`, ONE_CLICK_RATE_LIMIT)
    : await consumeRateLimit(`newsletter-lien:${client}`, NEWSLETTER_LINK_RATE_LIMIT);
  return limit.allowed;
}

/** What an e-mailed link's token leads to: a subscriber (with its id, for the server), or a page's answer. */
export type SubscriberLink =
  | Exclude<LinkTarget, { kind: "subscriber" }>
  | { kind: "subscriber"; subscriber: Subscriber; token: string };

/** The token a link page's button posts (its form's field), else the address's (a one-click request). */
export function postedToken(request: Request, form: FormData): string | null {
  const field = form.get("token");
  return typeof field === "string" ? field : new URL(request.url).searchParams.get("token");
}

/** Reads a link's token (checked, then looked up). */
export async function readSubscriberLink(
  purpose: LinkPurpose,
  token: string | null,
): Promise<SubscriberLink> {
  if (!token) return { kind: "invalid" };
  const check = await verifyLinkToken(purpose, token);
  // An expired confirmation is also gone: the daily purge forgets unconfirmed sign-ups at that age.
  if (!check.ok) return { kind: check.reason === "expired" ? "gone" : "invalid" };
  if (check.subject === SAMPLE_SUBSCRIBER) return { kind: "sample" };
  if (!isUuid(check.subject)) return { kind: "invalid" };
  const subscriber = await findSubscriber(check.subject);
  return subscriber ? { kind: "subscriber", subscriber, token } : { kind: "gone" };
}

/** What the page is told of a link (the subscriber's id stays on the server). */
export function linkTarget(link: SubscriberLink): LinkTarget {
  if (link.kind !== "subscriber") return link;
  const { status, email } = link.subscriber;
  return { kind: "subscriber", status, email, token: link.token };
}

/** A link page's loader or action answer, with its status (400, 404, 429 or 200) and headers. */
export function linkPageAnswer(page: LinkPageData) {
  const answered: LinkPageData =
    page.event === "rate_limited" ? { ...page, notice: newsletterToasts.rate_limited } : page;
  return data(answered, { status: linkPageStatus(page), headers: LINK_PAGE_HEADERS });
}

/** The link after a step: the subscriber as the step left it (null: deleted meanwhile). */
export function afterStep(link: SubscriberLink, subscriber: Subscriber | null): SubscriberLink {
  return subscriber && link.kind === "subscriber" ? { ...link, subscriber } : { kind: "gone" };
}

export type Subscriber = { id: string; email: string; status: SubscriberStatus };

const subscriberColumns = {
  id: blogNewsletterSubscribers.id,
  email: blogNewsletterSubscribers.email,
  status: blogNewsletterSubscribers.status,
};

export async function findSubscriber(id: string): Promise<Subscriber | null> {
  const [row] = await db()
    .select(subscriberColumns)
    .from(blogNewsletterSubscribers)
    .where(eq(blogNewsletterSubscribers.id, id));
  return row ?? null;
}

/**
 * A link's step on subscriber `id`: `change` when `applies` (its status allows it). Returns the subscriber
 * as it stands afterwards, `changed` when this call changed it; null when it no longer exists.
 */
async function step(
  id: string,
  change: PgUpdateSetSource<typeof blogNewsletterSubscribers>,
  applies: SQL,
): Promise<(Subscriber & { changed: boolean }) | null> {
  const [changed] = await db()
    .update(blogNewsletterSubscribers)
    .set({ ...change, lastActivityAt: sql`now()` })
    .where(and(eq(blogNewsletterSubscribers.id, id), applies))
    .returning(subscriberColumns);
  if (changed) return { ...changed, changed: true };
  const current = await findSubscriber(id);
  return current ? { ...current, changed: false } : null;
}

/**
 * The button of the confirmation page: a pending address becomes active, dated. Anything else is left as
 * it is (an address that left since the e-mail stays gone: only a new sign-up brings it back). Returns the
 * subscriber as it stands afterwards, `changed` when this call confirmed it.
 */
export async function confirmSubscription(
  id: string,
): Promise<(Subscriber & { changed: boolean }) | null> {
  const result = await step(
    id,
    { status: "active", confirmedAt: sql`now()` },
    eq(blogNewsletterSubscribers.status, "pending"),
  );
  if (result?.changed) log.info("newsletter_confirmed", { subscriberId: id });
  return result;
}

/** The unsubscribe link (page button or one-click POST): the address stops receiving, dated. Idempotent. */
export async function unsubscribe(
  id: string,
  { oneClick }: { oneClick: boolean },
): Promise<(Subscriber & { changed: boolean }) | null> {
  const result = await step(
    id,
    { status: "unsubscribed", unsubscribedAt: sql`now()` },
    ne(blogNewsletterSubscribers.status, "unsubscribed"),
  );
  if (result?.changed) log.info("newsletter_unsubscribed", { subscriberId: id, oneClick });
  return result;
}

export type ResubscribeOutcome =
  /** Pending, waiting for the confirmation e-mail (queued now, or less than an hour ago). */
  | "confirmation_sent"
  /** Already active: nothing changed. */
  | "unchanged";

/**
 * « Me réinscrire » on the unsubscribe page: the press is a new consent, recorded as such (source
 * 'reinscription', the page, its sentence, the date). The unsubscribe link never expires and proves only
 * that someone holds one of the person's newsletters (forwarded, archived, or a program's): like a sign-up,
 * the address is pending until it confirms from the e-mail queued here, at most once an hour (decision
 * 0081, amended 2026-11-29). Returns the subscriber as it stands afterwards.
 */
export async function resubscribe(
  id: string,
): Promise<(Subscriber & { outcome: ResubscribeOutcome }) | null> {
  const consent: Consent = {
    consentSource: RESUBSCRIBE_SOURCE,
    consentPage: UNSUBSCRIBE_PAGE,
    consentText: RESUBSCRIBE_CONSENT_TEXT,
  };
  const result = await db().transaction(async (tx) => {
    const found = await tx.execute<Subscriber & { resend_due: boolean }>(sql`
      select id, email, status, ${resendDue} as resend_due
      from blog_newsletter_subscribers where id = ${id}
      for update
    `);
    const row = found.rows[0];
    if (!row) return null;
    const subscriber = { id: row.id, email: row.email };
    if (row.status === "active") {
      return { ...subscriber, status: row.status, outcome: "unchanged" as const };
    }
    const confirmationQueued = await awaitConfirmation(tx, row, consent);
    return {
      ...subscriber,
      status: "pending" as const,
      outcome: "confirmation_sent" as const,
      confirmationQueued,
    };
  });
  if (!result) return null;
  if (result.outcome !== "unchanged") {
    log.info("newsletter_resubscribed", {
      subscriberId: id,
      outcome: result.outcome,
      ...("confirmationQueued" in result ? { confirmationQueued: result.confirmationQueued } : {}),
    });
  }
  return { id: result.id, email: result.email, status: result.status, outcome: result.outcome };
}
