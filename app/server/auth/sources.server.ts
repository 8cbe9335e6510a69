/*
 * What authentication needs of the site, without knowing the features that hold it (decision 0156): the
 * brand (the authenticator apps' label, the reset e-mail's signature) and the mailer of the administrators'
 * e-mails. boot/ provides them when the process prepares its database; auth reads them when it needs them.
 */

/** One plain-text e-mail. */
export type MailMessage = { to: string; subject: string; text: string };

/** Sends (or queues) one e-mail. */
export type Mailer = (message: MailMessage) => Promise<void>;

export type AuthSources = {
  /** The brand as the owner set it in the admin. */
  brand: () => Promise<string>;
  /** How auth e-mails leave (null: SMTP_URL is not set, nothing is sent). */
  mailer: () => Mailer | null;
};

// On globalThis, like auth() itself: the development server may load this module twice.
const holder = globalThis as typeof globalThis & { __studioAuthSources?: AuthSources };

export function provideAuthSources(sources: AuthSources): void {
  holder.__studioAuthSources = sources;
}

export function authSources(): AuthSources {
  const sources = holder.__studioAuthSources;
  if (!sources) {
    throw new Error("L'authentification n'a pas ses sources : boot/ les donne au démarrage.");
  }
  return sources;
}
