import { sql } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { clientAddressContext } from "../context";
import { db } from "../db/client.server";
import { blogNewsletterSubscribers } from "../db/schema";
import {
  CONFIRMATION_RESEND_MINUTES,
  confirmSubscription,
  findSubscriber,
  handleNewsletterSubmission,
  linkPressAllowed,
  NEWSLETTER_LINK_RATE_LIMIT,
  NEWSLETTER_RATE_LIMIT,
  ONE_CLICK_RATE_LIMIT,
  readSubscriberLink,
  resubscribe,
  subscribeToNewsletter,
  unsubscribe,
} from "./sign-up.server";
import { confirmationEmail } from "./confirmation-email.server";
import { SAMPLE_SUBSCRIBER } from "./links.server";
import { signLinkToken, verifyLinkToken } from "../signed-link.server";
import { formatLongDateTimeFr } from "~/lib/dates";
import { RESUBSCRIBE_INTENT } from "~/lib/newsletter-links";
import * as confirmationPage from "~/routes/newsletter/confirmation.server";
import * as unsubscribePage from "~/routes/newsletter/desabonnement.server";
import { NEWSLETTER_CONSENT_TEXT } from "~/lib/newsletter";
import { RESUBSCRIBE_CONSENT_TEXT, RESUBSCRIBE_SOURCE } from "~/lib/newsletter-links";

useAppDatabase({ jobs: true });

beforeEach(async () => {
  await db().execute(sql`delete from rate_limits`);
});

function contextFor(client: string) {
  const context = new RouterContextProvider();
  context.set(clientAddressContext, client);
  return context;
}

