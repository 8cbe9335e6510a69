import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * An e-mail as a test reads it: envelope recipients, decoded subject and plain-text body (of a single-part
 * message), and the message as received (`mailParts` reads a multipart one).
 */
export type CapturedMail = { to: string[]; subject: string; text: string; raw: string };

/** Decodes a quoted-printable or base64 body (what nodemailer writes for plain-text UTF-8 mail). */
function decodeBody(body: string, encoding: string): string {
  if (encoding === "base64")
    return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding !== "quoted-printable") return body;
  const bytes: number[] = [];
  const soft = body.replace(/=\r?\n/g, "");
  for (let index = 0; index < soft.length; index++) {
    const hex = soft.slice(index + 1, index + 3);
    if (soft[index] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(soft[index] ?? "", "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Decodes RFC 2047 words (`=?UTF-8?Q?…?=` / `=?UTF-8?B?…?=`) of a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeBody(text.replace(/_/g, " "), "quoted-printable"),
    );
}

/** Splits a raw single-part message into its decoded subject and text. */
export function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const header = (name: string) =>
    new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  return {
    subject: decodeHeader(header("Subject")),
    text: decodeBody(body, header("Content-Transfer-Encoding").toLowerCase()).replace(
      /\r\n/g,
      "\n",
    ),
  };
}

/** A message's headers (unfolded) and its decoded plain-text and HTML parts, multipart or not. */
export function mailParts(raw: string): {
  subject: string;
  header: (name: string) => string;
  text: string;
  html: string;
} {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const header = (name: string) =>
    new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  const boundary = /boundary="?([^";]+)"?/i.exec(header("Content-Type"))?.[1];
  const parts = boundary ? raw.slice(split).split(`--${boundary}`).slice(1, -1) : [raw];
  const decoded = parts.map((part) => {
    const partSplit = part.replace(/^\r?\n/, "").search(/\r?\n\r?\n/);
    const partHead = part.replace(/^\r?\n/, "").slice(0, partSplit);
    return {
      type: /^Content-Type:\s*([^;\s]+)/im.exec(partHead)?.[1]?.toLowerCase() ?? "text/plain",
      body: parseMail(part.replace(/^\r?\n/, "")).text,
    };
  });
  return {
    subject: parseMail(raw).subject,
    header,
    text: decoded.find((part) => part.type === "text/plain")?.body ?? "",
    html: decoded.find((part) => part.type === "text/html")?.body ?? "",
  };
}

/**
 * A real SMTP server on loopback that keeps every message it receives, and a loopback HTTP endpoint that
 * lists them as JSON (`GET /messages`), for tests running in other processes than the one that started it.
 */
export async function startSmtpCapture() {
  const received: CapturedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (raw += chunk));
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
          ...parseMail(raw),
          raw,
        });
        callback();
      });
    },
  });
  smtp.listen(0, "127.0.0.1");
  await once(smtp.server, "listening");
  const api = http.createServer((request, response) => {
    if (request.url !== "/messages") {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received));
  });
  api.listen(0, "127.0.0.1");
  await once(api, "listening");
  return {
    smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    mailboxUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}/messages`,
    received,
    async close() {
      await new Promise<void>((resolve) => api.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}

/** The messages a capture's HTTP endpoint holds for `address`. */
export async function mailsTo(mailboxUrl: string, address: string): Promise<CapturedMail[]> {
  const all = (await (await fetch(mailboxUrl)).json()) as CapturedMail[];
  return all.filter((mail) => mail.to.includes(address.toLowerCase()));
}

/** The first link to this site's reset page in `text`. */
export function resetLink(text: string): string {
  const match = /https?:\/\/\S+\/admin\/reinitialiser-mot-de-passe\?token=[A-Za-z0-9_%-]+/.exec(
    text,
  );
  if (!match) throw new Error(`Aucun lien de réinitialisation dans :\n${text}`);
  return match[0];
}
