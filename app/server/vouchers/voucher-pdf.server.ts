/**
 * The gift voucher as a PDF people print and keep (decision 0164): one A4 page in the site's colours and
 * typefaces, drawn with pdf-lib from plain data. The fonts are the site's own, cut for French and stored as
 * TrueType beside the web subsets (scripts/fonts/subset-pdf-fonts.py); pdf-lib embeds only the glyphs the
 * voucher uses. The QR code is drawn as vector squares, not an image: sharp at any printer's resolution.
 */
import { PDFDocument, type PDFFont, type PDFPage, type RGB } from "pdf-lib";
import type QRCodeModule from "qrcode";
import { parseCalendar } from "~/lib/dates";
import { formatVoucherCode, parseVoucherCode } from "~/lib/vouchers/code";
import {
  voucherCoverLine,
  voucherTermsLine,
  voucherValidityLine,
  VOUCHER_TEXT_LIMITS,
  type VoucherCover,
} from "~/lib/vouchers/terms";
import {
  A4,
  charactersMissingFromPdfFonts,
  embedPdfFonts,
  type Fonts,
  loadPdfFonts,
  normalisePdfText,
  PdfError,
  pdfFontsFolder,
  THEME,
  wrapText,
} from "../pdf/pdf-fonts.server";

export type VoucherPdfStudio = {
  name: string;
  address: { street: string; postalCode: string; city: string };
  phone?: string;
};

export type VoucherPdfInput = {
  /** The business's name, at the top. */
  brandName: string;
  recipientName: string;
  buyerName: string;
  /** The buyer's words, as typed (line breaks kept); empty for none. */
  message: string;
  /** What the voucher gives: a session (at a studio or any), or an amount. */
  cover: VoucherCover;
  /** The code, stored (« 7K3QM2XD9PTX ») or shown (« 7K3Q-M2XD-9PTX »): printed grouped. */
  code: string;
  /** Its last day, « YYYY-MM-DD » (voucherExpiryDay). */
  expiryDay: string;
  /** The studios where it can be used, with their addresses. */
  studios: VoucherPdfStudio[];
  /** The site's address as people type it (« www.studio-photo.fr »). */
  siteAddress: string;
  /** The address the QR code opens. */
  link: string;
};

/** Why a voucher cannot be drawn: a programming or set-up error, never the buyer's. */
export class VoucherPdfError extends PdfError {
  override name = "VoucherPdfError";
}

/** The voucher's fonts' folder (the site's PDF fonts). */
export const voucherFontsFolder = pdfFontsFolder;

/** The characters of `texts` that the voucher's fonts cannot draw (checked by the order form first). */
export const charactersMissingFromVoucherFonts = charactersMissingFromPdfFonts;

const normalise = normalisePdfText;

/** A name or an address on one line, whatever spaces and line breaks it was given with. */
const oneLine = (text: string) => normalise(text).replace(/\s+/g, " ").trim();

const {
  foreground: FOREGROUND,
  mutedForeground: MUTED_FOREGROUND,
  muted: MUTED,
  border: BORDER,
  gold: GOLD,
  goldDark: GOLD_DARK,
} = THEME;

const PAGE_WIDTH = A4.width;
const PAGE_HEIGHT = A4.height;
const MARGIN = 56;
/** Above the brand and below the site's address: the frame is 24 points from the page's edge. */
const MARGIN_VERTICAL = 44;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;

type TextStyle = { font: PDFFont; size: number; color: RGB };

function drawCentred(page: PDFPage, text: string, y: number, style: TextStyle): void {
  const width = style.font.widthOfTextAtSize(text, style.size);
  page.drawText(text, { x: (PAGE_WIDTH - width) / 2, y, ...style });
}

/** Lines of text centred under each other from `top` down; returns the y below the last one. */
function drawCentredLines(
  page: PDFPage,
  lines: string[],
  top: number,
  style: TextStyle,
  leading: number,
) {
  let y = top;
  for (const line of lines) {
    y -= leading;
    drawCentred(page, line, y, style);
  }
  return y;
}

