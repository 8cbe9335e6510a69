/**
 * An invoice or a credit note as the PDF its buyer downloads and the studio keeps (decision 0178): A4, the
 * site's typefaces (every French accent), drawn with pdf-lib from the invoice's own immutable row, so that
 * the same invoice always gives the same text. The mentions French law asks (CGI art. 242 nonies A, Code de
 * commerce L441-9 for what applies to consumers): the seller's identity and numbers, the buyer, the number
 * and date, the service's date, each line with its quantity, unit price and TVA rate, the totals HT, TVA by
 * rate and TTC (or the franchise's mention), how it was paid, the consumer mediator.
 */
import { PDFDocument, type PDFFont, type PDFPage, type RGB } from "pdf-lib";
import { formatDateFr } from "~/lib/dates";
import {
  INVOICE_TITLES,
  invoiceAmount,
  vatRateLabel,
  type InvoiceLineInput,
} from "~/lib/invoices/model";
import { formatCalendarDayFr } from "~/lib/vouchers/terms";
import {
  A4,
  charactersMissingFromPdfFonts,
  embedPdfFonts,
  loadPdfFonts,
  normalisePdfText,
  PdfError,
  THEME,
  wrapText,
  type Fonts,
} from "../pdf/pdf-fonts.server";
import type { InvoiceRecord } from "./issue.server";

export type InvoicePdfInput = {
  invoice: InvoiceRecord;
  /** For a credit note: the number of the invoice it corrects. */
  creditedNumber?: string | null;
};

const MARGIN = 48;
const CONTENT_WIDTH = A4.width - 2 * MARGIN;
/** The seller's column, top left: its name and details wrap within it, clear of the title. */
const SELLER_WIDTH = 260;
/** Lower than this, a line goes to the next page (the footer's room). */
const BOTTOM = MARGIN + 56;

type TextStyle = { font: PDFFont; size: number; color: RGB };

const oneLine = (text: string) => normalisePdfText(text).replace(/\s+/g, " ").trim();

/** The table's number columns, each by its width; the label takes what they leave. */
const NUMBER_COLUMNS = [
  { title: "Qté", width: 34 },
  { title: "Prix unit. TTC", width: 82 },
  { title: "TVA", width: 46 },
  { title: "Montant TTC", width: 82 },
] as const;
const LABEL_WIDTH =
  CONTENT_WIDTH - NUMBER_COLUMNS.reduce((sum, column) => sum + column.width, 0) - 8;
/** Each number column's right edge, left to right. */
const NUMBER_RIGHTS = NUMBER_COLUMNS.map(
  (_, index) =>
    MARGIN +
    LABEL_WIDTH +
    8 +
    NUMBER_COLUMNS.slice(0, index + 1).reduce((sum, column) => sum + column.width, 0),
);

/** The PDF's texts, to check them against the fonts before drawing. */
function textsOf({ invoice, creditedNumber }: InvoicePdfInput): string[] {
  const { seller, buyer } = invoice;
  return [
    ...Object.values(seller).flatMap((value) =>
      typeof value === "string" ? [value] : value ? Object.values(value) : [],
    ),
    buyer.name,
    buyer.email,
    buyer.address ?? "",
    ...invoice.lines.map((line) => line.label),
    invoice.paymentTerms,
    creditedNumber ?? "",
  ];
}

class Writer {
  page: PDFPage;
  y: number;
  private readonly document: PDFDocument;
  private readonly fonts: Fonts;
  private readonly continued: string;

  constructor(document: PDFDocument, fonts: Fonts, continued: string) {
    this.document = document;
    this.fonts = fonts;
    this.continued = continued;
    this.page = document.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }

  /** Room for `height` points more, or a new page whose top says what it continues. */
  room(height: number): void {
    if (this.y - height >= BOTTOM) return;
    this.page = this.document.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
    this.text(this.continued, MARGIN, {
      font: this.fonts.textBold,
      size: 9,
      color: THEME.mutedForeground,
    });
    this.y -= 18;
  }

  text(text: string, x: number, style: TextStyle): void {
    this.page.drawText(text, { x, y: this.y, ...style });
  }

  right(text: string, rightEdge: number, style: TextStyle): void {
    const width = style.font.widthOfTextAtSize(text, style.size);
    this.page.drawText(text, { x: rightEdge - width, y: this.y, ...style });
  }