async function submit(fields: Record<string, string>, client = "192.0.2.1", page = "/blog") {
  const request = new Request(`http://localhost${page}`, {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  const response = await handleNewsletterSubmission(request, contextFor(client));
  return { status: response.init?.status, ...response.data.newsletter };
}

async function rowsFor(email: string) {
  return db()
    .select()
    .from(blogNewsletterSubscribers)
    .where(sql`lower(email) = lower(${email})`);
}

async function rowFor(email: string) {
  const [row] = await rowsFor(email);
  if (!row) throw new Error(`Aucun abonné ${email}`);
  return row;
}

/** The confirmation e-mails queued for this subscriber (jobs of the queue `mail`, not sent here). */
async function confirmationsQueued(subscriberId: string): Promise<number> {
  const result = await db().execute<{ count: string }>(sql`
    select count(*) as count from pgboss.job
    where name = 'mail' and data->>'kind' = 'confirmation' and data->>'subscriberId' = ${subscriberId}
  `);
  return Number(result.rows[0]?.count ?? 0);
}

/** Moves the last confirmation e-mail of `email` back in time. */
async function confirmationSentMinutesAgo(email: string, minutes: number) {
  await db().execute(sql`
    update blog_newsletter_subscribers
    set confirmation_sent_at = now() - make_interval(mins => ${minutes})
    where lower(email) = lower(${email})
  `);
}

const signUp = (email: string, source: "blog" | "article" = "blog", page = "/blog") =>
  subscribeToNewsletter({ email, source, page });

describe("newsletter sign-up (double opt-in)", () => {
  it("records a new address as pending with its consent, and queues its confirmation in the same step", async () => {
    // With JavaScript the form posts to the page's data address.
    const result = await submit(
      { email: "  marie@example.com  ", source: "article" },
      "192.0.2.1",
      "/blog/seance-automne.data",
    );
    expect(result).toMatchObject({
      status: 200,
      outcome: "subscribed",
      // The step left, not SPEC §8's 'Inscription réussie !' (decision record 0112).
      toast: {
        title: "Vérifiez votre boîte mail.",
        description:
          "Pour terminer votre inscription, ouvrez l'email que nous vous avons envoyé et cliquez sur «\u00a0Confirmer mon inscription\u00a0». Sans confirmation, vous ne recevrez rien.",
      },
    });
    expect(result.email).toBeUndefined();
    const row = await rowFor("marie@example.com");
    expect(row).toMatchObject({
      email: "marie@example.com",
      status: "pending",
      active: false,
      consentSource: "article",
      consentPage: "/blog/seance-automne",
      consentText: NEWSLETTER_CONSENT_TEXT,
      confirmedAt: null,
      unsubscribedAt: null,
    });
    expect(row.subscribedAt).toBeInstanceOf(Date);
    expect(row.confirmationSentAt).toBeInstanceOf(Date);
    expect(await confirmationsQueued(row.id)).toBe(1);
  });

  it("answers a pending address like a new one, and sends its confirmation again only after an hour", async () => {
    const email = "relance@example.com";
    await submit({ email });
    const { id } = await rowFor(email);
    const again = await submit({ email: "Relance@Example.com" });
    expect(again).toMatchObject({ status: 200, outcome: "subscribed" });
    expect(await confirmationsQueued(id)).toBe(1);

    await confirmationSentMinutesAgo(email, CONFIRMATION_RESEND_MINUTES - 1);
    expect(await signUp(email)).toEqual({
      outcome: "subscribed",
      subscriberId: id,
      confirmationQueued: false,
    });
    expect(await confirmationsQueued(id)).toBe(1);

    await confirmationSentMinutesAgo(email, CONFIRMATION_RESEND_MINUTES);
    const before = new Date();
    expect(await signUp(email, "article", "/blog/autre-article")).toEqual({
      outcome: "subscribed",
      subscriberId: id,
      confirmationQueued: true,
    });
    expect(await confirmationsQueued(id)).toBe(2);
    const row = await rowFor(email);
    expect(row.status).toBe("pending");
    expect(row.confirmationSentAt?.getTime()).toBeGreaterThan(before.getTime() - 5_000);
    // The latest sign-up is the consent the confirmation will prove.
    expect(row).toMatchObject({ consentSource: "article", consentPage: "/blog/autre-article" });
    expect(await rowsFor(email)).toHaveLength(1);
  });

  it("answers 'Déjà inscrit·e' for an active address, whatever its case, and changes nothing", async () => {
    await signUp("paul@example.com");
    const { id } = await rowFor("paul@example.com");
    await confirmSubscription(id);
    const confirmed = await rowFor("paul@example.com");
    for (const email of ["paul@example.com", "Paul@Example.COM"]) {
      const result = await submit({ email });
      expect(result).toMatchObject({
        status: 200,
        outcome: "duplicate",
        toast: {
          title: "Déjà inscrit·e",
          description: "Cette adresse email est déjà abonnée à la newsletter.",
        },
      });
    }
    expect(await rowsFor("paul@example.com")).toEqual([confirmed]);
    expect(await confirmationsQueued(id)).toBe(1);
  });

  it("makes an address that had left pending again, with the new consent, and sends a confirmation at once", async () => {
    const email = "retour@example.com";
    await signUp(email);
    const { id } = await rowFor(email);
    await confirmSubscription(id);
    await unsubscribe(id, { oneClick: false });
    await db().execute(sql`
      update blog_newsletter_subscribers set subscribed_at = now() - interval '1 year' where id = ${id}
    `);
    expect(await signUp(email, "article", "/blog/retour")).toEqual({
      outcome: "subscribed",
      subscriberId: id,
      confirmationQueued: true,
    });
    const row = await rowFor(email);
    expect(row).toMatchObject({
      status: "pending",
      consentSource: "article",
      consentPage: "/blog/retour",
      consentText: NEWSLETTER_CONSENT_TEXT,
      confirmedAt: null,
      unsubscribedAt: null,
    });
    expect(Date.now() - row.subscribedAt.getTime()).toBeLessThan(60_000);
    expect(await confirmationsQueued(id)).toBe(2);
  });

  it("keeps one row and queues one confirmation when one address signs up twenty times at once", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        signUp(index % 2 ? "Lea@example.com" : "lea@example.com"),
      ),
    );
    expect(outcomes.every((outcome) => outcome.outcome === "subscribed")).toBe(true);
    expect(
      outcomes.filter((outcome) => "confirmationQueued" in outcome && outcome.confirmationQueued),
    ).toHaveLength(1);
    const rows = await rowsFor("lea@example.com");
    expect(rows).toHaveLength(1);
    expect(await confirmationsQueued(rows[0]?.id ?? "")).toBe(1);
  });

  it("sends one confirmation, not ten, when a due resend or a return is asked for ten times at once", async () => {
    const email = "course@example.com";
    await signUp(email);
    const { id } = await rowFor(email);
    await confirmationSentMinutesAgo(email, 2 * CONFIRMATION_RESEND_MINUTES);
    await Promise.all(Array.from({ length: 10 }, () => signUp(email)));
    expect(await confirmationsQueued(id)).toBe(2);

    await confirmSubscription(id);
    await unsubscribe(id, { oneClick: true });
    await Promise.all(Array.from({ length: 10 }, () => signUp(email)));
    expect(await confirmationsQueued(id)).toBe(3);
    expect((await rowFor(email)).status).toBe("pending");
  });

  it("refuses an invalid or too long address with the message of SPEC §5, keeping what was typed", async () => {
    expect(await submit({ email: "pas-une-adresse" })).toMatchObject({
      status: 400,
      outcome: "invalid",
      email: "pas-une-adresse",
      toast: { type: "error", title: "Erreur", description: "Email invalide" },
    });
    expect(await submit({ email: "" })).toMatchObject({
      status: 400,
      toast: { description: "Email invalide" },
    });
    const long = `${"a".repeat(250)}@example.com`;
    expect(await submit({ email: long })).toMatchObject({
      status: 400,
      toast: { title: "Erreur", description: "Email trop long" },
    });
    expect(await rowsFor(long)).toHaveLength(0);
  });

  it("stores an unknown form name as 'blog' (the consent source is not free text)", async () => {
    await submit({ email: "source@example.com", source: "<script>" });
    expect((await rowsFor("source@example.com"))[0]?.consentSource).toBe("blog");
  });

  it("limits attempts per client address: 'Trop de tentatives'", async () => {
    for (let attempt = 0; attempt < NEWSLETTER_RATE_LIMIT.limit; attempt++) {
      expect((await submit({ email: `essai${attempt}@example.com` }, "192.0.2.9")).status).toBe(
        200,
      );
    }
    expect(await submit({ email: "encore@example.com" }, "192.0.2.9")).toMatchObject({
      status: 429,
      outcome: "rate_limited",
      toast: {
        type: "error",
        title: "Trop de tentatives",
        description: "Veuillez réessayer dans quelques minutes.",
      },
    });
    expect(await rowsFor("encore@example.com")).toHaveLength(0);
    // Another visitor is not affected.
    expect((await submit({ email: "autre@example.com" }, "192.0.2.10")).outcome).toBe("subscribed");
  });
});

