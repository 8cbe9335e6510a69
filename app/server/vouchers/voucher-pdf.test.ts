import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatVoucherCode, generateVoucherCode } from "~/lib/vouchers/code";
import { VOUCHER_TEXT_LIMITS } from "~/lib/vouchers/terms";
import {
  ensurePdfTools,
  pdfPageCount,
  pdfQrCodes,
  pdfText,
  pdfWords,
} from "../../../tests/support/pdf-tools";
import {
  charactersMissingFromVoucherFonts,
  renderVoucherPdf,
  voucherFontsFolder,
  VoucherPdfError,
  type VoucherPdfInput,
} from "./voucher-pdf.server";

const STUDIOS: VoucherPdfInput["studios"] = [
  {
    name: "Studio d'Ussel",
    address: { street: "19 rue du 4 Septembre", postalCode: "19200", city: "Ussel" },
    phone: "05 55 72 00 00",
  },
  {
    name: "Studio de Brive",
    address: {
      street: "26 boulevard Jules Ferry",
      postalCode: "19100",
      city: "Brive-la-Gaillarde",
    },
  },
  {
    name: "Studio de Limoges",
    address: { street: "16 rue Jouanet", postalCode: "87240", city: "Ambazac" },
  },
];

const code = generateVoucherCode();

const voucher = (changes: Partial<VoucherPdfInput> = {}): VoucherPdfInput => ({
  brandName: "Atelier Lumière",
  recipientName: "Élodie Françoise",
  buyerName: "Noël Lefèvre",
  message:
    "Joyeux Noël ! Une séance à Ussel, rien que pour toi : « sœur de cœur » ça se fête.\nÀ très vite, ç'ira.",
  cover: { kind: "session", sessionName: "Séance à Ussel", studioName: "studio d'Ussel" },
  code,
  expiryDay: "2027-11-29",
  studios: STUDIOS,
  siteAddress: "www.atelier-lumiere.fr",
  link: `https://www.atelier-lumiere.fr/bons-cadeaux/${code}`,
  ...changes,
});

// pdftotext writes no-break spaces as they are and breaks lines where the page does: compare words.
const words = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, " ");

beforeAll(() => ensurePdfTools());

/**
 * Every word of the voucher inside its frame's margins (56 points left and right, 24 + 4 top and bottom),
 * none drawn over another nor over the QR code. The fonts' boxes reach above their accents and below their
 * descenders (Playfair's by a fifth of its size): lines set closer than their boxes, whose ink does not
 * touch (a name on two lines), overlap by less than a quarter of their height; text drawn over text, more.
 */
function expectLaidOut(bytes: Uint8Array): void {
  const { pages, words: placed } = pdfWords(bytes);
  expect(pages).toHaveLength(1);
  const { width, height } = pages[0] ?? { width: 0, height: 0 };
  for (const word of placed) {
    expect(word.xMin, word.text).toBeGreaterThanOrEqual(55);
    expect(word.xMax, word.text).toBeLessThanOrEqual(width - 55);
    expect(word.yMin, word.text).toBeGreaterThanOrEqual(28);
    expect(word.yMax, word.text).toBeLessThanOrEqual(height - 28);
  }
  const overlapping = placed.flatMap((word, index) =>
    placed.slice(index + 1).flatMap((other) => {
      const across = Math.min(word.xMax, other.xMax) - Math.max(word.xMin, other.xMin);
      const down = Math.min(word.yMax, other.yMax) - Math.max(word.yMin, other.yMin);
      const lower = Math.min(word.yMax - word.yMin, other.yMax - other.yMin);
      return across > 0.5 && down > lower / 4 ? [`${word.text} / ${other.text}`] : [];
    }),
  );
  expect(overlapping).toEqual([]);
  // The QR code: 104 points square, 12 from the code box's right and top edges; the box's top is 30 points
  // above « Code du bon »'s baseline.
  const label = placed.find((word) => word.text === "Code");
  expect(label).toBeDefined();
  const qrTop = (label?.yMax ?? 0) - 10 * 0.24 - 30 + 12;
  const qrLeft = width - 56 - 12 - 104;
  const overQr = placed.filter(
    (word) => word.xMax > qrLeft && word.yMax > qrTop && word.yMin < qrTop + 104,
  );
  expect(overQr.map((word) => word.text)).toEqual([]);
}

