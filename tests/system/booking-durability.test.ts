import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { request } from "../../scripts/bench/http.ts";
import { freeSlotPaths, offerBooking, postBooking } from "../../scripts/bench/reservations.ts";
import { startScriptedSmtp, type ScriptedSmtp, type SmtpAnswer } from "../support/scripted-smtp";
import {
  PROCESS_TEST_TIMEOUT,
  type ServerProcess,
  startServerProcess,
} from "../support/server-process";
import { parseMail } from "../support/smtp-capture";

// Decision 0113, what must hold: SIGKILL of the app process during a burst of bookings (different slots) →
// after a restart every booking whose answer was the 303 to its page is there, and each confirmation e-mail
// (and the studio's notice) is sent exactly once.
//
// Where the kill happens. A booking and its e-mail jobs are one transaction (decision 0115), so a kill
// anywhere loses no acknowledged booking and never leaves one without its e-mails. Sending, though, has one
// window no SMTP sender can close (decision 0080, « Exactement une fois »): between the mail server's 250
// and the job's completion, a kill makes the e-mail go again. So, as tests/system/
// newsletter-durability.test.ts does, the kill comes from inside the SMTP transaction of the first message
// after BOOKINGS_BEFORE_KILL bookings were acknowledged, with bookings still being posted: that message was
// not delivered (it must go once after the restart). The process sends two e-mails at a time: the other
// one may be in that window at the kill (accepted just before it, its job not yet ended), and it alone may
// arrive twice; what the dead process's connection still brings after the kill is refused, as from a
// sender that is gone.

const BOOKINGS = 60;
const CONCURRENCY = 6;
const BOOKINGS_BEFORE_KILL = 20;

let smtp: ScriptedSmtp;
let server: ServerProcess | undefined;
/** Each message the mail server accepted: recipient and decoded subject. */
const delivered: { to: string; subject: string; at: number }[] = [];
let answer: (mail: { to: string; raw: string }) => Promise<SmtpAnswer> = () =>
  Promise.resolve("accept");

