import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The subsets of decision 0091 (scripts/fonts/subset-fonts.py) against the characters the site's own texts use.

const here = import.meta.dirname;
const appDir = join(here, "..", "..");
const fonts = ["inter-fr-wght.woff2", "playfair-display-fr-wght.woff2"];

/**
 * Characters of the site's sources that these fonts deliberately leave to the local fallback, each with its
 * reason. Any other character a text uses must be in both subsets.
 */
const leftToFallback = new Map<string, string>([
  ["→", "arrows are not in the fonts' latin files: drawn by the fallback, as before"],
  ["←", "arrows are not in the fonts' latin files (admin link): drawn by the fallback"],
  ["✖", "a console message of the server, never on a page"],
  ["•", "list bullets of the plain-text e-mails, never on a page"],
  ["\ufeff", "the byte-order mark that opens the CSV export, never drawn"],
]);

const code = (character: string) => character.codePointAt(0) ?? 0;

/** UIntBase128 of WOFF2: returns [value, next offset]. */
function base128(bytes: Buffer, offset: number): [number, number] {
  let value = 0;
  for (let index = 0; index < 5; index++) {
    const byte = bytes.readUInt8(offset + index);
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, offset + index + 1];
  }
  throw new Error("UIntBase128 trop long");
}

/** The characters a WOFF2 file maps to glyphs (its `cmap`, which WOFF2 never transforms). */
function woff2Characters(file: Buffer): Set<number> {
  expect(file.toString("latin1", 0, 4)).toBe("wOF2");
  const tableCount = file.readUInt16BE(12);
  const compressedSize = file.readUInt32BE(20);
  let offset = 48;
  const tables: Array<{ tag: number; length: number }> = [];
  for (let index = 0; index < tableCount; index++) {
    const flags = file.readUInt8(offset++);
    const tag = flags & 0x3f;
    if (tag === 63) offset += 4; // an arbitrary tag: cmap (index 0) is a known one
    const [origLength, afterOrig] = base128(file, offset);
    offset = afterOrig;
    const version = (flags >> 6) & 3;
    // glyf (10) and loca (11) are transformed with version 0; every other table with a version other than 0.
    const transformed = tag === 10 || tag === 11 ? version === 0 : version !== 0;
    let length = origLength;
    if (transformed) [length, offset] = base128(file, offset);
    tables.push({ tag, length });
  }
  const data = brotliDecompressSync(file.subarray(offset, offset + compressedSize));
  let start = 0;
  for (const table of tables) {
    if (table.tag === 0) return cmapCharacters(data.subarray(start, start + table.length));
    start += table.length;
  }
  throw new Error("pas de table cmap");
}

function cmapCharacters(cmap: Buffer): Set<number> {
  const characters = new Set<number>();
  const count = cmap.readUInt16BE(2);
  for (let index = 0; index < count; index++) {
    const subtable = cmap.readUInt32BE(4 + index * 8 + 4);
    const format = cmap.readUInt16BE(subtable);
    if (format === 4) {
      const segments = cmap.readUInt16BE(subtable + 6) / 2;
      const ends = subtable + 14;
      const starts = ends + segments * 2 + 2;
      const deltas = starts + segments * 2;
      const rangeOffsets = deltas + segments * 2;
      for (let segment = 0; segment < segments; segment++) {
        const first = cmap.readUInt16BE(starts + segment * 2);
        const last = cmap.readUInt16BE(ends + segment * 2);
        const delta = cmap.readInt16BE(deltas + segment * 2);
        const rangeOffsetAt = rangeOffsets + segment * 2;
        const rangeOffset = cmap.readUInt16BE(rangeOffsetAt);
        for (let code = first; code <= last && code !== 0xffff; code++) {
          const glyph =
            rangeOffset === 0
              ? (code + delta) & 0xffff
              : cmap.readUInt16BE(rangeOffsetAt + rangeOffset + (code - first) * 2);
          if (glyph !== 0) characters.add(code);
        }
      }
    } else if (format === 12) {
      const groups = cmap.readUInt32BE(subtable + 12);
      for (let group = 0; group < groups; group++) {
        const at = subtable + 16 + group * 12;
        for (let code = cmap.readUInt32BE(at); code <= cmap.readUInt32BE(at + 4); code++) {
          characters.add(code);
        }
      }
    }
  }
  return characters;
}