describe("renderVoucherPdf", () => {
  it("writes every accent, the code, the date and the studios in a one-page PDF whose QR code opens the link", async () => {
    const bytes = await renderVoucherPdf(voucher());
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect(pdfPageCount(bytes)).toBe(1);
    const text = words(pdfText(bytes));
    for (const expected of [
      "Atelier Lumière",
      "Élodie Françoise",
      "De la part de Noël Lefèvre",
      "Joyeux Noël ! Une séance à Ussel, rien que pour toi : « sœur de cœur » ça se fête.",
      "À très vite, ç'ira.",
      "Séance à Ussel, studio d'Ussel",
      formatVoucherCode(code),
      "Valable jusqu'au 29 novembre 2027",
      "19 rue du 4 Septembre",
      "19100 Brive-la-Gaillarde",
      "87240 Ambazac",
      "05 55 72 00 00",
      "www.atelier-lumiere.fr",
      "ni échangeable ni remboursable en espèces",
    ]) {
      expect(text).toContain(words(expected));
    }
    expect(pdfQrCodes(bytes)).toEqual([`https://www.atelier-lumiere.fr/bons-cadeaux/${code}`]);
    expectLaidOut(bytes);
  });

  it("tells a session voucher's holder to book with its code, and an amount's to present it at the studio", async () => {
    const session = words(pdfText(await renderVoucherPdf(voucher())));
    expect(session).toContain(
      words(
        "Pour l'utiliser : scannez le code QR pour réserver votre séance, ou indiquez ce code en réservant sur www.atelier-lumiere.fr.",
      ),
    );
    // The booking form refuses an amount voucher: its holder is never told to type its code there.
    const amount = words(
      pdfText(await renderVoucherPdf(voucher({ cover: { kind: "amount", cents: 8_000 } }))),
    );
    expect(amount).not.toContain("en réservant");
    expect(amount).toContain(
      words(
        "Pour l'utiliser : présentez ce bon au studio le jour de votre séance (le code QR mène à ses coordonnées).",
      ),
    );
  });

  it("writes an amount in euros, with its partial use", async () => {
    const bytes = await renderVoucherPdf(
      voucher({ cover: { kind: "amount", cents: 15_000 }, message: "", expiryDay: "2029-02-28" }),
    );
    const text = words(pdfText(bytes));
    expect(text).toContain(words("Valable pour 150\u00a0€"));
    expect(text).toContain("Valable jusqu'au 28 février 2029");
    expect(text).toContain("utilisable en plusieurs fois jusqu'à épuisement du montant");
  });

  it("writes names on one line whatever spaces they were typed with, and decomposed accents whole", async () => {
    const decomposed = "E\u0301lodie\n  Franc\u0327oise";
    const text = pdfText(await renderVoucherPdf(voucher({ recipientName: decomposed })));
    expect(text).toContain("Élodie Françoise");
  });

  it("writes a buyer's name in capitals whole, on the page", async () => {
    // 60 characters, the most the order form takes, as some people type their name.
    const buyerName = "MARIE-GWENDOLINE DE LA ROCHEFOUCAULD-MONTMORENCY D’AUBIGNÉ W";
    expect(buyerName).toHaveLength(VOUCHER_TEXT_LIMITS.name);
    const bytes = await renderVoucherPdf(voucher({ buyerName }));
    expect(words(pdfText(bytes))).toContain(words(`De la part de ${buyerName}`));
    expectLaidOut(bytes);
  });

  it("accepts the code grouped as people read it", async () => {
    const text = words(pdfText(await renderVoucherPdf(voucher({ code: formatVoucherCode(code) }))));
    expect(text).toContain(formatVoucherCode(code));
  });

  it("fits the longest message and names beside three studios with long addresses, or six, on its one page", async () => {
    const { messageLines, message: messageLength, name } = VOUCHER_TEXT_LIMITS;
    // Every line break allowed, then one long paragraph: the most lines a message can take.
    const shortLines = Array.from({ length: messageLines - 1 }, () => "W");
    const paragraph = "Wagon "
      .repeat(Math.floor((messageLength - 2 * shortLines.length) / 6))
      .trim();
    const message = [...shortLines, paragraph].join("\n");
    expect(message.length).toBeLessThanOrEqual(messageLength);
    expect(message.length).toBeGreaterThan(messageLength - 10);
    const longName = "Marie-Élisabeth de La Rochefoucauld-Montmorency de Wagram".padEnd(name, "W");
    const named = STUDIOS.map((studio) => ({
      ...studio,
      name: `${studio.name} — Portraits & Mariages`,
      phone: "05 55 72 00 00",
    }));
    // Each on a few lines in its column.
    const addresses = [
      {
        street: "Résidence Les Jardins d'Ussel, bâtiment B, 12 avenue du Général de Gaulle",
        postalCode: "19200",
        city: "Ussel",
      },
      {
        street: "Centre commercial Les Trois Provinces, 26 boulevard Jules Ferry",
        postalCode: "19100",
        city: "Brive-la-Gaillarde",
      },
      {
        street: "Zone artisanale du Bois Joli, 16 rue Jouanet",
        postalCode: "87240",
        city: "Saint-Sylvestre-sur-Ambazac",
      },
    ];
    const longAddresses = named.map((studio, index) => ({
      ...studio,
      address: addresses[index] ?? studio.address,
    }));
    for (const studios of [named, longAddresses, [...STUDIOS, ...STUDIOS]]) {
      const bytes = await renderVoucherPdf(
        voucher({
          // The identity's brand may have 100 characters (app/content/schemas.ts).
          brandName:
            "Atelier Lumière — Photographie de portrait, de famille et de mariage en Corrèze et en Haute-Vienne",
          message,
          recipientName: longName,
          buyerName: longName,
          cover: {
            kind: "session",
            sessionName: "Séance famille en extérieur avec album et tirages d'art au choix",
            studioName: "dans le studio de votre choix",
          },
          studios,
        }),
      );
      expect(pdfPageCount(bytes)).toBe(1);
      const text = words(pdfText(bytes));
      expect(text.split("Wagon").length - 1).toBe(paragraph.split(" ").length);
      expect(text).toContain(formatVoucherCode(code));
      expect(text).toContain("www.atelier-lumiere.fr");
      expect(text).toContain("de mariage en Corrèze et en Haute-Vienne");
      expect(text).toContain(longName);
      for (const studio of studios) expect(text).toContain(words(studio.address.city));
      expectLaidOut(bytes);
    }
  });
});