function required(input: VoucherPdfInput): void {
  const fields: Array<[string, string]> = [
    ["nom de la marque", input.brandName],
    ["nom du bénéficiaire", input.recipientName],
    ["nom de l'acheteur", input.buyerName],
    ["adresse du site", input.siteAddress],
  ];
  for (const [label, value] of fields) {
    if (!value.trim()) {
      throw new VoucherPdfError(`Le bon cadeau n'a pas de ${label} : le PDF n'est pas créé.`);
    }
  }
  for (const name of [input.recipientName, input.buyerName]) {
    if (name.trim().length > VOUCHER_TEXT_LIMITS.name) {
      throw new VoucherPdfError(
        `Le nom « ${name} » dépasse ${VOUCHER_TEXT_LIMITS.name} caractères : le PDF n'est pas créé.`,
      );
    }
  }
  if (!parseCalendar(input.expiryDay, { time: false })) {
    throw new VoucherPdfError(
      `La date de fin du bon cadeau n'est pas une date : « ${input.expiryDay} ».`,
    );
  }
  if (!URL.canParse(input.link) || !/^https?:$/.test(new URL(input.link).protocol)) {
    throw new VoucherPdfError(`Le lien du code QR n'est pas une adresse web : « ${input.link} ».`);
  }
  if (input.studios.length === 0) {
    throw new VoucherPdfError("Le bon cadeau ne nomme aucun studio : le PDF n'est pas créé.");
  }
}

/** The stored form of the code (given stored or grouped), or why it cannot be printed. */
function checkedCode(code: string): string {
  const compact = code.trim().replace(/-/g, "");
  if (!compact)
    throw new VoucherPdfError("Le code du bon cadeau est vide : le PDF n'est pas créé.");
  const parsed = parseVoucherCode(compact);
  if (!parsed.ok || parsed.code !== compact) {
    throw new VoucherPdfError(
      `« ${code} » n'est pas un code de bon cadeau valide : le PDF n'est pas créé.`,
    );
  }
  return compact;
}

/** A QR code's modules (dark or light squares). */
type QrModules = ReturnType<typeof QRCodeModule.create>["modules"];

/**
 * The QR code of `link`. `qrcode` is loaded on the first voucher made, not with the server: a process that
 * only serves public pages never holds it (decision 0092, tests/system/startup-modules).
 */
async function qrModules(link: string): Promise<QrModules> {
  const { default: QRCode } = await import("qrcode");
  return QRCode.create(link, { errorCorrectionLevel: "M" }).modules;
}

/** The QR code's modules as dark squares, its top-left corner at (x, top). */
function drawQrCode(page: PDFPage, modules: QrModules, x: number, top: number, size: number): void {
  const module = size / modules.size;
  for (let row = 0; row < modules.size; row++) {
    // One rectangle per run of dark modules in a row: fewer drawing operations, the same picture.
    let column = 0;
    while (column < modules.size) {
      if (!modules.get(row, column)) {
        column++;
        continue;
      }
      const start = column;
      while (column < modules.size && modules.get(row, column)) column++;
      page.drawRectangle({
        x: x + start * module,
        y: top - (row + 1) * module,
        width: (column - start) * module,
        height: module,
        color: FOREGROUND,
      });
    }
  }
}