  rule(): void {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4.width - MARGIN, y: this.y },
      thickness: 0.75,
      color: THEME.border,
    });
  }
}

/** The invoice as a PDF (A4 portrait, as many pages as its lines need). */
export async function renderInvoicePdf(input: InvoicePdfInput): Promise<Uint8Array> {
  const { invoice } = input;
  if (invoice.kind === "credit_note" && !input.creditedNumber) {
    throw new PdfError(`L'avoir ${invoice.number} ne nomme pas la facture qu'il corrige.`);
  }
  const loaded = await loadPdfFonts();
  const missing = await charactersMissingFromPdfFonts(textsOf(input));
  if (missing.length > 0) {
    throw new PdfError(
      `Ces caractères ne peuvent pas être écrits dans la facture ${invoice.number} : ${missing.map((character) => `« ${character} »`).join(", ")}.`,
    );
  }
  const document = await PDFDocument.create();
  const fonts = await embedPdfFonts(document, loaded);
  const title = INVOICE_TITLES[invoice.kind];
  const { seller, buyer } = invoice;
  document.setTitle(`${title} ${invoice.number}`);
  document.setAuthor(oneLine(seller.companyName));
  document.setLanguage("fr-FR");
  document.setCreationDate(invoice.issuedAt);
  document.setModificationDate(invoice.issuedAt);

  const text: TextStyle = { font: fonts.text, size: 9, color: THEME.foreground };
  const muted: TextStyle = { ...text, color: THEME.mutedForeground };
  const bold: TextStyle = { ...text, font: fonts.textBold };
  const writer = new Writer(document, fonts, `${title} ${invoice.number} (suite)`);
  const rightEdge = A4.width - MARGIN;

  // The seller, top left; the document's title, number and dates, top right.
  const top = writer.y;
  // A long name goes on to more lines within its column, clear of the title on the right.
  wrapText(oneLine(seller.companyName), fonts.displayBold, 16, SELLER_WIDTH).forEach(
    (line, index) => {
      if (index > 0) writer.y -= 21;
      writer.text(line, MARGIN, { font: fonts.displayBold, size: 16, color: THEME.foreground });
    },
  );
  writer.y -= 16;
  const sellerLines = [
    seller.legalForm,
    seller.address,
    seller.registration,
    `SIRET ${seller.siret}`,
    seller.vatNumber ? `N° de TVA intracommunautaire : ${seller.vatNumber}` : null,
    [seller.phone, seller.email].filter(Boolean).join(" · "),
  ].filter((line): line is string => Boolean(line));
  for (const line of sellerLines.flatMap((each) =>
    wrapText(oneLine(each), fonts.text, 9, SELLER_WIDTH),
  )) {
    writer.text(line, MARGIN, muted);
    writer.y -= 12;
  }
  const sellerBottom = writer.y;

  writer.y = top;
  writer.right(title, rightEdge, { font: fonts.displayBold, size: 20, color: THEME.foreground });
  writer.y -= 18;
  writer.right(`N° ${invoice.number}`, rightEdge, { ...bold, size: 11 });
  writer.y -= 14;
  writer.right(`Date : ${formatDateFr(invoice.issuedAt)}`, rightEdge, text);
  if (invoice.serviceDate) {
    writer.y -= 12;
    writer.right(
      `Date de la prestation : ${formatCalendarDayFr(invoice.serviceDate)}`,
      rightEdge,
      text,
    );
  }
  if (input.creditedNumber) {
    writer.y -= 12;
    writer.right(`Avoir sur la facture ${input.creditedNumber}`, rightEdge, bold);
  }
  writer.y = Math.min(writer.y - 12, sellerBottom) - 10;

  // The buyer.
  writer.text("Client", MARGIN, { ...bold, color: THEME.goldDark });
  writer.y -= 13;
  for (const line of [buyer.name, buyer.email, buyer.address].filter((each): each is string =>
    Boolean(each),
  )) {
    for (const part of wrapText(oneLine(line), fonts.text, 10, CONTENT_WIDTH)) {
      writer.text(part, MARGIN, { ...text, size: 10 });
      writer.y -= 13;
    }
  }
  writer.y -= 12;

  // The lines.
  const header = () => {
    writer.text("Désignation", MARGIN, bold);
    NUMBER_COLUMNS.forEach((column, index) =>
      writer.right(column.title, NUMBER_RIGHTS[index] ?? rightEdge, bold),
    );
    writer.y -= 6;
    writer.rule();
    writer.y -= 13;
  };
  writer.room(40);
  header();
  for (const line of invoice.lines) {
    const labelLines = wrapText(oneLine(line.label), fonts.text, 9, LABEL_WIDTH);
    const page = writer.page;
    writer.room(labelLines.length * 12 + 4);
    // A new page starts its table with the columns' titles again.
    if (writer.page !== page) header();
    drawLine(writer, line, labelLines, text);
    writer.y -= labelLines.length * 12 + 4;
  }
  writer.y += 9;
  writer.rule();
  writer.y -= 16;

  // The totals, right: HT and TVA by rate when there is TVA, then TTC.
  const taxed = invoice.vatBreakdown.some((share) => share.vatRate !== null);
  const totals: Array<[string, string, TextStyle]> = taxed
    ? [
        ["Total HT", invoiceAmount(invoice.htCents), text],
        ...invoice.vatBreakdown
          .filter((share) => share.vatRate !== null)
          .map((share): [string, string, TextStyle] => [
            `TVA ${vatRateLabel(share.vatRate)} sur ${invoiceAmount(share.htCents)}`,
            invoiceAmount(share.vatCents),
            text,
          ]),
        ["Total TTC", invoiceAmount(invoice.ttcCents), { ...bold, size: 11 }],
      ]
    : [["Total", invoiceAmount(invoice.ttcCents), { ...bold, size: 11 }]];
  writer.room(totals.length * 15 + 40);
  for (const [label, amount, style] of totals) {
    writer.right(label, rightEdge - 100, style);
    writer.right(amount, rightEdge, style);
    writer.y -= 15;
  }
  if (seller.vatMention) {
    writer.right(seller.vatMention, rightEdge, muted);
    writer.y -= 15;
  }
  writer.y -= 8;

  // How it was paid, then the mediator.
  for (const part of wrapText(oneLine(invoice.paymentTerms), fonts.text, 9, CONTENT_WIDTH)) {
    writer.room(12);
    writer.text(part, MARGIN, text);
    writer.y -= 12;
  }
  const mediation = `Médiation de la consommation : en cas de litige non résolu avec le studio, vous pouvez recourir gratuitement à ${oneLine(seller.mediator.name)}${seller.mediator.website ? ` (${seller.mediator.website.replace(/^https?:\/\//, "")})` : ""}.`;
  writer.y -= 6;
  for (const part of wrapText(mediation, fonts.text, 8, CONTENT_WIDTH)) {
    writer.room(11);
    writer.text(part, MARGIN, { ...muted, size: 8 });
    writer.y -= 11;
  }

  // Each page's foot: who issued it, and the page's number.
  const pages = document.getPages();
  const foot = oneLine(`${seller.companyName} · ${seller.address} · SIRET ${seller.siret}`);
  const style = { ...muted, size: 7.5 };
  // Left of the page's number, on as many lines as it needs, upwards from the last (a long address).
  const numberWidth = style.font.widthOfTextAtSize(
    `${invoice.number} · page ${pages.length}/${pages.length}`,
    style.size,
  );
  const footLines = wrapText(foot, style.font, style.size, CONTENT_WIDTH - numberWidth - 12);
  pages.forEach((page, index) => {
    footLines.forEach((line, row) => {
      const y = MARGIN - 8 + (footLines.length - 1 - row) * 9;
      page.drawText(line, { x: MARGIN, y, ...style });
    });
    const number = `${invoice.number} · page ${index + 1}/${pages.length}`;
    const width = style.font.widthOfTextAtSize(number, style.size);
    page.drawText(number, { x: A4.width - MARGIN - width, y: MARGIN - 8, ...style });
  });

  return document.save({ useObjectStreams: true });
}

function drawLine(
  writer: Writer,
  line: InvoiceLineInput,
  labelLines: string[],
  style: TextStyle,
): void {
  const top = writer.y;
  labelLines.forEach((part, index) => {
    writer.y = top - index * 12;
    writer.text(part, MARGIN, style);
  });
  writer.y = top;
  const cells = [
    String(line.quantity),
    invoiceAmount(line.unitPriceCents),
    vatRateLabel(line.vatRate),
    invoiceAmount(line.quantity * line.unitPriceCents),
  ];
  cells.forEach((cell, index) => writer.right(cell, NUMBER_RIGHTS[index] ?? 0, style));
}