describe("renderVoucherPdf refuses", () => {
  let fonts: string;
  beforeAll(() => {
    fonts = mkdtempSync(path.join(tmpdir(), "voucher-fonts-"));
    for (const file of readdirSync(voucherFontsFolder())) {
      if (file !== "inter-bold.ttf")
        copyFileSync(path.join(voucherFontsFolder(), file), path.join(fonts, file));
    }
  });
  afterAll(() => rmSync(fonts, { recursive: true, force: true }));

  it("a missing font file, naming it", async () => {
    const attempt = renderVoucherPdf(voucher(), { fontsFolder: fonts });
    await expect(attempt).rejects.toThrow(VoucherPdfError);
    await expect(attempt).rejects.toThrow(path.join(fonts, "inter-bold.ttf"));
  });

  it("an empty or invalid code", async () => {
    await expect(renderVoucherPdf(voucher({ code: "" }))).rejects.toThrow(
      new VoucherPdfError("Le code du bon cadeau est vide : le PDF n'est pas créé."),
    );
    await expect(renderVoucherPdf(voucher({ code: " - " }))).rejects.toThrow(VoucherPdfError);
    const wrong = code.slice(0, 11) + (code[11] === "0" ? "1" : "0");
    await expect(renderVoucherPdf(voucher({ code: wrong }))).rejects.toThrow(
      new VoucherPdfError(
        `« ${wrong} » n'est pas un code de bon cadeau valide : le PDF n'est pas créé.`,
      ),
    );
    // Read leniently from a person, a stored code is printed exactly as it is.
    await expect(renderVoucherPdf(voucher({ code: code.toLowerCase() }))).rejects.toThrow(
      VoucherPdfError,
    );
  });

  it("a character its fonts cannot draw, naming it, rather than leaving a hole", async () => {
    await expect(
      charactersMissingFromVoucherFonts(["Élodie 🎉 Ωmega", "Œ œ « » €\u00a0\u202f"]),
    ).resolves.toEqual(["🎉", "Ω"]);
    await expect(renderVoucherPdf(voucher({ message: "Bon anniversaire 🎉" }))).rejects.toThrow(
      new VoucherPdfError(
        "Ces caractères ne peuvent pas être écrits dans le PDF du bon cadeau : « 🎉 ».",
      ),
    );
  });

  it("a missing name, a message too long, a link that is no web address", async () => {
    await expect(renderVoucherPdf(voucher({ recipientName: "  " }))).rejects.toThrow(
      new VoucherPdfError("Le bon cadeau n'a pas de nom du bénéficiaire : le PDF n'est pas créé."),
    );
    await expect(
      renderVoucherPdf(voucher({ message: "a".repeat(VOUCHER_TEXT_LIMITS.message + 1) })),
    ).rejects.toThrow(VoucherPdfError);
    await expect(
      renderVoucherPdf(
        voucher({ message: "Un\n".repeat(VOUCHER_TEXT_LIMITS.messageLines) + "de trop" }),
      ),
    ).rejects.toThrow(VoucherPdfError);
    await expect(
      renderVoucherPdf(voucher({ buyerName: "N".repeat(VOUCHER_TEXT_LIMITS.name + 1) })),
    ).rejects.toThrow(VoucherPdfError);
    await expect(renderVoucherPdf(voucher({ expiryDay: "2027-02-30" }))).rejects.toThrow(
      new VoucherPdfError("La date de fin du bon cadeau n'est pas une date : « 2027-02-30 »."),
    );
    await expect(renderVoucherPdf(voucher({ link: "javascript:alert(1)" }))).rejects.toThrow(
      VoucherPdfError,
    );
    await expect(renderVoucherPdf(voucher({ studios: [] }))).rejects.toThrow(VoucherPdfError);
  });
});
