import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** What the server answers: accept, or refuse with an SMTP code (4xx: try later, 5xx: never). */
export type SmtpAnswer = "accept" | { code: number; message: string };

/** A message the server accepted (answered 250 to): each one is a copy that reached a mailbox. */
export type AcceptedMail = { to: string; messageId: string; at: number };

export type ScriptedSmtp = {
  url: string;
  /** Every accepted message, in order (one recipient each: the site sends one e-mail per person). */
  accepted: AcceptedMail[];
  /** How many recipients or messages were refused. */
  refusals: () => number;
  close: () => Promise<void>;
};

function refusal(answer: Exclude<SmtpAnswer, "accept">): Error {
  return Object.assign(new Error(answer.message), { responseCode: answer.code });
}

/**
 * A real SMTP server on loopback whose answers the test writes: `onRecipient` decides at RCPT TO (a
 * recipient refused for a while, or for ever), `onMessage` once the whole message has arrived, before the
 * server answers it (the test may kill the sender there).
 */
export async function startScriptedSmtp({
  onRecipient = () => "accept",
  onMessage = () => "accept",
}: {
  onRecipient?: (address: string) => SmtpAnswer;
  onMessage?: (mail: { from: string; to: string; raw: string }) => SmtpAnswer | Promise<SmtpAnswer>;
} = {}): Promise<ScriptedSmtp> {
  const accepted: AcceptedMail[] = [];
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 1_000,
    onRcptTo(address, _session, callback) {
      const answer = onRecipient(address.address.toLowerCase());
      if (answer === "accept") return callback();
      refused += 1;
      callback(refusal(answer));
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (raw += chunk));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()).join(",");
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        void Promise.resolve(onMessage({ from, to, raw })).then((answer) => {
          if (answer !== "accept") {
            refused += 1;
            return callback(refusal(answer));
          }
          const messageId = /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? "";
          accepted.push({ to, messageId, at: Date.now() });
          callback();
        });
      });
    },
  });
  // A sender that dies in the middle of a transaction resets its connection: not the test's failure.
  server.on("error", () => {});
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    accepted,
    refusals: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Recipients that got more than one copy. */
export function duplicates(accepted: AcceptedMail[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const mail of accepted) {
    if (seen.has(mail.to)) twice.add(mail.to);
    seen.add(mail.to);
  }
  return [...twice];
}
