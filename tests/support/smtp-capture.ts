import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * An e-mail as a test reads it: envelope recipients, decoded subject, plain-text and HTML parts (empty when
 * the message has none), its headers (names in lower case, values unfolded and decoded), and the message as
 * received (`mailParts` reads a multipart one).
 */
export type CapturedMail = {
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  raw: string;
};

/** Decodes a quoted-printable or base64 body (what nodemailer writes for UTF-8 mail). */
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

type MimeEntity = { headers: Record<string, string>; body: string };

/** Splits an entity (a whole message or one part) into its headers and its raw body. */
function splitEntity(raw: string): MimeEntity {
  const split = raw.search(/\r?\n\r?\n/);
  const head = (split < 0 ? raw : raw.slice(0, split)).replace(/\r?\n[ \t]+/g, " ");
  const body = split < 0 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // The first occurrence wins (trace headers such as Received repeat; the test does not read them).
    headers[name] ??= decodeHeader(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

type LeafPart = { type: string; content: string; entity: MimeEntity };

/** The leaf parts of an entity, in order: multiparts are opened, each leaf decoded. */
function leafParts(entity: MimeEntity): LeafPart[] {
  const contentType = entity.headers["content-type"] ?? "text/plain";
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "text/plain";
  if (type.startsWith("multipart/")) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return [];
    const sections = entity.body.split(`--${boundary}`).slice(1);
    return (
      sections
        .filter((section) => !section.startsWith("--"))
        // The line break before a boundary belongs to the boundary (RFC 2046 §5.1.1).
        .map((section) => section.replace(/^\r?\n/, "").replace(/\r?\n$/, ""))
        .flatMap((section) => leafParts(splitEntity(section)))
    );
  }
  const encoding = (entity.headers["content-transfer-encoding"] ?? "").toLowerCase();
  return [{ type, content: decodeBody(entity.body, encoding).replace(/\r\n/g, "\n"), entity }];
}

/** An image carried inside a message (its HTML shows it as `cid:`), with its bytes. */
export type MailImage = { type: string; contentId: string; bytes: Buffer };

function imagesOf(parts: LeafPart[]): MailImage[] {
  return parts
    .filter((part) => part.type.startsWith("image/"))
    .map(({ type, entity }) => ({
      type,
      contentId: entity.headers["content-id"] ?? "",
      bytes: Buffer.from(entity.body.replace(/\s+/g, ""), "base64"),
    }));
}

/** Reads a raw message: its decoded subject, text and HTML parts, and headers. */
export function parseMail(raw: string): Omit<CapturedMail, "to" | "raw"> {
  const message = splitEntity(raw);
  const parts = leafParts(message);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.content;
  return {
    subject: message.headers.subject ?? "",
    text: part("text/plain") ?? "",
    html: part("text/html") ?? "",
    headers: message.headers,
  };
}

/**
 * A message's subject, a header reader (unfolded, decoded), its plain-text and HTML parts, the images it
 * carries and its attached files.
 */
export function mailParts(raw: string): {
  subject: string;
  header: (name: string) => string;
  text: string;
  html: string;
  images: MailImage[];
  attachments: MailAttachment[];
} {
  const { subject, headers, text, html } = parseMail(raw);
  return {
    subject,
    header: (name) => headers[name.toLowerCase()] ?? "",
    text,
    html,
    images: imagesOf(leafParts(splitEntity(raw))),
    attachments: mailAttachments(raw),
  };
}

/** A file attached to a message (a booking's `.ics`), its text decoded with its own line ends kept. */
export type MailAttachment = { type: string; filename: string; text: string; bytes: Buffer };

export function mailAttachments(raw: string): MailAttachment[] {
  return leafParts(splitEntity(raw))
    .filter((part) => /attachment/i.test(part.entity.headers["content-disposition"] ?? ""))
    .map(({ type, entity }) => {
      const encoding = (entity.headers["content-transfer-encoding"] ?? "").toLowerCase();
      return {
        type,
        filename:
          /filename="?([^";]+)"?/i.exec(entity.headers["content-disposition"] ?? "")?.[1] ?? "",
        text: decodeBody(entity.body, encoding),
        // A binary file (a voucher's PDF) as its bytes.
        bytes:
          encoding === "base64"
            ? Buffer.from(entity.body.replace(/\s+/g, ""), "base64")
            : Buffer.from(entity.body, "utf8"),
      };
    });
}

/**
 * A real SMTP server on loopback that keeps every message it receives, and a loopback HTTP endpoint that
 * lists them as JSON (`GET /messages`), for tests running in other processes than the one that started it.
 * `refuses` names the addresses it answers with an unknown mailbox, as a mail server does for a typo.
 */
export async function startSmtpCapture({
  refuses = () => false,
}: {
  /** The addresses whose mailbox the server says does not exist (« 550 5.1.1 » at RCPT TO). */
  refuses?: (address: string) => boolean;
} = {}) {
  const received: CapturedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refuses(address.address.toLowerCase())) return callback();
      callback(Object.assign(new Error("5.1.1 Mailbox unknown"), { responseCode: 550 }));
    },
    // Closing ends the connections a mailer's pool keeps open at once (« 421 », then closed), rather than
    // after smtp-server's 30 s of grace: the tests closing their capture had waited up to that long.
    closeTimeout: 100,
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