describe("the e-mailed links", () => {
  async function pendingSubscriber(email: string) {
    await signUp(email);
    return rowFor(email);
  }

  it("confirms a pending address once: active, dated; a second press changes nothing", async () => {
    const { id } = await pendingSubscriber("confirme@example.com");
    const before = Date.now();
    expect(await confirmSubscription(id)).toMatchObject({ status: "active", changed: true });
    const row = await rowFor("confirme@example.com");
    expect(row).toMatchObject({ status: "active", active: true });
    expect(row.confirmedAt?.getTime()).toBeGreaterThan(before - 5_000);
    expect(row.lastActivityAt.getTime()).toBeGreaterThan(before - 5_000);
    expect(await confirmSubscription(id)).toMatchObject({ status: "active", changed: false });
    expect((await rowFor("confirme@example.com")).confirmedAt).toEqual(row.confirmedAt);
  });

  it("does not bring back through an old confirmation link an address that left since", async () => {
    const { id } = await pendingSubscriber("parti@example.com");
    await unsubscribe(id, { oneClick: false });
    expect(await confirmSubscription(id)).toMatchObject({
      status: "unsubscribed",
      changed: false,
    });
  });

  it("unsubscribes (dated, idempotent), then re-subscribes with the consent of the unsubscribe page", async () => {
    const { id } = await pendingSubscriber("aller-retour@example.com");
    await confirmSubscription(id);
    expect(await unsubscribe(id, { oneClick: true })).toMatchObject({
      status: "unsubscribed",
      changed: true,
    });
    const left = await rowFor("aller-retour@example.com");
    expect(left).toMatchObject({ status: "unsubscribed", active: false });
    expect(left.unsubscribedAt).toBeInstanceOf(Date);
    expect(await unsubscribe(id, { oneClick: false })).toMatchObject({ changed: false });
    expect((await rowFor("aller-retour@example.com")).unsubscribedAt).toEqual(left.unsubscribedAt);

    // Even a minute after leaving, the press (perhaps a program's, holding a forwarded e-mail's token)
    // waits for the address's confirmation, as a sign-up does (decision 0081, amended 2026-11-29).
    const before = Date.now();
    expect(await resubscribe(id)).toMatchObject({
      status: "pending",
      outcome: "confirmation_sent",
    });
    const back = await rowFor("aller-retour@example.com");
    expect(back).toMatchObject({
      status: "pending",
      consentSource: RESUBSCRIBE_SOURCE,
      consentPage: "/newsletter/desabonnement",
      consentText: RESUBSCRIBE_CONSENT_TEXT,
      confirmedAt: null,
      unsubscribedAt: null,
    });
    expect(back.subscribedAt.getTime()).toBeGreaterThan(before - 5_000);
    expect(await confirmationsQueued(id)).toBe(2);
    await confirmSubscription(id);
    expect(await resubscribe(id)).toMatchObject({ status: "active", outcome: "unchanged" });
    expect(await confirmationsQueued(id)).toBe(2);
  });

  it("asks an address that left more than a day ago to confirm « Me réinscrire » by e-mail (an old e-mail's link proves nothing)", async () => {
    const email = "ancien-lien@example.com";
    const { id } = await pendingSubscriber(email);
    await confirmSubscription(id);
    await unsubscribe(id, { oneClick: true });
    await db().execute(sql`
      update blog_newsletter_subscribers
      set unsubscribed_at = now() - make_interval(hours => 25),
        subscribed_at = now() - interval '1 year', confirmation_sent_at = now() - interval '1 year'
      where id = ${id}
    `);
    const before = Date.now();
    expect(await resubscribe(id)).toEqual({
      id,
      email,
      status: "pending",
      outcome: "confirmation_sent",
    });
    const row = await rowFor(email);
    expect(row).toMatchObject({
      status: "pending",
      active: false,
      consentSource: RESUBSCRIBE_SOURCE,
      consentPage: "/newsletter/desabonnement",
      consentText: RESUBSCRIBE_CONSENT_TEXT,
      confirmedAt: null,
      unsubscribedAt: null,
    });
    expect(row.subscribedAt.getTime()).toBeGreaterThan(before - 5_000);
    expect(row.confirmationSentAt?.getTime()).toBeGreaterThan(before - 5_000);
    expect(await confirmationsQueued(id)).toBe(2);

    // Pressed again: still pending, the e-mail again only after an hour, as for a sign-up.
    expect(await resubscribe(id)).toMatchObject({
      status: "pending",
      outcome: "confirmation_sent",
    });
    expect(await confirmationsQueued(id)).toBe(2);
    await confirmationSentMinutesAgo(email, CONFIRMATION_RESEND_MINUTES);
    expect(await resubscribe(id)).toMatchObject({
      status: "pending",
      outcome: "confirmation_sent",
    });
    expect(await confirmationsQueued(id)).toBe(3);
    // Only the e-mailed link makes her active.
    expect(await confirmSubscription(id)).toMatchObject({ status: "active", changed: true });
  });

  it("does not let « Me réinscrire » skip the confirmation of a pending sign-up", async () => {
    const email = "en-attente@example.com";
    const { id } = await pendingSubscriber(email);
    expect(await resubscribe(id)).toMatchObject({
      status: "pending",
      outcome: "confirmation_sent",
    });
    const row = await rowFor(email);
    expect(row).toMatchObject({
      status: "pending",
      confirmedAt: null,
      consentSource: RESUBSCRIBE_SOURCE,
    });
    // The sign-up's e-mail is less than an hour old: not sent again.
    expect(await confirmationsQueued(id)).toBe(1);
    expect(await resubscribe(crypto.randomUUID())).toBeNull();
  });

  it("reads a link's token: its subscriber, a test e-mail's, a forged or altered one, an expired or orphaned one", async () => {
    const { id, email } = await pendingSubscriber("jeton@example.com");
    const token = await signLinkToken("newsletter-confirm", id, { lifetimeSeconds: 3600 });
    expect(await readSubscriberLink("newsletter-confirm", token)).toEqual({
      kind: "subscriber",
      subscriber: { id, email, status: "pending" },
      token,
    });
    expect(
      await readSubscriberLink(
        "newsletter-unsubscribe",
        await signLinkToken("newsletter-unsubscribe", SAMPLE_SUBSCRIBER),
      ),
    ).toEqual({ kind: "sample" });
    // The token of one purpose does not work for the other.
    expect(await readSubscriberLink("newsletter-unsubscribe", token)).toEqual({ kind: "invalid" });
    // Another subscriber's id under this signature: refused.
    const [body, signature] = token.split(".");
    const other = Buffer.from(
      JSON.stringify({ p: "newsletter-confirm", s: crypto.randomUUID() }),
    ).toString("base64url");
    expect(await readSubscriberLink("newsletter-confirm", `${other}.${signature}`)).toEqual({
      kind: "invalid",
    });
    for (const forged of [null, "", "abc", `${body}.`, `${body}.${signature}x`, "a.b.c"]) {
      expect(await readSubscriberLink("newsletter-confirm", forged)).toEqual({ kind: "invalid" });
    }
    const late = await signLinkToken("newsletter-confirm", id, {
      lifetimeSeconds: 60,
      now: Date.now() - 120_000,
    });
    expect(await readSubscriberLink("newsletter-confirm", late)).toEqual({ kind: "gone" });
    const deleted = await signLinkToken("newsletter-unsubscribe", crypto.randomUUID());
    expect(await readSubscriberLink("newsletter-unsubscribe", deleted)).toEqual({ kind: "gone" });
    const notAnId = await signLinkToken("newsletter-unsubscribe", "pas-un-identifiant");
    expect(await readSubscriberLink("newsletter-unsubscribe", notAnId)).toEqual({
      kind: "invalid",
    });
  });

  it("limits the pages' buttons per client, with a larger budget of its own for one-click requests", async () => {
    const visitor = contextFor("198.51.100.7");
    for (let press = 0; press < NEWSLETTER_LINK_RATE_LIMIT.limit; press++) {
      expect(await linkPressAllowed(visitor)).toBe(true);
    }
    expect(await linkPressAllowed(visitor)).toBe(false);
    // A mail provider's servers unsubscribing many of its users: still honoured.
    expect(await linkPressAllowed(visitor, { oneClick: true })).toBe(true);
    expect(await linkPressAllowed(contextFor("198.51.100.8"))).toBe(true);
  });
});

