// Section 6: integrity under concurrency (also run with smaller counts by tests/system/integrity.test.ts).
import { randomBytes } from "node:crypto";
import type { Context } from "./context.ts";
import {
  postContactMessage,
  postNewsletter,
  type ContactOutcome,
  type SignUpOutcome,
} from "./http.ts";
import { metric, type SectionResult } from "./report.ts";
import { connect, makeDataDir, removeDataDir, startServer, type BenchServer } from "./server.ts";

export type NewsletterBurst = {
  sent: number;
  unique: number;
  outcomes: Record<SignUpOutcome, number>;
  /** Rows stored for the addresses of this burst. */
  rows: number;
  /** Confirmation e-mails queued for the addresses of this burst (double opt-in: one per address). */
  confirmations: number;
  /** Addresses whose confirmation e-mail was queued more than once (must be none). */
  doubleConfirmed: number;
  problems: string[];
  milliseconds: number;
};

/**
 * Sends `unique` sign-ups plus `repeats` sign-ups of addresses already in the burst (half of them in
 * upper case), all at once, each from its own client address, then counts the stored rows and the
 * confirmation e-mails queued (a repeat of a pending address gets the same answer, not a second e-mail).
 */
export async function newsletterBurst(
  server: BenchServer,
  { unique, repeats }: { unique: number; repeats: number },
): Promise<NewsletterBurst> {
  const run = randomBytes(4).toString("hex");
  const address = (i: number) => `banc-${run}-${i}@example.com`;
  const emails: string[] = [];
  for (let i = 0; i < unique; i++) emails.push(address(i));
  for (let j = 0; j < repeats; j++) {
    const original = address((j * 7) % unique);
    emails.push(j % 2 ? original.toUpperCase() : original);
  }
  // Repeats spread among the originals, so that the two often race.
  const order = emails.map((email, i) => ({ email, key: (i * 7919) % emails.length }));
  order.sort((a, b) => a.key - b.key);

  const started = performance.now();
  const answers = await Promise.all(
    order.map(({ email }, i) => postNewsletter(server.baseUrl, email, 1_000 + i)),
  );
  const milliseconds = performance.now() - started;

  const outcomes: Record<SignUpOutcome, number> = {
    subscribed: 0,
    duplicate: 0,
    other: 0,
    "5xx": 0,
    network: 0,
  };
  const problems: string[] = [];
  answers.forEach((answer) => {
    outcomes[answer.outcome] += 1;
    if (answer.outcome !== "subscribed" && answer.outcome !== "duplicate" && problems.length < 5) {
      problems.push(`${answer.outcome} ${answer.status} ${answer.detail ?? ""}`.trim());
    }
  });

  const client = await connect(server.databaseUrl);
  try {
    const stored = await client.query<{ count: string }>(
      "select count(*) from blog_newsletter_subscribers where lower(email) like $1",
      [`banc-${run}-%`],
    );
    // The e-mails wait in the job queue (the bench's server has no SMTP_URL): one job each.
    const queued = await client.query<{ jobs: string }>(
      `select count(j.id) as jobs
       from blog_newsletter_subscribers s
       left join pgboss.job j on j.name = 'mail' and j.data->>'kind' = 'confirmation'
         and j.data->>'subscriberId' = s.id::text
       where lower(s.email) like $1
       group by s.id`,
      [`banc-${run}-%`],
    );
    return {
      sent: emails.length,
      unique,
      outcomes,
      rows: Number(stored.rows[0]?.count ?? 0),
      confirmations: queued.rows.reduce((sum, row) => sum + Number(row.jobs), 0),
      doubleConfirmed: queued.rows.filter((row) => Number(row.jobs) > 1).length,
      problems,
      milliseconds,
    };
  } finally {
    await client.end();
  }
}

export type ContactBurst = {
  sent: number;
  outcomes: Record<ContactOutcome, number>;
  rows: number;
  problems: string[];
  milliseconds: number;
};

