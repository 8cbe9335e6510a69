import fs from "node:fs";
import type { Transporter } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import { env, type Env } from "../env.server";

/*
 * The one way out for e-mail: a pooled SMTP connection per process (SMTP_URL), DKIM-signed when DKIM_* are
 * set, paced at MAIL_RATE_PER_MINUTE. Only the job queue's workers call `deliver` (mail/outbox.server and
 * newsletter/sending.server): requests never wait for a mail server.
 */

export type MailConfig = {
  url: string;
  from?: string;
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  ratePerMinute: number;
};

/** One e-mail as the workers hand it over: text always, HTML and extra headers when the kind has them. */
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: { name: string; address: string };
  headers?: Record<string, string>;
  /** A stable Message-ID (`<…@domain>`): a retried e-mail keeps it, so providers can drop a duplicate. */
  messageId?: string;
  /**
   * Images carried inside the e-mail, shown by the HTML as `cid:{cid}`: nothing to fetch from the site, so no
   * link to a private photo leaves in the message and the image shows offline.
   */
  inlineImages?: InlineImage[];
  /** Files attached to the e-mail (a booking's `.ics`). */
  attachments?: MailAttachment[];
};

export type MailAttachment = { filename: string; contentType: string; content: string | Buffer };

export type InlineImage = { cid: string; filename: string; contentType: string; content: Buffer };

function privateKey(value: string): string {
  return value.includes("-----BEGIN")
    ? value.replace(/\\n/g, "\n")
    : fs.readFileSync(value, "utf8");
}

function readMailConfig(config: Env): MailConfig | null {
  if (!config.SMTP_URL) return null;
  return {
    url: config.SMTP_URL,
    from: config.SMTP_FROM,
    dkim:
      config.DKIM_DOMAIN && config.DKIM_SELECTOR && config.DKIM_PRIVATE_KEY
        ? {
            domainName: config.DKIM_DOMAIN,
            keySelector: config.DKIM_SELECTOR,
            privateKey: privateKey(config.DKIM_PRIVATE_KEY),
          }
        : undefined,
    ratePerMinute: config.MAIL_RATE_PER_MINUTE,
  };
}

let read: { from: Env; config: MailConfig | null } | undefined;

/**
 * This process's mail settings, or null when SMTP_URL is unset (mail then waits in the queue). Read once
 * from the process's configuration (the DKIM key's file too): the admin pages ask at each load.
 */
export function mailConfig(): MailConfig | null {
  const config = env();
  if (read?.from !== config) read = { from: config, config: readMailConfig(config) };
  return read.config;
}

// On globalThis, like the transport: the development server may load this module twice.
const senderHolder = globalThis as typeof globalThis & {
  __studioDefaultSender?: () => Promise<string>;
};

/**
 * Who the e-mails come from when SMTP_FROM is not set: « Brand <general address> » of the site's
 * identity, read when each e-mail goes. The transport knows no feature: boot/ gives it the source when
 * the process prepares its database (decision 0156).
 */
export function provideDefaultSender(source: () => Promise<string>): void {
  senderHolder.__studioDefaultSender = source;
}

/** « Brand <general address> », from the source boot/ gave. */
export async function defaultSender(): Promise<string> {
  const source = senderHolder.__studioDefaultSender;
  if (!source)
    throw new Error("L'envoi d'e-mails n'a pas son expéditeur : boot/ le donne au démarrage.");
  return source();
}

/** The domain of Message-IDs: DKIM's, else the sender's. */
export function messageIdDomain(config: MailConfig, from: string): string {
  return config.dkim?.domainName ?? /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
}

/**
 * Paces sends: at most `ratePerMinute`, spread evenly (a token bucket of one second's worth), so a newsletter
 * does not arrive at the provider as one burst.
 */
