import { configuredMailer } from "../admin/mailer.server";
import { provideAuthSources } from "../auth/sources.server";
import { readSiteContent } from "../content/site-content.server";
import { provideDefaultSender } from "../mail/transport.server";

/**
 * What the infrastructure reads of the site (decision 0156): authentication the brand and the
 * administrators' mailer, the mail transport the sender of e-mails when SMTP_FROM is not set. Read from the
 * site's identity when each is needed, so an edit in /admin/site shows at once.
 */
export function provideSiteSources(): void {
  const identity = async () => (await readSiteContent()).documents.identity;
  provideAuthSources({
    brand: async () => (await identity()).brand,
    mailer: configuredMailer,
  });
  provideDefaultSender(async () => {
    const { brand, email } = await identity();
    return `${brand.replace(/[<>"]/g, "")} <${email}>`;
  });
}
