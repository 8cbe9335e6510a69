import { data, type RouterContextProvider } from "react-router";
import { CONTACT_STUDIO_SLUG_MAX, HONEYPOT_FIELD } from "~/lib/contact-forms";
import { contactSchemaFor } from "~/lib/contact-schema";
import type { Identity, StudioData } from "~/content/schemas";
import { parseForm, type FieldErrors } from "~/lib/forms";
import { contactToasts, type ContactFormResult } from "~/components/contact/contact-outcome";
import { sendContactMessageEmail, type MailSettings } from "./contact-mail.server";
import { insertContactMessage, markContactMessageEmailed } from "./contact-messages.server";
import { clientAddressContext } from "./context";
import { env } from "./env.server";
import { log } from "./logger.server";
import { consumeRateLimit } from "./rate-limit.server";

/** Messages one address may send per window: enough for a family, too few for a spammer. */
export const CONTACT_RATE_LIMIT = { limit: 5, windowSeconds: 10 * 60 };

export { contactToasts, type ContactFormResult };

export type ContactSubmission = {
  result: ContactFormResult;
  httpStatus: number;
  /** The e-mail to the studio, sent after the answer; settles once it is sent or has failed (logged). */
  delivery: Promise<void>;
};

/**
 * SMTP settings when SMTP_URL is configured; without them messages are only stored. The sender defaults
 * to the brand and general e-mail of the site's identity.
 */
export function mailSettingsFromEnv(
  identity: Pick<Identity, "brand" | "email">,
): MailSettings | null {
  const { SMTP_URL, SMTP_FROM } = env();
  return SMTP_URL
    ? { url: SMTP_URL, from: SMTP_FROM ?? `${identity.brand} <${identity.email}>` }
    : null;
}

/** The studio a message is written to, as the content snapshot gives it (StudioRecord fits). */
export type ContactStudio = {
  slug: string;
  data: Pick<StudioData, "name" | "email" | "contactForm">;
};

/**
 * Handles one submission of a studio's contact form: spam trap, validation with the studio's schema, rate
 * limit per address, storage, then (when configured) the e-mail to the studio. The message is stored before
 * anything else can fail, so a failing mail server never loses it.
 */
export async function submitContactForm({
  formData,
  studio: recipient,
  identity,
  clientAddress,
  mail = mailSettingsFromEnv(identity),
}: {
  formData: FormData;
  studio: ContactStudio;
  /** The site's brand (the e-mail's subject) and general e-mail (its default sender). */
  identity: Pick<Identity, "brand" | "email">;
  clientAddress: string;
  mail?: MailSettings | null;
}): Promise<ContactSubmission> {
  const studio = recipient.slug;
  const parsed = parseForm(formData, contactSchemaFor(recipient.data.contactForm), {
    omit: [HONEYPOT_FIELD],
  });
  const { values } = parsed;
  const nothingToDeliver = Promise.resolve();
  const refuse = (
    status: "invalid" | "rate-limited" | "failed",
    httpStatus: number,
    errors: FieldErrors = {},
  ): ContactSubmission => ({
    result: {
      status,
      toast:
        status === "invalid"
          ? contactToasts.invalid
          : status === "rate-limited"
            ? contactToasts.rateLimited
            : contactToasts.failed,
      errors,
      values,
    },
    httpStatus,
    delivery: nothingToDeliver,
  });

  const rateLimitKey = `contact:${clientAddress}`;
  if (!parsed.ok) return refuse("invalid", 400, parsed.errors);

  // The spam trap filled in: most likely a bot, but a browser's or a password manager's autofill can fill
  // it too (issue 10, item 8: a visitor's second message, acknowledged, was never stored). A message that
  // is acknowledged is stored: this one is kept, marked as suspected spam and not e-mailed to the studio.
  const trap = formData.get(HONEYPOT_FIELD);
  const suspectedSpam = typeof trap === "string" && trap !== "";

  try {
    // contact_messages.studio holds the slug: the admin keeps slugs this short; say so if one is not.
    if (studio.length > CONTACT_STUDIO_SLUG_MAX) {
      throw new Error(`slug longer than ${CONTACT_STUDIO_SLUG_MAX} characters: ${studio}`);
    }
    const { allowed } = await consumeRateLimit(rateLimitKey, CONTACT_RATE_LIMIT);
    if (!allowed) {
      log.warn("contact_rate_limited", { studio, clientAddress });
      return refuse("rate-limited", 429);
    }
    const stored = await insertContactMessage({ studio, ...parsed.data, suspectedSpam });
    if (suspectedSpam) log.warn("contact_honeypot", { id: stored.id, studio, clientAddress });
    else log.info("contact_message_stored", { id: stored.id, studio });

    const delivery =
      mail && !suspectedSpam
        ? sendContactMessageEmail(stored, { brand: identity.brand, studio: recipient.data }, mail)
            .then(() => markContactMessageEmailed(stored.id))
            .then(() => log.info("contact_message_emailed", { id: stored.id, studio }))
            .catch((error: unknown) =>
              log.error("contact_message_email_failed", { id: stored.id, studio, error }),
            )
        : nothingToDeliver;

    return {
      result: { status: "sent", toast: contactToasts.sent, submissionId: stored.id },
      httpStatus: 200,
      delivery,
    };
  } catch (error) {
    log.error("contact_message_failed", { studio, error });
    return refuse("failed", 500);
  }
}

/**
 * A contact page's action: the submission handled for `studio`, answered with its status code; the e-mail
 * goes out after the answer, so the visitor does not wait for the mail server.
 */
export async function answerContactForm(
  request: Request,
  context: Readonly<RouterContextProvider>,
  studio: ContactStudio,
  identity: Pick<Identity, "brand" | "email">,
) {
  const { result, httpStatus, delivery } = await submitContactForm({
    formData: await request.formData(),
    studio,
    identity,
    clientAddress: context.get(clientAddressContext),
  });
  void delivery;
  return data(result, { status: httpStatus });
}