export class Pacer {
  private readonly intervalMs: number;
  private next = 0;
  constructor(ratePerMinute: number) {
    this.intervalMs = 60_000 / ratePerMinute;
  }
  async wait(): Promise<void> {
    const now = performance.now();
    const burst = Math.max(1, Math.floor(1000 / this.intervalMs));
    this.next = Math.max(this.next, now - burst * this.intervalMs);
    const delay = this.next - now;
    this.next += this.intervalMs;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * The headers DKIM signs: nodemailer's list (RFC 6376's) and List-Unsubscribe-Post, which RFC 8058 §4 wants
 * signed for a one-click unsubscribe to be honoured.
 */
export const DKIM_SIGNED_HEADERS = [
  "From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type",
  "Content-Transfer-Encoding:Content-ID:Content-Description:Resent-Date:Resent-From:Resent-Sender",
  "Resent-To:Resent-Cc:Resent-Message-ID:In-Reply-To:References:List-Id:List-Help:List-Unsubscribe",
  "List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive",
].join(":");

type Sender = {
  config: MailConfig;
  transport: Transporter<SMTPPool.SentMessageInfo>;
  pacer: Pacer;
};

const holder = globalThis as typeof globalThis & { __studioMailSender?: Sender };

async function sender(config: MailConfig): Promise<Sender> {
  // nodemailer is loaded by the first e-mail, not at start-up (decision record 0092); nothing is awaited
  // below, so two first e-mails at once still share one transport.
  const { default: nodemailer } = await import("nodemailer");
  const current = holder.__studioMailSender;
  if (current && current.config.url === config.url) return current;
  current?.transport.close();
  const transport = nodemailer.createTransport({
    url: config.url,
    pool: true,
    maxConnections: 2,
    maxMessages: 500,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    dkim: config.dkim && { ...config.dkim, headerFieldNames: DKIM_SIGNED_HEADERS },
  } as SMTPPool.Options);
  holder.__studioMailSender = { config, transport, pacer: new Pacer(config.ratePerMinute) };
  return holder.__studioMailSender;
}

/** Sends one e-mail now, at the process's pace. Throws the SMTP error (see mailFailure). */
export async function deliver(mail: OutgoingMail, config: MailConfig): Promise<void> {
  const { transport, pacer } = await sender(config);
  await pacer.wait();
  await transport.sendMail({
    from: config.from ?? (await defaultSender()),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    replyTo: mail.replyTo,
    headers: mail.headers,
    messageId: mail.messageId,
    attachments: [
      ...(mail.inlineImages ?? []).map((image) => ({
        ...image,
        contentDisposition: "inline" as const,
      })),
      ...(mail.attachments ?? []),
    ],
  });
}

/** Closes the pooled connections (at shutdown). */
export function closeMailTransport(): void {
  holder.__studioMailSender?.transport.close();
  holder.__studioMailSender = undefined;
}

export type MailFailure = {
  /** True when trying again cannot help (the address is refused): the e-mail is given up. */
  permanent: boolean;
  /**
   * A temporary refusal of this recipient only (a full mailbox, greylisting at RCPT TO): the others can be
   * sent meanwhile, and this one again later.
   */
  recipientOnly: boolean;
  /** What happened, in French, for the owner. */
  message: string;
};

/**
 * The enhanced status code of a reply (RFC 3463), e.g. "5.1.1": its second number says whose fault it is
 * (1 the address, 2 the mailbox, 3 the receiving system, 7 a policy of the server).
 */
function enhancedStatus(response: string | undefined): [number, number] | null {
  const match = /\b([245])\.(\d{1,3})\.\d{1,3}\b/.exec(response ?? "");
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/** Reads an SMTP error as the admin shows it, and whether a retry can succeed. */
export function mailFailure(error: unknown): MailFailure {
  const details = error as {
    code?: string;
    responseCode?: number;
    command?: string;
    response?: string;
  };
  const response = details.response
    ? ` (réponse du serveur : « ${details.response.slice(0, 200)} »)`
    : "";
  const retry = (message: string, recipientOnly = false): MailFailure => ({
    permanent: false,
    recipientOnly,
    message,
  });
  // RFC 5321: a 5xx reply is final, a 4xx one (greylisting, a full queue, a rate limit) asks to come back
  // later, whatever the command. nodemailer names both EENVELOPE when they answer MAIL FROM or RCPT TO.
  const final = details.responseCode !== undefined && details.responseCode >= 500;
  const perMessage = details.command === "RCPT TO" || details.command === "DATA";
  if (final && perMessage) {
    // Only a refusal of the address or its mailbox gives this e-mail up. A refusal by the server's own
    // policy (5.7.x: relay denied, authentication needed…) or without a reason would refuse every e-mail
    // alike: that is a setting to fix, retried, never a whole newsletter given up in a few minutes.
    const status = enhancedStatus(details.response);
    const addressRefused = status
      ? status[1] === 1 ||
        status[1] === 2 ||
        (status[1] === 3 && /\b5\.3\.4\b/.test(details.response ?? ""))
      : [550, 551, 552, 553].includes(details.responseCode ?? 0);
    if (addressRefused) {
      return {
        permanent: true,
        recipientOnly: true,
        message:
          details.command === "DATA"
            ? `Message refusé par le serveur d'envoi${response}.`
            : `Adresse refusée par le serveur d'envoi${response}.`,
      };
    }
    return retry(
      `Envoi refusé par le serveur d'envoi${response} : vérifiez les réglages SMTP (SMTP_URL, SMTP_FROM) ; nouvel essai prévu.`,
    );
  }
  if (final && details.command === "MAIL FROM") {
    // The site's own address is refused, for every recipient: a setting to fix, not a reason to give up.
    return retry(
      `Adresse d'expédition refusée par le serveur d'envoi : vérifiez SMTP_FROM${response} ; nouvel essai prévu.`,
    );
  }
  if (details.command === "RCPT TO" && details.responseCode && details.responseCode >= 400) {
    return retry(`Destinataire refusé pour l'instant${response} ; nouvel essai prévu.`, true);
  }
  if (details.code === "EENVELOPE" && details.responseCode === undefined) {
    // Refused before reaching the server (an address nodemailer cannot write).
    return {
      permanent: true,
      recipientOnly: true,
      message: "Adresse invalide : l'e-mail ne peut pas partir.",
    };
  }
  if (details.responseCode === 535 || details.code === "EAUTH") {
    return {
      permanent: false,
      recipientOnly: false,
      message: `Identifiants SMTP refusés : vérifiez SMTP_URL${response}.`,
    };
  }
  if (details.code === "ETIMEDOUT") {
    return {
      permanent: false,
      recipientOnly: false,
      message: "Le serveur d'envoi ne répond pas (délai dépassé) ; nouvel essai prévu.",
    };
  }
  if (
    details.code === "ECONNECTION" ||
    details.code === "ESOCKET" ||
    details.code === "ECONNREFUSED"
  ) {
    return {
      permanent: false,
      recipientOnly: false,
      message: "Connexion au serveur d'envoi impossible ; nouvel essai prévu.",
    };
  }
  if (details.responseCode && details.responseCode >= 400) {
    return {
      permanent: false,
      recipientOnly: false,
      message: `Envoi refusé pour l'instant${response} ; nouvel essai prévu.`,
    };
  }
  return {
    permanent: false,
    recipientOnly: false,
    message: `Échec de l'envoi : ${error instanceof Error ? error.message : String(error)}.`,
  };
}