describe("the link pages' rate limits", () => {
  /** A POST to a link page from `client`, as its form or a mail provider sends it. */
  function post(
    route: typeof unsubscribePage | typeof confirmationPage,
    path: string,
    fields: Record<string, string>,
    client: string,
  ) {
    const request = new Request(`http://localhost${path}`, {
      method: "POST",
      body: new URLSearchParams(fields),
    });
    return route.action({ request, context: contextFor(client), params: {} } as never);
  }

  /** Spends every budget of `client`, as other users behind one proxy would. */
  async function spendBudgets(client: string) {
    for (const [key, rule] of [
      [`newsletter-lien:${client}`, NEWSLETTER_LINK_RATE_LIMIT],
      [`newsletter-un-clic:${client}`, ONE_CLICK_RATE_LIMIT],
    ] as const) {
      await db().execute(sql`
        insert into rate_limits (key, count, reset_at)
        values (${key}, ${rule.limit}, now() + make_interval(secs => ${rule.windowSeconds}))
      `);
    }
  }

  async function activeSubscriber(email: string) {
    await signUp(email);
    const { id } = await rowFor(email);
    await confirmSubscription(id);
    return { id, token: await signLinkToken("newsletter-unsubscribe", id) };
  }

  it("always honours a genuine unsubscribe, one-click or button, even when the client's budgets are spent", async () => {
    const client = "203.0.113.5";
    await spendBudgets(client);
    const provider = await activeSubscriber("un-clic-limite@example.com");
    const oneClick = await post(
      unsubscribePage,
      `/newsletter/desabonnement?token=${provider.token}`,
      { "List-Unsubscribe": "One-Click" },
      client,
    );
    expect(oneClick.init?.status).toBe(200);
    expect(oneClick.data).toMatchObject({
      target: { kind: "subscriber", status: "unsubscribed" },
      event: "unsubscribed",
    });
    expect((await rowFor("un-clic-limite@example.com")).status).toBe("unsubscribed");

    const visitor = await activeSubscriber("bouton-limite@example.com");
    const button = await post(
      unsubscribePage,
      "/newsletter/desabonnement",
      { token: visitor.token },
      client,
    );
    expect(button.init?.status).toBe(200);
    expect((await rowFor("bouton-limite@example.com")).status).toBe("unsubscribed");
  });

  it("neither counts genuine unsubscribes nor lets them spend the budget of « Me réinscrire »", async () => {
    const client = "203.0.113.6";
    const { id, token } = await activeSubscriber("souvent@example.com");
    for (let press = 0; press < NEWSLETTER_LINK_RATE_LIMIT.limit + 5; press++) {
      const answer = await post(unsubscribePage, "/newsletter/desabonnement", { token }, client);
      expect(answer.init?.status).toBe(200);
    }
    const back = await post(
      unsubscribePage,
      "/newsletter/desabonnement",
      { token, intent: RESUBSCRIBE_INTENT },
      client,
    );
    expect(back.init?.status).toBe(200);
    expect(back.data).toMatchObject({ event: "confirmation_sent" });
    expect((await findSubscriber(id))?.status).toBe("pending");
  });

  it("counts and refuses « Me réinscrire », confirmation presses and tokens that lead nowhere", async () => {
    const client = "203.0.113.7";
    const { id, token } = await activeSubscriber("refusee@example.com");
    await unsubscribe(id, { oneClick: false });
    const pending = await signUp("a-confirmer@example.com");
    const confirmToken = await signLinkToken("newsletter-confirm", pending.subscriberId, {
      lifetimeSeconds: 3600,
    });
    await spendBudgets(client);

    const back = await post(
      unsubscribePage,
      "/newsletter/desabonnement",
      { token, intent: RESUBSCRIBE_INTENT },
      client,
    );
    expect(back.init?.status).toBe(429);
    expect(back.data).toMatchObject({
      target: { kind: "subscriber", status: "unsubscribed" },
      event: "rate_limited",
    });
    expect((await rowFor("refusee@example.com")).status).toBe("unsubscribed");

    const confirm = await post(
      confirmationPage,
      "/newsletter/confirmation",
      { token: confirmToken },
      client,
    );
    expect(confirm.init?.status).toBe(429);
    expect((await rowFor("a-confirmer@example.com")).status).toBe("pending");

    const unknown = await signLinkToken("newsletter-unsubscribe", crypto.randomUUID());
    for (const [fields, path] of [
      [{ token: "abc.def" }, "/newsletter/desabonnement"],
      [{ token: unknown }, "/newsletter/desabonnement"],
      [{ "List-Unsubscribe": "One-Click" }, `/newsletter/desabonnement?token=${unknown}`],
      [{ "List-Unsubscribe": "One-Click" }, "/newsletter/desabonnement?token=abc.def"],
      [{ token: "abc.def" }, "/newsletter/confirmation"],
    ] as const) {
      const route = path.startsWith("/newsletter/confirmation")
        ? confirmationPage
        : unsubscribePage;
      const answer = await post(route, path, fields, client);
      expect(answer.init?.status, path).toBe(429);
      expect(answer.data, path).toMatchObject({ event: "rate_limited" });
    }

    // Another client is not affected: the same requests get their usual answers.
    const other = "203.0.113.8";
    expect(
      (await post(unsubscribePage, "/newsletter/desabonnement", { token: "abc.def" }, other)).init
        ?.status,
    ).toBe(400);
    expect(
      (await post(unsubscribePage, "/newsletter/desabonnement", { token: unknown }, other)).init
        ?.status,
    ).toBe(404);
  });
});

