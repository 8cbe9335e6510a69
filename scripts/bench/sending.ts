// Section 8: sending a newsletter. The production server sends an article through its job queue to an SMTP
// server this process runs on loopback: e-mails per second, the server's memory while 10,000 e-mails wait
// in the queue, and the latency of the admin's dashboard (signed in) during a sending. Each sending is also
// checked: every subscriber accepted once, every delivery recorded 'sent'.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { root } from "../lib/build.ts";
import type { Context } from "./context.ts";
import { request, signIn } from "./http.ts";
import { loadTest, type LoadResult } from "./load.ts";
import { check, metric, type Cell, type SectionResult } from "./report.ts";
import { seedArticles } from "./seed.ts";
import {
  clusterMemory,
  connect,
  makeDataDir,
  mib,
  removeDataDir,
  residentBytes,
  sleep,
  startServer,
  type BenchServer,
} from "./server.ts";

/** As fast as the machine goes: the rate limit is not what is measured. */
const RATE_PER_MINUTE = 1_000_000;

type Accepted = { to: string; at: number };

/** An SMTP server on loopback that accepts everything and notes who got a copy, and when. */
async function startSmtpSink() {
  const accepted: Accepted[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 1_000,
    onData(stream, session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        for (const recipient of session.envelope.rcptTo) {
          accepted.push({ to: recipient.address.toLowerCase(), at: performance.now() });
        }
        callback();
      });
    },
  });
  server.on("error", () => {});
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;

/**
 * Creates the sending of `articleId` with the app's own function (scripts/bench/create-sending.ts);
 * resolves when it is committed (the script prints it), with that moment.
 */
async function createSending(
  server: BenchServer,
  articleId: string,
): Promise<{ sendingId: string; createdAt: number }> {
  const child = spawn(
    process.execPath,
    [path.join(root, "scripts/bench/create-sending.ts"), articleId],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: server.databaseUrl,
        DATA_DIR: server.dataDir,
        SITE_URL: server.baseUrl,
        MAIL_RATE_PER_MINUTE: String(RATE_PER_MINUTE),
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    return await new Promise((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const line = /^\{.*"kind".*\}$/m.exec(output)?.[0];
        if (!line) return;
        const outcome = JSON.parse(line) as { kind?: string; sendingId?: string };
        if (outcome.kind === "created" && outcome.sendingId) {
          resolve({ sendingId: outcome.sendingId, createdAt: performance.now() });
        } else reject(new Error(`Envoi non créé : ${line}`));
      });
      child.once("exit", (code) => reject(new Error(`Envoi non créé (${code}) :\n${output}`)));
    });
  } finally {
    // The script stops its queue connection and exits by itself.
    void once(child, "exit").then(() => clearTimeout(timer));
  }
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(100);
  }
  throw new Error(`Délai dépassé : ${what}`);
}

type SendingRun = {
  total: number;
  accepted: number;
  distinct: number;
  /** Accepted copies beyond the first, per recipient: must be 0. */
  duplicates: number;
  /** Deliveries recorded 'sent' in the database: must be `total`. */
  recordedSent: number;
  done: boolean;
  /** From the end of the sending's creation to the first / last accepted e-mail. */
  firstMs: number;
  lastMs: number;
  /** Between the first and the last accepted e-mail. */
  perSecond: number;
};

/** Waits until `total` e-mails of the sending that started at `from` (sink index) are in, and checks it. */
async function finishSending(
  server: BenchServer,
  sink: SmtpSink,
  {
    sendingId,
    total,
    from,
    createdAt,
  }: { sendingId: string; total: number; from: number; createdAt: number },
  timeoutMs: number,
): Promise<SendingRun> {
  await waitFor(`${total} e-mails reçus`, () => sink.accepted.length - from >= total, timeoutMs);
  const client = await connect(server.databaseUrl);
  try {
    const status = async () =>
      (
        await client.query<{ status: string }>(
          "select status from newsletter_sendings where id = $1",
          [sendingId],
        )
      ).rows[0]?.status;
    await waitFor("envoi terminé", async () => (await status()) === "done", 30_000).catch(
      () => undefined,
    );
    // A late duplicate would arrive now, if any.
    await sleep(1_000);
    const mails = sink.accepted.slice(from);
    const recipients = new Set(mails.map((mail) => mail.to));
    const sent = await client.query<{ count: string }>(
      "select count(*) as count from newsletter_deliveries where sending_id = $1 and status = 'sent'",
      [sendingId],
    );
    const first = mails[0]?.at ?? createdAt;
    const last = mails.at(-1)?.at ?? createdAt;
    return {
      total,
      accepted: mails.length,
      distinct: recipients.size,
      duplicates: mails.length - recipients.size,
      recordedSent: Number(sent.rows[0]?.count ?? 0),
      done: (await status()) === "done",
      firstMs: first - createdAt,
      lastMs: last - createdAt,
      perSecond: mails.length > 1 ? ((mails.length - 1) / (last - first)) * 1000 : 0,
    };
  } finally {
    await client.end();
  }
}