/** The voucher as a one-page PDF (A4 portrait). */
export async function renderVoucherPdf(
  input: VoucherPdfInput,
  { fontsFolder }: { fontsFolder?: string } = {},
): Promise<Uint8Array> {
  required(input);
  const code = checkedCode(input.code);
  const message = normalise(input.message).trim();
  if (
    message.length > VOUCHER_TEXT_LIMITS.message ||
    message.split("\n").length > VOUCHER_TEXT_LIMITS.messageLines
  ) {
    throw new VoucherPdfError(
      `Le message du bon cadeau dépasse ${VOUCHER_TEXT_LIMITS.message} caractères ou ${VOUCHER_TEXT_LIMITS.messageLines} lignes : le PDF n'est pas créé.`,
    );
  }
  const loaded = await loadPdfFonts(fontsFolder ?? voucherFontsFolder()).catch((error: unknown) => {
    throw error instanceof PdfError && !(error instanceof VoucherPdfError)
      ? new VoucherPdfError(error.message)
      : error;
  });
  const studioTexts = input.studios.flatMap((studio) => [
    studio.name,
    studio.address.street,
    `${studio.address.postalCode} ${studio.address.city}`,
    studio.phone ?? "",
  ]);
  const texts = [
    input.brandName,
    input.recipientName,
    input.buyerName,
    message,
    voucherCoverLine(input.cover),
    input.siteAddress,
    ...studioTexts,
  ];
  const missing = await charactersMissingFromVoucherFonts(
    texts,
    fontsFolder ?? voucherFontsFolder(),
  );
  if (missing.length > 0) {
    throw new VoucherPdfError(
      `Ces caractères ne peuvent pas être écrits dans le PDF du bon cadeau : ${missing.map((character) => `« ${character} »`).join(", ")}.`,
    );
  }

  const document = await PDFDocument.create();
  const fonts = await embedPdfFonts(document, loaded);
  const brand = oneLine(input.brandName);
  const recipient = oneLine(input.recipientName);
  const buyer = oneLine(input.buyerName);
  const siteAddress = oneLine(input.siteAddress);
  document.setTitle(`Bon cadeau ${brand} pour ${recipient}`);
  document.setAuthor(brand);
  document.setCreator(brand);
  document.setLanguage("fr-FR");

  // Everything but the message is measured first: the message takes the room left, its size reduced to fit.
  const brandStyle = fittedStyle(brand, fonts.display, 20, 11, FOREGROUND);
  const brandLines = wrapText(brand, brandStyle.font, brandStyle.size, CONTENT_WIDTH);
  const nameStyle = fittedStyle(recipient, fonts.displayBold, 34, 20, FOREGROUND);
  const recipientLines = wrapText(recipient, nameStyle.font, nameStyle.size, CONTENT_WIDTH);
  // A long name (in capitals, 60 characters) goes on to a second line rather than past the frame.
  const buyerStyle = { font: fonts.text, size: 12, color: MUTED_FOREGROUND };
  const buyerLines = wrapText(
    `De la part de ${buyer}`,
    buyerStyle.font,
    buyerStyle.size,
    CONTENT_WIDTH,
  );
  const coverStyle = { font: fonts.displayBold, size: 18, color: FOREGROUND };
  const coverLines = wrapText(
    oneLine(voucherCoverLine(input.cover)),
    coverStyle.font,
    coverStyle.size,
    CONTENT_WIDTH,
  );
  const columns = Math.min(input.studios.length, 3);
  const columnWidth = CONTENT_WIDTH / columns;
  const studioBlocks = input.studios.map((studio) => studioLines(studio, fonts, columnWidth - 12));
  const studioRows = Math.ceil(studioBlocks.length / columns);
  const studioRowHeight =
    Math.max(...studioBlocks.map((block) => block.length)) * STUDIO_LEADING + 8;
  const termsStyle = { font: fonts.text, size: 8.5, color: MUTED_FOREGROUND };
  const terms = wrapText(
    voucherTermsLine(input.cover.kind),
    termsStyle.font,
    termsStyle.size,
    CONTENT_WIDTH,
  );

  const brandLeading = brandStyle.size * 1.1;
  const footerTop = MARGIN_VERTICAL + 4 + terms.length * 12 + 8;
  /** The room left for the message's box, the parts spaced as `space` says. */
  const roomAt = (space: Spaces) =>
    PAGE_HEIGHT -
    MARGIN_VERTICAL -
    (brandLines.length * brandLeading + space.beforeTitle + 14 + space.beforeFor) -
    (16 +
      recipientLines.length * nameStyle.size * 1.15 +
      space.beforeBuyer +
      (buyerLines.length - 1) * BUYER_LEADING) -
    (space.beforeGift + 2 + coverLines.length * 24) -
    (space.beforeCode + CODE_BOX_HEIGHT) -
    (space.beforeStudios + 10 + studioRows * studioRowHeight) -
    footerTop -
    12;
  // At ease first; closer when the message cannot fit so (the longest one beside long addresses).
  let fitted: { space: Spaces; messageBox: ReturnType<typeof fittedMessage> } | null = null;
  for (const ease of [1, 0.75, 0.5, 0.25, 0]) {
    const space = spacesAt(ease);
    const room = roomAt(space);
    const messageBox = message
      ? fittedMessage(message, fonts.display, room - space.beforeMessage)
      : null;
    if (room >= 0 && (!message || messageBox)) {
      fitted = { space, messageBox };
      break;
    }
  }
  if (!fitted) {
    throw new VoucherPdfError("Le contenu du bon cadeau ne tient pas sur une page.");
  }
  const { space, messageBox } = fitted;

  const page = document.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  const frame = 24;
  page.drawRectangle({
    x: frame,
    y: frame,
    width: PAGE_WIDTH - 2 * frame,
    height: PAGE_HEIGHT - 2 * frame,
    borderColor: GOLD,
    borderWidth: 1.2,
  });

  // The brand, « Bon cadeau », for whom and from whom.
  let y = drawCentredLines(
    page,
    brandLines,
    PAGE_HEIGHT - MARGIN_VERTICAL,
    brandStyle,
    brandLeading,
  );
  y -= space.beforeTitle;
  drawCentred(page, "BON CADEAU", y, { font: fonts.textBold, size: 10, color: GOLD_DARK });
  y -= 14;
  page.drawLine({
    start: { x: PAGE_WIDTH / 2 - 40, y },
    end: { x: PAGE_WIDTH / 2 + 40, y },
    thickness: 1,
    color: GOLD,
  });
  y -= space.beforeFor;
  drawCentred(page, "Pour", y, { font: fonts.text, size: 12, color: MUTED_FOREGROUND });
  y = drawCentredLines(page, recipientLines, y - 4, nameStyle, nameStyle.size * 1.15);
  y = drawCentredLines(
    page,
    buyerLines,
    y - space.beforeBuyer + BUYER_LEADING,
    buyerStyle,
    BUYER_LEADING,
  );

  if (messageBox) {
    y -= space.beforeMessage;
    page.drawRectangle({
      x: MARGIN,
      y: y - messageBox.height,
      width: CONTENT_WIDTH,
      height: messageBox.height,
      color: MUTED,
    });
    const style = { font: fonts.display, size: messageBox.size, color: FOREGROUND };
    drawCentredLines(
      page,
      messageBox.lines,
      y - MESSAGE_PADDING + messageBox.size * (MESSAGE_LEADING - 0.95),
      style,
      messageBox.size * MESSAGE_LEADING,
    );
    y -= messageBox.height;
  }

  // What it gives.
  y -= space.beforeGift;
  drawCentred(page, "Ce bon vous offre", y, {
    font: fonts.text,
    size: 11,
    color: MUTED_FOREGROUND,
  });
  y = drawCentredLines(page, coverLines, y - 2, coverStyle, 24);

  // The code and its QR code, the last day.
  y -= space.beforeCode;
  drawCodeBox(page, y, { code, input, fonts, siteAddress, qr: await qrModules(input.link) });
  y -= CODE_BOX_HEIGHT;

  // The studios, side by side.
  y -= space.beforeStudios;
  drawCentred(page, input.studios.length > 1 ? "Nos studios" : "Notre studio", y, {
    font: fonts.display,
    size: 14,
    color: FOREGROUND,
  });
  y -= 10;
  studioBlocks.forEach((block, index) => {
    const x = MARGIN + (index % columns) * columnWidth;
    let lineY = y - Math.floor(index / columns) * studioRowHeight;
    for (const [line, style] of block) {
      lineY -= STUDIO_LEADING;
      const width = style.font.widthOfTextAtSize(line, style.size);
      page.drawText(line, { x: x + (columnWidth - width) / 2, y: lineY, ...style });
    }
  });

  // The conditions and the site, at the foot.
  page.drawLine({
    start: { x: MARGIN, y: footerTop },
    end: { x: PAGE_WIDTH - MARGIN, y: footerTop },
    thickness: 0.5,
    color: BORDER,
  });
  const footY = drawCentredLines(page, terms, footerTop - 8, termsStyle, 12);
  drawCentred(page, siteAddress, footY - 14, { font: fonts.textBold, size: 9, color: FOREGROUND });

  return document.save();
}

