import { eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import type { DepositRule } from "../../app/lib/booking/deposit";
import { siteDocuments } from "../../app/server/db/schema";
import { insertSessionType, studioIds } from "./booking";
import { pdfText } from "./pdf-tools";
import { completeLegal } from "./seller";
import { serverBaseUrl, serverDatabase } from "./server-under-test";

/** 30 € of arrhes on a 120 € session, by card or transfer, proposed back rather than refunded at once. */
export const ARRHES_30_OF_120: DepositRule = {
  amount: "fixed",
  value: 3_000,
  priceCents: 12_000,
  nature: "arrhes",
  methods: ["card", "transfer"],
  transferHours: 24,
  refundAtOnce: false,
};

/**
 * A site of the test file's own ready to take deposits (decision 0186): Brive booked online, a session type
 * `slug` asking 40 € of arrhes by card or transfer (refunded at once on a cancellation in time when
 * `refundAtOnce`), cards and transfers accepted, and a complete seller (an invoice is issued only then,
 * decision 0181).
 */
export async function prepareDepositSite(
  slug: string,
  options: { refundAtOnce?: boolean } = {},
): Promise<void> {
  const database = serverDatabase();
  const { brive } = await studioIds(database);
  await insertSessionType(
    [brive],
    {
      name: "Portrait arrhes",
      slug,
      // Its first times 3 days on: past the 48 h cut-off, the client may still cancel online.
      minimumNoticeHours: 72,
      deposit: {
        amount: "fixed",
        value: 4_000,
        priceCents: null,
        nature: "arrhes",
        methods: ["card", "transfer"],
        transferHours: 48,
        refundAtOnce: options.refundAtOnce ?? false,
      },
    },
    database,
  );
  await database.execute(
    sql`update studios set data = jsonb_set(data, '{onlineBooking}', 'true') where slug = 'brive'`,
  );
  // Cards accepted by the owner (the CSP's form-action then allows the provider's page).
  const [payments] = await database
    .select({ data: siteDocuments.data })
    .from(siteDocuments)
    .where(eq(siteDocuments.key, "payments"));
  await database
    .update(siteDocuments)
    .set({
      data: {
        ...(payments?.data as object),
        card: true,
        transfer: true,
        // The settings take transfers only with the bank details the client is given.
        transferHolder: "Studio Lumière",
        transferIban: "FR7630006000011234567890189",
      },
    })
    .where(eq(siteDocuments.key, "payments"));
  await database
    .update(siteDocuments)
    .set({ data: completeLegal })
    .where(eq(siteDocuments.key, "legal"));
}

const words = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ");

/**
 * The client's e-mail whose subject starts with `subject`, once it came, and the PDF its line
 * `{label} {number} : {link}` (or `{label} : {link}`) points to, read as text.
 */
async function mailedPdf<Mail extends { subject: string; text?: string }>(
  mailsTo: (address: string) => Mail[],
  email: string,
  subject: string,
  label: "Facture" | "Avoir",
) {
  await expect
    .poll(() => mailsTo(email).map((mail) => mail.subject))
    .toContainEqual(expect.stringMatching(new RegExp(`^${subject}`)));
  const mail = mailsTo(email).find((candidate) => candidate.subject.startsWith(subject));
  const link = new RegExp(`${label}(?: [AF]-\\d{4}-\\d{6})? : (\\S+\\.pdf)`).exec(
    mail?.text ?? "",
  )?.[1];
  const series = label === "Avoir" ? "A" : "F";
  expect(link).toMatch(
    new RegExp(`/commande/[A-Za-z0-9_-]+/facture/${series}-\\d{4}-\\d{6}\\.pdf$`),
  );
  const response = await fetch(new URL(new URL(link ?? "").pathname, serverBaseUrl()));
  expect(response.status).toBe(200);
  return { mail, pdf: words(pdfText(Buffer.from(await response.arrayBuffer()))) };
}

/** The client's confirmation, once it came, and its invoice's PDF (the e-mail's link) read as text. */
export const confirmationWithInvoice = <Mail extends { subject: string; text?: string }>(
  mailsTo: (address: string) => Mail[],
  email: string,
) => mailedPdf(mailsTo, email, "Votre séance est réservée", "Facture");

/** The e-mail of a refund done, once it came, and its credit note's PDF read as text. */
export const refundWithCreditNote = <Mail extends { subject: string; text?: string }>(
  mailsTo: (address: string) => Mail[],
  email: string,
) => mailedPdf(mailsTo, email, "Remboursement effectué", "Avoir");