async function addSubscribers(server: BenchServer, from: number, to: number) {
  const client = await connect(server.databaseUrl);
  try {
    await client.query(
      `insert into blog_newsletter_subscribers (email, consent_source, status, confirmed_at)
       select 'abonne-banc-' || i || '@example.com', 'banc', 'active', now()
       from generate_series($1::int, $2::int) as i`,
      [from, to],
    );
  } finally {
    await client.end();
  }
}

async function articleIds(server: BenchServer, count: number): Promise<string[]> {
  const client = await connect(server.databaseUrl);
  try {
    await seedArticles(client, { to: count });
    const rows = await client.query<{ id: string }>(
      "select id from blog_articles where slug like 'article-banc-%' order by slug",
    );
    return rows.rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

/** Samples the server's RSS and its PostgreSQL's PSS until stopped. */
function sampleMemory(server: BenchServer, everyMs = 500) {
  const samples: Array<{ nodeRss: number; postgresPss: number }> = [];
  const take = () =>
    samples.push({
      nodeRss: residentBytes(server.pid) ?? 0,
      postgresPss: clusterMemory(server.dataDir).pss,
    });
  take();
  const timer = setInterval(take, everyMs);
  return () => {
    clearInterval(timer);
    take();
    return {
      peakNodeRss: Math.max(...samples.map((sample) => sample.nodeRss)),
      peakPostgresPss: Math.max(...samples.map((sample) => sample.postgresPss)),
      last: samples.at(-1),
      count: samples.length,
    };
  };
}

function dashboardRow(label: string, result: LoadResult): Cell[] {
  return [
    label,
    metric(result.requestsPerSecond, "req/s"),
    metric(result.p50, "ms"),
    metric(result.p99, "ms", { max: 500 }),
    result.total,
    metric(result.non2xx + result.errors + result.timeouts, "", { equals: 0 }),
  ];
}

export async function sendingSection(context: Context): Promise<Partial<SectionResult>> {
  const small = context.quick ? 200 : 2_000;
  const large = context.quick ? 1_000 : 10_000;
  const loadSeconds = context.quick ? 2 : 10;
  const connections = 8;
  const dataDir = await makeDataDir("sending");
  const sink = await startSmtpSink();
  const admin = { email: "banc-envoi@example.com", password: randomBytes(12).toString("hex") };
  let server: BenchServer | undefined;
  try {
    context.log("sending: start (SMTP on loopback, MAIL_RATE_PER_MINUTE=1,000,000)");
    const running = await startServer({
      dataDir,
      env: {
        SMTP_URL: sink.url,
        SMTP_FROM: "Studio (banc) <banc@example.com>",
        MAIL_RATE_PER_MINUTE: String(RATE_PER_MINUTE),
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
      },
    });
    server = running;
    const [firstArticle, secondArticle, thirdArticle] = await articleIds(running, 3);
    if (!firstArticle || !secondArticle || !thirdArticle)
      throw new Error("Articles du banc absents");
    const send = async (articleId: string, total: number, during?: () => Promise<void>) => {
      const from = sink.accepted.length;
      const sending = await createSending(running, articleId);
      await during?.();
      return finishSending(running, sink, { ...sending, total, from }, 1_200_000);
    };

    context.log(`sending: ${small} e-mails`);
    await addSubscribers(running, 1, small);
    const smallRun = await send(firstArticle, small);

    // Memory before any page is rendered, so that what moves is the sending's.
    await addSubscribers(running, small + 1, large);
    await sleep(2_000);
    const stopIdle = sampleMemory(running);
    await sleep(3_000);
    const idle = stopIdle();
    context.log(`sending: ${large} e-mails, memory sampled`);
    let stopSampling = () => idle;
    const largeRun = await send(secondArticle, large, async () => {
      stopSampling = sampleMemory(running);
    });
    const during = stopSampling();

    const cookie = await signIn(running.baseUrl, admin.email, admin.password);
    const dashboard = `${running.baseUrl}/admin/dashboard`;
    // Warm-up (first renders, JIT): not measured.
    for (let index = 0; index < 30; index++) {
      await request(dashboard, { headers: { cookie, accept: "text/html" } });
    }
    context.log(`sending: dashboard at rest (${loadSeconds} s, ${connections} connections)`);
    const dashboardLoad = () =>
      loadTest(dashboard, {
        connections,
        durationSeconds: loadSeconds,
        maxRequests: 100_000,
        headers: { cookie },
      });
    const dashboardAtRest = await dashboardLoad();
    context.log(`sending: ${large} e-mails again, the dashboard under load meanwhile`);
    let dashboardDuringSending: LoadResult | undefined;
    let loadWindow = { start: 0, end: 0 };
    const loadedRun = await send(thirdArticle, large, async () => {
      loadWindow = { start: performance.now(), end: 0 };
      dashboardDuringSending = await dashboardLoad();
      loadWindow.end = performance.now();
    });
    if (!dashboardDuringSending) throw new Error("Pas de mesure du tableau de bord");
    const sentDuringLoad = sink.accepted.filter(
      (mail) => mail.at >= loadWindow.start && mail.at <= loadWindow.end,
    ).length;

    const runRows = (run: SendingRun): Cell[][] => [
      [`e-mails per second (first to last accepted)`, metric(run.perSecond, "e-mails/s")],
      [`sending created → first e-mail accepted`, metric(run.firstMs, "ms")],
      [`sending created → last e-mail accepted`, metric(run.lastMs / 1000, "s", undefined, 1)],
      [`copies accepted by the SMTP server`, metric(run.accepted, "", { equals: run.total })],
      [`recipients with more than one copy`, metric(run.duplicates, "", { equals: 0 })],
      [`deliveries recorded 'sent'`, metric(run.recordedSent, "", { equals: run.total })],
      [`sending 'done'`, check(run.done, run.done ? "yes" : "no")],
    ];
    const largeLabel = large.toLocaleString("en-US");
    const tables = [
      {
        caption: `A newsletter of ${small.toLocaleString("en-US")} e-mails to a local SMTP server`,
        columns: ["figure", "value"],
        rows: runRows(smallRun),
      },
      {
        caption: `A newsletter of ${largeLabel} e-mails: the server's memory while they wait in the queue`,
        columns: ["figure", "value"],
        rows: [
          ...runRows(largeRun),
          ["Node RSS at rest, before the sending", metric(mib(idle.last?.nodeRss), "MiB")],
          [
            `Node RSS, highest while the ${largeLabel} e-mails were queued and sent`,
            metric(mib(during.peakNodeRss), "MiB"),
          ],
          ["Node RSS once sent", metric(mib(during.last?.nodeRss), "MiB")],
          [
            "PostgreSQL PSS at rest / highest during the sending",
            `${mib(idle.last?.postgresPss)} / ${mib(during.peakPostgresPss)} MiB`,
          ],
        ],
      },
      {
        caption: `The admin's dashboard, signed in: autocannon, ${loadSeconds} s, ${connections} connections, at rest and from the start of another sending of ${largeLabel}`,
        columns: ["when", "throughput", "p50", "p99", "requests", "errors / non-2xx"],
        rows: [
          dashboardRow("at rest", dashboardAtRest),
          dashboardRow(`during the sending`, dashboardDuringSending),
        ],
      },
      {
        caption: `That sending of ${largeLabel}, the dashboard under load for its first ${loadSeconds} s`,
        columns: ["figure", "value"],
        rows: [
          [`e-mails accepted during the dashboard's load test`, sentDuringLoad],
          ...runRows(loadedRun),
        ],
      },
    ];
    const notes = [
      `The production server with its embedded PostgreSQL, \`MAIL_RATE_PER_MINUTE=${RATE_PER_MINUTE}\` (pacing out of the way), an SMTP server in the benchmark's process on loopback that accepts every message. Each sending is created by the app's own \`createSending\` (scripts/bench/create-sending.ts, in a process of its own) for every active subscriber, in batches of up to 200 deliveries per job, one batch at a time across processes; the server's worker sends them one by one over a pool of 2 SMTP connections.`,
      "Exactly once is checked on every run: copies accepted per recipient at the SMTP server, deliveries recorded 'sent', the sending 'done'.",
      `In order: ${small.toLocaleString("en-US")} e-mails; ${large.toLocaleString("en-US")} e-mails with memory sampled, before any page has been rendered (so that what moves is the sending's); the dashboard at rest; ${large.toLocaleString("en-US")} e-mails again (a third article), the dashboard loaded from the moment that sending is created.`,
      "Memory: Node's RSS sampled every 500 ms from the sending's creation to its last e-mail, against a sample at rest just before; the queue lives in PostgreSQL and the server holds one batch at a time. PostgreSQL: PSS summed over the cluster's processes.",
      `The dashboard's budget (p99 ≤ 500 ms with ${connections} connections) says the owner can work while a newsletter leaves; e-mail throughput and memory depend on the machine and have no budget.`,
    ];
    return {
      title: "Sending",
      tables,
      notes,
      data: {
        smallRun,
        largeRun,
        loadedRun,
        idle,
        during,
        dashboardAtRest,
        dashboardDuringSending,
        sentDuringLoad,
      },
    };
  } finally {
    await server?.stop();
    await sink.close();
    await removeDataDir(dataDir);
  }
}