/**
 * The white space above some of the voucher's parts, from the baseline or edge above to the next, in points:
 * at ease, and at the closest that keeps each part's letters clear of its neighbour's (accented capitals
 * under a name's descenders). A voucher whose message cannot fit at ease is drawn closer, never cut.
 */
const SPACES = {
  /** The brand's last line to « BON CADEAU ». */
  beforeTitle: { ease: 22, tight: 14 },
  /** The gold line to « Pour ». */
  beforeFor: { ease: 32, tight: 16 },
  /** The recipient's name to « De la part de ». */
  beforeBuyer: { ease: 24, tight: 20 },
  /** « De la part de » to the message's box. */
  beforeMessage: { ease: 22, tight: 10 },
  /** The message's box (or « De la part de ») to « Ce bon vous offre ». */
  beforeGift: { ease: 36, tight: 16 },
  /** What it gives to the code's box. */
  beforeCode: { ease: 24, tight: 12 },
  /** The code's box to « Nos studios ». */
  beforeStudios: { ease: 34, tight: 20 },
} as const;
type Spaces = Record<keyof typeof SPACES, number>;

/** The spaces from at ease (1) to tight (0). */
function spacesAt(ease: number): Spaces {
  const entries = Object.entries(SPACES).map(([part, { ease: loose, tight }]) => [
    part,
    tight + (loose - tight) * ease,
  ]);
  return Object.fromEntries(entries) as Spaces;
}

