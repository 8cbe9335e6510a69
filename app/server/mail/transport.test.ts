import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mailFailure, Pacer } from "./transport.server";

describe("Pacer", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
    // A process that has been up for a while (performance.now() is time since it started).
    vi.advanceTimersByTime(3_600_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Runs `workers` loops that each wait for the pacer before every send, for `durationMs` of (fake) time. */
  async function sendTimes(pacer: Pacer, durationMs: number, workers = 1): Promise<number[]> {
    const start = performance.now();
    const times: number[] = [];
    let running = true;
    const loops = Array.from({ length: workers }, async () => {
      while (running) {
        await pacer.wait();
        if (running) times.push(performance.now() - start);
      }
    });
    await vi.advanceTimersByTimeAsync(durationMs);
    running = false;
    await vi.runAllTimersAsync();
    await Promise.all(loops);
    return times.sort((a, b) => a - b);
  }

  it("spreads sends evenly at the configured rate, after at most one second's worth at once", async () => {
    const times = await sendTimes(new Pacer(120), 10 * 60_000);
    // 120 a minute: one every 500 ms, after a first second's worth (2) plus the one due now.
    expect(times.slice(0, 3)).toEqual([0, 0, 0]);
    const gaps = times.slice(3).map((time, index) => time - (times[index + 2] ?? 0));
    expect(new Set(gaps)).toEqual(new Set([500]));
    // Over ten minutes: the rate, give or take that first burst.
    expect(times.length).toBeGreaterThanOrEqual(10 * 120);
    expect(times.length).toBeLessThanOrEqual(10 * 120 + 3);
    // Never more than the rate (plus the burst) in any minute.
    for (const [index, time] of times.entries()) {
      const inMinute = times.slice(index).filter((later) => later < time + 60_000).length;
      expect(inMinute).toBeLessThanOrEqual(120 + 3);
    }
  });

  it("paces concurrent senders together (the mail queue runs two at a time)", async () => {
    const times = await sendTimes(new Pacer(600), 60_000, 2);
    expect(times.length).toBeGreaterThanOrEqual(600);
    expect(times.length).toBeLessThanOrEqual(600 + 11);
    const gaps = times.slice(11).map((time, index) => time - (times[index + 10] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(100);
  });

  it("does not save up an idle period for a burst later", async () => {
    const pacer = new Pacer(60);
    await sendTimes(pacer, 5_000);
    vi.advanceTimersByTime(30 * 60_000);
    const times = await sendTimes(pacer, 9_500);
    // A second's worth (1) plus the one due now leave at once, then one a second.
    expect(times).toEqual([0, 0, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000]);
  });

  it("lets a very high rate through without waiting", async () => {
    const pacer = new Pacer(1_000_000);
    const times = await sendTimes(pacer, 1);
    expect(times.length).toBeGreaterThan(10_000);
  });
});

describe("mailFailure", () => {
  const smtpError = (code: string, command: string, response: string) =>
    Object.assign(new Error(`${command} failed`), {
      code,
      command,
      response,
      responseCode: Number(response.slice(0, 3)),
    });

  it("gives up on an address or a mailbox the server refuses for good (5xx, 5.1.x / 5.2.x)", () => {
    expect(mailFailure(smtpError("EENVELOPE", "RCPT TO", "550 5.1.1 No such user"))).toEqual({
      permanent: true,
      recipientOnly: true,
      message:
        "Adresse refusée par le serveur d'envoi (réponse du serveur : « 550 5.1.1 No such user »).",
    });
    expect(mailFailure(smtpError("EMESSAGE", "DATA", "552 5.2.2 Mailbox full"))).toMatchObject({
      permanent: true,
      message: expect.stringMatching(/^Message refusé par le serveur d'envoi/),
    });
    // Without an enhanced code, the classic « unknown user » replies.
    expect(mailFailure(smtpError("EENVELOPE", "RCPT TO", "550 User unknown"))).toMatchObject({
      permanent: true,
    });
  });

  it("keeps trying when the server's own policy refuses every e-mail (5.7.x): a setting to fix, not the address", () => {
    for (const response of ["554 5.7.1 Relay access denied", "530 5.7.0 Authentication required"]) {
      expect(mailFailure(smtpError("EENVELOPE", "RCPT TO", response))).toMatchObject({
        permanent: false,
        recipientOnly: false,
        message: expect.stringContaining("vérifiez les réglages SMTP"),
      });
    }
    expect(mailFailure(smtpError("EMESSAGE", "DATA", "554 5.7.1 Rejected"))).toMatchObject({
      permanent: false,
      recipientOnly: false,
    });
  });

  it("tries again later after a temporary refusal (4xx), whatever the command; at RCPT TO, that recipient only", () => {
    expect(
      mailFailure(smtpError("EENVELOPE", "RCPT TO", "451 4.7.1 Greylisted, come back later")),
    ).toEqual({
      permanent: false,
      recipientOnly: true,
      message:
        "Destinataire refusé pour l'instant (réponse du serveur : « 451 4.7.1 Greylisted, come back later ») ; nouvel essai prévu.",
    });
    for (const [code, command, response] of [
      ["EENVELOPE", "MAIL FROM", "421 4.7.0 Too many connections"],
      ["EMESSAGE", "DATA", "452 4.3.1 Insufficient system storage"],
    ] as const) {
      expect(mailFailure(smtpError(code, command, response))).toEqual({
        permanent: false,
        recipientOnly: false,
        message: `Envoi refusé pour l'instant (réponse du serveur : « ${response} ») ; nouvel essai prévu.`,
      });
    }
  });

  it("keeps trying when the site's own sender address is refused: a setting to fix", () => {
    expect(
      mailFailure(smtpError("EENVELOPE", "MAIL FROM", "550 5.7.1 Sender not allowed")),
    ).toMatchObject({ permanent: false, message: expect.stringContaining("SMTP_FROM") });
  });

  it("gives up on an address that cannot be written, and retries connection problems", () => {
    expect(
      mailFailure(
        Object.assign(new Error("No recipients defined"), { code: "EENVELOPE", command: "API" }),
      ),
    ).toMatchObject({ permanent: true });
    expect(
      mailFailure(Object.assign(new Error("connect ECONNREFUSED"), { code: "ESOCKET" })),
    ).toEqual({
      permanent: false,
      recipientOnly: false,
      message: "Connexion au serveur d'envoi impossible ; nouvel essai prévu.",
    });
    expect(
      mailFailure(smtpError("EAUTH", "AUTH PLAIN", "535 5.7.8 Bad credentials")),
    ).toMatchObject({ permanent: false, message: expect.stringContaining("SMTP_URL") });
  });
});