/** Sends `count` contact messages at once, each from its own client address, then counts the rows. */
export async function contactBurst(server: BenchServer, count: number): Promise<ContactBurst> {
  const marker = `[banc ${randomBytes(4).toString("hex")}]`;
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) => postContactMessage(server.baseUrl, marker, 50_000 + i)),
  );
  const milliseconds = performance.now() - started;
  const outcomes: Record<ContactOutcome, number> = { sent: 0, other: 0, "5xx": 0, network: 0 };
  const problems: string[] = [];
  for (const answer of answers) {
    outcomes[answer.outcome] += 1;
    if (answer.outcome !== "sent" && problems.length < 5) {
      problems.push(`${answer.outcome} ${answer.status} ${answer.detail ?? ""}`.trim());
    }
  }
  const client = await connect(server.databaseUrl);
  try {
    const stored = await client.query<{ count: string }>(
      "select count(*) from contact_messages where message like $1",
      [`%${marker}`],
    );
    return {
      sent: count,
      outcomes,
      rows: Number(stored.rows[0]?.count ?? 0),
      problems,
      milliseconds,
    };
  } finally {
    await client.end();
  }
}

export async function integritySection(context: Context): Promise<Partial<SectionResult>> {
  const unique = context.quick ? 80 : 400;
  const repeats = context.quick ? 20 : 100;
  const messages = context.quick ? 40 : 200;
  const dataDir = await makeDataDir("integrity");
  const server = await startServer({ dataDir });
  try {
    context.log(`integrity: ${unique + repeats} concurrent newsletter sign-ups`);
    const newsletter = await newsletterBurst(server, { unique, repeats });
    context.log(`integrity: ${messages} concurrent contact messages`);
    const contact = await contactBurst(server, messages);
    const notes = [...newsletter.problems, ...contact.problems].map(
      (problem) => `Unexpected answer: ${problem}`,
    );
    notes.unshift(
      "Every request is sent at once (Promise.all) as a browser without JavaScript posts the form (urlencoded, same Origin), each from its own client address (X-Forwarded-For, TRUST_PROXY=loopback) so that the per-client rate limits, which stay on, do not refuse them. Half of the repeated addresses are sent in upper case.",
    );
    return {
      title: "Integrity under concurrency",
      tables: [
        {
          caption: `${unique + repeats} concurrent newsletter sign-ups, ${repeats} of them repeating an address of the burst`,
          columns: ["figure", "value"],
          rows: [
            ["rows stored", metric(newsletter.rows, "", { equals: unique })],
            [
              "answers « Vérifiez votre boîte mail » (a repeat of a pending address too)",
              metric(newsletter.outcomes.subscribed, "", { equals: unique + repeats }),
            ],
            [
              "answers « Déjà inscrit·e » (none is confirmed yet)",
              metric(newsletter.outcomes.duplicate, "", { equals: 0 }),
            ],
            [
              "confirmation e-mails queued",
              metric(newsletter.confirmations, "", { equals: unique }),
            ],
            [
              "addresses sent two confirmations",
              metric(newsletter.doubleConfirmed, "", { equals: 0 }),
            ],
            ["5xx answers", metric(newsletter.outcomes["5xx"], "", { equals: 0 })],
            [
              "other answers or network errors",
              metric(newsletter.outcomes.other + newsletter.outcomes.network, "", { equals: 0 }),
            ],
            ["time for the whole burst", metric(newsletter.milliseconds, "ms")],
          ],
        },
        {
          caption: `${messages} concurrent contact messages (Brive form, honeypot left empty)`,
          columns: ["figure", "value"],
          rows: [
            ["rows stored", metric(contact.rows, "", { equals: messages })],
            ["answers « Message envoyé »", metric(contact.outcomes.sent, "", { equals: messages })],
            ["5xx answers", metric(contact.outcomes["5xx"], "", { equals: 0 })],
            [
              "other answers or network errors",
              metric(contact.outcomes.other + contact.outcomes.network, "", { equals: 0 }),
            ],
            ["time for the whole burst", metric(contact.milliseconds, "ms")],
          ],
        },
      ],
      notes,
      data: { newsletter, contact },
    };
  } finally {
    await server.stop();
    await removeDataDir(dataDir);
  }
}