const CODE_BOX_HEIGHT = 128;
const QR_SIZE = 104;
const STUDIO_LEADING = 13;
const BUYER_LEADING = 16;
const MESSAGE_LEADING = 1.3;
const MESSAGE_PADDING = 10;

/** The style of a one-line text at the largest size from `largest` down to `smallest` at which it fits. */
function fittedStyle(
  text: string,
  font: PDFFont,
  largest: number,
  smallest: number,
  color: RGB,
): TextStyle {
  let size = largest;
  while (size > smallest && font.widthOfTextAtSize(text, size) > CONTENT_WIDTH) size -= 1;
  return { font, size, color };
}

/** The message's lines at the largest size (13 down to 8 points) whose box is at most `maxHeight` tall. */
function fittedMessage(message: string, font: PDFFont, maxHeight: number) {
  for (let size = 13; size >= 8; size -= 0.5) {
    const lines = wrapText(message, font, size, CONTENT_WIDTH - 40);
    const height = lines.length * size * MESSAGE_LEADING + 2 * MESSAGE_PADDING;
    if (height <= maxHeight) return { lines, size, height };
  }
  return null;
}

/** A studio's name (bold) and address lines, wrapped to its column. */
function studioLines(
  studio: VoucherPdfStudio,
  fonts: Fonts,
  width: number,
): Array<[string, TextStyle]> {
  const name = { font: fonts.textBold, size: 9.5, color: FOREGROUND };
  const address = { font: fonts.text, size: 9, color: MUTED_FOREGROUND };
  const addressText = [
    studio.address.street,
    `${studio.address.postalCode} ${studio.address.city}`,
    studio.phone ?? "",
  ]
    .map(oneLine)
    .filter((line) => line !== "")
    .join("\n");
  return [
    ...wrapText(oneLine(studio.name), name.font, name.size, width).map(
      (line): [string, TextStyle] => [line, name],
    ),
    ...wrapText(addressText, address.font, address.size, width).map((line): [string, TextStyle] => [
      line,
      address,
    ]),
  ];
}

/**
 * How the voucher is used, as its kind allows: the booking form takes a session voucher's code (its QR code
 * leads to that session's booking page, or to the studios' contacts when it cannot be booked online), and
 * refuses an amount, spent at the studio (its QR code leads to the studios' contacts).
 */
export function voucherUseHint(kind: VoucherCover["kind"], siteAddress: string): string {
  // Two lines at most: the box has room for no third.
  return kind === "session"
    ? `Pour l'utiliser : scannez le code QR pour réserver votre séance, ou indiquez ce code en réservant sur ${siteAddress}.`
    : "Pour l'utiliser : présentez ce bon au studio le jour de votre séance (le code QR mène à ses coordonnées).";
}

/** The framed box with the code, its last day, how to use it, and the QR code of the link on the right. */
function drawCodeBox(
  page: PDFPage,
  top: number,
  {
    code,
    input,
    fonts,
    siteAddress,
    qr,
  }: { code: string; input: VoucherPdfInput; fonts: Fonts; siteAddress: string; qr: QrModules },
): void {
  page.drawRectangle({
    x: MARGIN,
    y: top - CODE_BOX_HEIGHT,
    width: CONTENT_WIDTH,
    height: CODE_BOX_HEIGHT,
    borderColor: BORDER,
    borderWidth: 1,
  });
  drawQrCode(page, qr, MARGIN + CONTENT_WIDTH - QR_SIZE - 12, top - 12, QR_SIZE);
  const left = MARGIN + 20;
  page.drawText("Code du bon", {
    x: left,
    y: top - 30,
    font: fonts.text,
    size: 10,
    color: MUTED_FOREGROUND,
  });
  page.drawText(formatVoucherCode(code), {
    x: left,
    y: top - 60,
    font: fonts.textBold,
    size: 26,
    color: FOREGROUND,
  });
  page.drawText(voucherValidityLine(input.expiryDay), {
    x: left,
    y: top - 86,
    font: fonts.textBold,
    size: 12,
    color: GOLD_DARK,
  });
  const hint = wrapText(
    voucherUseHint(input.cover.kind, siteAddress),
    fonts.text,
    9,
    CONTENT_WIDTH - QR_SIZE - 56,
  );
  hint.forEach((line, index) => {
    page.drawText(line, {
      x: left,
      y: top - 104 - index * 12,
      font: fonts.text,
      size: 9,
      color: MUTED_FOREGROUND,
    });
  });
}
