/**
 * What the site's PDFs share (the gift voucher's, decision 0164; the invoices', decision 0178): the site's
 * typefaces cut for French and stored as TrueType beside the web subsets
 * (scripts/fonts/subset-pdf-fonts.py), read once per process, embedded as subsets; the theme's colours; text
 * cut into lines.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fontkit from "@pdf-lib/fontkit";
import { rgb, type PDFDocument, type PDFFont, type RGB } from "pdf-lib";

/** Why a PDF cannot be drawn: a programming or set-up error, never a visitor's. */
export class PdfError extends Error {
  override name = "PdfError";
}

const FONT_FILES = {
  text: "inter-regular.ttf",
  textBold: "inter-bold.ttf",
  display: "playfair-display-regular.ttf",
  displayBold: "playfair-display-bold.ttf",
} as const;
export type FontRole = keyof typeof FONT_FILES;
export type Fonts = Record<FontRole, PDFFont>;

const FONTS_FOLDER = path.join("app", "assets", "fonts", "pdf");

/** The committed fonts' folder, found from this module whether it runs from source or from the build. */
export function pdfFontsFolder(): string {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(directory, FONTS_FOLDER);
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(directory);
    if (parent === directory) {
      throw new PdfError(`Dossier des polices des PDF « ${FONTS_FOLDER} » introuvable.`);
    }
    directory = parent;
  }
}

type LoadedFonts = { bytes: Record<FontRole, Uint8Array>; characters: Set<number> };
const loadedFonts = new Map<string, Promise<LoadedFonts>>();

/** The font files of a folder, read once, with the characters all of them draw. */
export function loadPdfFonts(folder: string = pdfFontsFolder()): Promise<LoadedFonts> {
  let loading = loadedFonts.get(folder);
  if (!loading) {
    loading = (async () => {
      const bytes = {} as Record<FontRole, Uint8Array>;
      let characters: Set<number> | undefined;
      for (const [role, file] of Object.entries(FONT_FILES) as Array<[FontRole, string]>) {
        const fontPath = path.join(folder, file);
        bytes[role] = await readFile(fontPath).catch((error: unknown) => {
          throw new PdfError(
            `Police des PDF illisible : ${fontPath} (${(error as Error).message}). ` +
              "Elle fait partie du dépôt ; scripts/fonts/subset-pdf-fonts.py la produit.",
          );
        });
        const own = new Set(fontkit.create(bytes[role]).characterSet);
        characters = characters ? new Set([...characters].filter((code) => own.has(code))) : own;
      }
      return { bytes, characters: characters ?? new Set() };
    })();
    loadedFonts.set(folder, loading);
    // A failed read is not kept: the next document tries again (a file restored meanwhile).
    loading.catch(() => loadedFonts.delete(folder));
  }
  return loading;
}

/** The fonts embedded in `document`, each as the subset of the glyphs it uses. */
export async function embedPdfFonts(document: PDFDocument, loaded: LoadedFonts): Promise<Fonts> {
  document.registerFontkit(fontkit);
  const fonts = {} as Fonts;
  for (const role of Object.keys(FONT_FILES) as FontRole[]) {
    fonts[role] = await document.embedFont(loaded.bytes[role], { subset: true });
  }
  return fonts;
}

/** NFC (an accent typed on some keyboards arrives as a separate mark), tabs as spaces, \r\n as \n. */
export const normalisePdfText = (text: string) =>
  text.normalize("NFC").replace(/\r\n?/g, "\n").replace(/\t/g, " ");

/** The characters of `texts` that the PDFs' fonts cannot draw. */
export async function charactersMissingFromPdfFonts(
  texts: readonly string[],
  folder: string = pdfFontsFolder(),
): Promise<string[]> {
  const { characters } = await loadPdfFonts(folder);
  const missing = new Set<string>();
  for (const text of texts) {
    for (const character of normalisePdfText(text).replace(/\n/g, "")) {
      if (!characters.has(character.codePointAt(0) ?? 0)) missing.add(character);
    }
  }
  return [...missing];
}

export const colour = (hex: string): RGB =>
  rgb(
    parseInt(hex.slice(1, 3), 16) / 255,
    parseInt(hex.slice(3, 5), 16) / 255,
    parseInt(hex.slice(5, 7), 16) / 255,
  );

// The site's theme (app/app.css).
export const THEME = {
  foreground: colour("#1c1917"),
  mutedForeground: colour("#57534e"),
  muted: colour("#f5f5f4"),
  border: colour("#e7e5e4"),
  gold: colour("#d6a756"),
  goldDark: colour("#8a5a12"),
} as const;

/** A4 portrait, in points. */
export const A4 = { width: 595.28, height: 841.89 } as const;

/** `text` cut into lines no wider than `width`, at spaces; a word too long for a line is cut where it must. */
export function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/ +/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = "";
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}