/** `U+20-7E, U+A0` → the set of code points. */
function rangeCharacters(range: string): Set<number> {
  const characters = new Set<number>();
  for (const part of range.split(",")) {
    const [first = "", last = first] = part.trim().replace(/^U\+/i, "").split("-");
    for (let point = parseInt(first, 16); point <= parseInt(last, 16); point++)
      characters.add(point);
  }
  return characters;
}

/** The @font-face rules of fonts.css that load a file: file → unicode-range. */
function declaredRanges(): Map<string, Set<number>> {
  const css = readFileSync(join(here, "fonts.css"), "utf8");
  const ranges = new Map<string, Set<number>>();
  for (const rule of css.match(/@font-face\s*{[^}]*}/g) ?? []) {
    const file = /url\("\.\/([^"]+)"\)/.exec(rule)?.[1];
    const range = /unicode-range:([^;]+);/.exec(rule)?.[1];
    if (file) ranges.set(file, rangeCharacters(range ?? ""));
  }
  return ranges;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Every character outside Basic Latin in the texts of app/ (string literals, template parts and JSX text;
 * comments left out), with a file that uses it. The seeded content (app/content) is among them.
 */
function charactersOfTexts(): Map<string, string> {
  const found = new Map<string, string>();
  for (const path of sourceFiles(appDir)) {
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest);
    const visit = (node: ts.Node) => {
      if (
        ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node) ||
        ts.isJsxText(node)
      ) {
        for (const character of node.text) {
          if (code(character) > 0x7e && !found.has(character)) {
            found.set(character, relative(appDir, path));
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const hex = (point: number) => `U+${point.toString(16).toUpperCase().padStart(4, "0")}`;

describe("font subsets", () => {
  const texts = charactersOfTexts();

  it.each(fonts)("%s holds every character the site's texts use", (font) => {
    const characters = woff2Characters(readFileSync(join(here, font)));
    const missing = [...texts]
      .filter(([character]) => !characters.has(code(character)))
      .filter(([character]) => !leftToFallback.has(character))
      .map(([character, file]) => `${hex(code(character))} « ${character} » (${file})`);
    expect(missing).toEqual([]);
    // The texts found are real: the French letters, guillemets, euro and narrow no-break space among them.
    for (const character of "éèàçœ«»€\u00a0\u202f") {
      expect(texts.has(character), hex(code(character))).toBe(true);
      expect(characters.has(code(character)), hex(code(character))).toBe(true);
    }
  });

  it.each(fonts)("%s holds Basic Latin, French letters and typography", (font) => {
    const characters = woff2Characters(readFileSync(join(here, font)));
    const french =
      " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";
    const accented = "ÀÂÆÇÈÉÊËÎÏÔŒÙÛÜàâæçèéêëîïôœùûüÿ«»‹›‘’“”–—…€°·×©\u00a0\u202f";
    const absent = [...french, ...accented].filter((c) => !characters.has(code(c)));
    expect(absent).toEqual([]);
  });

  it.each(fonts)("%s declares exactly the characters it holds (unicode-range)", (font) => {
    const declared = declaredRanges().get(font) ?? new Set<number>();
    const held = woff2Characters(readFileSync(join(here, font)));
    expect(held.size).toBeGreaterThan(100);
    expect([...declared].sort((a, b) => a - b).map(hex)).toEqual(
      [...held].sort((a, b) => a - b).map(hex),
    );
  });

  it("keeps characters the fonts lack out of their unicode-range, for the fallback to draw", () => {
    const inter = declaredRanges().get("inter-fr-wght.woff2") ?? new Set<number>();
    expect(inter.has(code("é"))).toBe(true);
    // Ÿ is not in the fonts' latin files; Cyrillic never was on this site.
    expect(inter.has(0x178)).toBe(false);
    expect(inter.has(0x416)).toBe(false);
    for (const character of leftToFallback.keys()) {
      expect(inter.has(code(character))).toBe(false);
    }
  });
});
