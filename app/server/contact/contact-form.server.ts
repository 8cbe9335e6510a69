import { data, type RouterContextProvider } from "react-router";
import { CONTACT_STUDIO_SLUG_MAX, HONEYPOT_FIELD } from "~/lib/contact-forms";
import { contactSchemaFor } from "~/lib/contact-schema";
import type { StudioData } from "~/content/schemas";
import { parseForm, type FieldErrors } from "~/lib/forms";
import { contactToasts, type ContactFormResult } from "~/lib/contact-outcome";
import { insertContactMessage } from "./contact-messages.server";
import { clientAddressContext } from "../context";
import { db } from "../db/client.server";
import { log } from "../logger.server";
import { enqueueContactMail } from "./contact-mail.server";
import { consumeRateLimit } from "../rate-limit.server";

/** Messages one address may send per window: enough for a family, too few for a spammer. */
export const CONTACT_RATE_LIMIT = { limit: 5, windowSeconds: 10 * 60 };

export { contactToasts, type ContactFormResult };

export type ContactSubmission = { result: ContactFormResult; httpStatus: number };

/** The studio a message is written to, as the content snapshot gives it (StudioRecord fits). */
export type ContactStudio = {
  slug: string;
  data: Pick<StudioData, "name" | "email" | "contactForm">;
};

/**
 * Handles one submission of a studio's contact form: spam trap, validation with the studio's schema, rate
 * limit per address, then the message stored together with the job that e-mails it to the studio (one
 * transaction: no message without its e-mail, no e-mail twice). The job queue sends it after the answer,
 * retrying while the mail server fails; without SMTP_URL it waits (the message is in the admin meanwhile).
 */
export async function submitContactForm({
  formData,
  studio: recipient,
  clientAddress,
}: {
  formData: FormData;
  studio: ContactStudio;
  clientAddress: string;
}): Promise<ContactSubmission> {
  const studio = recipient.slug;
  const parsed = parseForm(formData, contactSchemaFor(recipient.data.contactForm), {
    omit: [HONEYPOT_FIELD],
  });
  const { values } = parsed;
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
  });

  const rateLimitKey = `contact:${clientAddress}`;
  if (!parsed.ok) return refuse("invalid", 400, parsed.errors);

  // The spam trap filled in: most likely a bot, but a browser's or a password manager's autofill can fill
  // it too (decision 0021: a visitor's second message, acknowledged, was once never stored). A message that
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
    const stored = await db().transaction(async (tx) => {
      const row = await insertContactMessage({ studio, ...parsed.data, suspectedSpam }, tx);
      if (!suspectedSpam) await enqueueContactMail({ messageId: row.id }, { tx });
      return row;
    });
    if (suspectedSpam) log.warn("contact_honeypot", { id: stored.id, studio, clientAddress });
    else log.info("contact_message_stored", { id: stored.id, studio });

    return {
      result: { status: "sent", toast: contactToasts.sent, submissionId: stored.id },
      httpStatus: 200,
    };
  } catch (error) {
    log.error("contact_message_failed", { studio, error });
    return refuse("failed", 500);
  }
}

/**
 * A contact page's action: the submission handled for `studio`, answered with its status code; the e-mail
 * goes out from the job queue, so the visitor does not wait for the mail server.
 */
export async function answerContactForm(
  request: Request,
  context: Readonly<RouterContextProvider>,
  studio: ContactStudio,
) {
  const { result, httpStatus } = await submitContactForm({
    formData: await request.formData(),
    studio,
    clientAddress: context.get(clientAddressContext),
  });
  return data(result, { status: httpStatus });
}