describe("the confirmation e-mail", () => {
  function linkOf(mail: { text: string }) {
    const token = /\/newsletter\/confirmation\?token=([\w.-]+)/.exec(mail.text)?.[1];
    if (!token) throw new Error(`pas de lien dans : ${mail.text}`);
    return token;
  }

  it("dates its link from when the e-mail was asked for, as the purge does, and says until when in French", async () => {
    const email = "date-limite@example.com";
    const { id } = await (async () => {
      await signUp(email);
      return rowFor(email);
    })();
    // The e-mail's job runs three days late (mail retries).
    await confirmationSentMinutesAgo(email, 3 * 24 * 60);
    const { confirmationSentAt } = await rowFor(email);
    if (!confirmationSentAt) throw new Error("pas de date d'envoi");
    const expiresAt = new Date(confirmationSentAt.getTime() + 7 * 24 * 60 * 60 * 1000);

    const mail = await confirmationEmail(id);
    if (!mail) throw new Error("pas d'e-mail");
    const until = `Ce lien est valable jusqu'au ${formatLongDateTimeFr(expiresAt)}.`;
    expect(mail.text).toContain(until);
    expect(mail.html).toContain(until.replaceAll("'", "&#39;"));
    const token = linkOf(mail);
    expect(
      await verifyLinkToken("newsletter-confirm", token, expiresAt.getTime() - 60_000),
    ).toEqual({ ok: true, subject: id });
    expect(await verifyLinkToken("newsletter-confirm", token, expiresAt.getTime() + 1_000)).toEqual(
      {
        ok: false,
        reason: "expired",
      },
    );

    // Too late to be of any use (the purge forgets the sign-up): nothing is sent.
    expect(await confirmationEmail(id, new Date(expiresAt.getTime() + 1_000))).toBeNull();
  });
});