beforeAll(async () => {
  smtp = await startScriptedSmtp({
    onMessage: async (mail) => {
      const verdict = await answer(mail);
      if (verdict === "accept")
        delivered.push({ to: mail.to, subject: parseMail(mail.raw).subject, at: Date.now() });
      return verdict;
    },
  });
  server = await startServerProcess(inject("adminDatabaseUrl"), {
    SMTP_URL: smtp.url,
    SMTP_FROM: "Studio de test <site@example.com>",
    // Each visitor posts from its own address (X-Forwarded-For): the per-visitor limit stays on.
    TRUST_PROXY: "loopback",
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await smtp.close();
});

function running(): ServerProcess {
  if (!server) throw new Error("server not started");
  return server;
}

async function query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: running().databaseUrl });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe("bookings survive a SIGKILL of their app process", () => {
  it(
    "keeps every acknowledged booking and sends each one's e-mails once after the restart (the one in flight at the kill at most twice)",
    { timeout: PROCESS_TEST_TIMEOUT },
    async ({ annotate }) => {
      const { baseUrl } = running();
      const client = new pg.Client({ connectionString: running().databaseUrl });
      await client.connect();
      const { daysPath, typeId } = await offerBooking(client).finally(() => client.end());
      const slots = await freeSlotPaths(baseUrl, daysPath, BOOKINGS);
      const run = randomBytes(3).toString("hex");
      const email = (index: number) => `duree-${run}-${index}@example.com`;

      const acknowledged = new Map<string, string>();
      const failed: Record<string, number> = {};
      let killed: Promise<unknown> | undefined;
      let killedRecipient: string | undefined;
      let killedWhile = 0;
      let killedAt = 0;
      let restarted = false;
      answer = async ({ to }) => {
        // Between the kill and the restart, only the dead process's connection can bring anything.
        if (killed && !restarted) return { code: 421, message: "4.3.0 Expéditeur disparu" };
        if (killed || acknowledged.size < BOOKINGS_BEFORE_KILL) return "accept";
        killedRecipient = to;
        killedWhile = BOOKINGS - acknowledged.size;
        killedAt = Date.now();
        killed = running().kill("SIGKILL");
        await killed;
        // Nobody is left to read it: as far as the site knows, the transaction ended unanswered.
        return { code: 421, message: "4.3.0 Expéditeur disparu" };
      };

      let next = 0;
      const deadline = Date.now() + 60_000;
      const visitor = async () => {
        while (next < BOOKINGS && Date.now() < deadline) {
          const index = next++;
          const posted = await postBooking(baseUrl, slots[index] ?? "", {
            email: email(index),
            client: 70_000 + index,
          });
          if (posted.outcome === "booked" && posted.location) {
            acknowledged.set(email(index), posted.location.replace(/\?.*$/, ""));
          } else {
            failed[posted.outcome] = (failed[posted.outcome] ?? 0) + 1;
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, visitor));
      expect(killed, "the server was killed during the burst").toBeDefined();
      await killed;
      // Only a dead server refuses: no booking was refused for itself.
      expect(Object.keys(failed).filter((outcome) => outcome !== "network")).toEqual([]);
      expect(acknowledged.size).toBeGreaterThanOrEqual(BOOKINGS_BEFORE_KILL);

      restarted = true;
      const restartMs = await running().restart();
      const stored = await query<{ email: string }>(
        "select lower(client_email) as email from bookings where session_type_id = $1",
        [typeId],
      );
      const storedEmails = new Set(stored.map((row) => row.email));
      expect([...acknowledged.keys()].filter((address) => !storedEmails.has(address))).toEqual([]);
      // Each acknowledged client's page opens on the restarted server.
      for (const path of acknowledged.values()) {
        expect((await request(`${baseUrl}${path}`)).status, path).toBe(200);
      }

      // Every stored booking (acknowledged, or committed while its answer died with the server) e-mails its
      // client once and the studio once: each (recipient, subject) once, the message in the window at the
      // kill (see above) perhaps twice.
      const ours = () =>
        delivered.filter(
          (mail) =>
            (mail.to.startsWith(`duree-${run}-`) &&
              mail.subject.startsWith("Votre séance est réservée")) ||
            !mail.to.startsWith("duree-"),
        );
      const copies = () => {
        const byMessage = new Map<string, number[]>();
        for (const mail of ours()) {
          const key = `${mail.to} ${mail.subject}`;
          byMessage.set(key, [...(byMessage.get(key) ?? []), mail.at]);
        }
        return byMessage;
      };
      await expect
        .poll(() => copies().size, { timeout: PROCESS_TEST_TIMEOUT, interval: 250 })
        .toBe(stored.length * 2);
      // No mail job left: the last one is marked done just after its message is accepted (a moment later on
      // a busy machine), and none is waiting to send a second copy.
      const queued = async () =>
        (
          await query<{ count: number }>(
            "select count(*)::int as count from pgboss.job where name = 'mail' and state in ('created', 'retry', 'active')",
          )
        )[0]?.count;
      await expect.poll(queued, { timeout: PROCESS_TEST_TIMEOUT, interval: 250 }).toBe(0);
      const messages = copies();
      expect(messages.size).toBe(stored.length * 2);
      const twice = [...messages].filter(([, times]) => times.length > 1);
      // At most the other worker's message, accepted in the instant before the kill, went again.
      expect(twice.length).toBeLessThanOrEqual(1);
      for (const [message, times] of twice) {
        expect(times, message).toHaveLength(2);
        expect(killedAt - (times[0] ?? 0), message).toBeLessThan(1_000);
        expect(killedAt - (times[0] ?? 0), message).toBeGreaterThanOrEqual(0);
      }
      const clients = new Set(
        [...messages.keys()]
          .filter((key) => key.startsWith(`duree-${run}-`))
          .map((key) => key.split(" ")[0]),
      );
      expect([...clients].sort()).toEqual([...storedEmails].sort());
      // The studio's notices name each booking's time: all different, so one each.
      expect([...messages.keys()].filter((key) => !key.startsWith("duree-"))).toHaveLength(
        stored.length,
      );
      // The message the kill interrupted was among them: sent again after the restart, and counted once.
      expect(killedRecipient).toBeDefined();

      const figures = `SIGKILL after ${BOOKINGS_BEFORE_KILL} acknowledged bookings, ${killedWhile} not yet answered; ${acknowledged.size} acknowledged, ${stored.length} stored (${stored.length - acknowledged.size} committed without their answer), ${failed.network ?? 0} refused connections; restart ${(restartMs / 1000).toFixed(1)} s; ${delivered.length} e-mails, ${twice.length === 0 ? "each once" : "each once but the one in the kill's instant"}`;
      process.stdout.write(`${figures}\n`);
      await annotate(figures);
    },
  );
});
