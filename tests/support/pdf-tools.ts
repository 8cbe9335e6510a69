// What a PDF holds, read with the tools a person's computer uses: its text with poppler's `pdftotext`, its
// QR codes scanned by zbar from poppler's rendering of the page. On a Debian-like machine where the tests run
// as root, missing tools are installed with apt (as the browser tests' Chromium is); otherwise the test
// fails with the command to run.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { aptInstall } from "../../scripts/lib/apt.ts";

const TOOLS = [
  { command: "pdftotext", debianPackage: "poppler-utils" },
  { command: "pdftoppm", debianPackage: "poppler-utils" },
  { command: "zbarimg", debianPackage: "zbar-tools" },
];

const installed = (command: string) =>
  spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

/** Makes sure pdftotext, pdftoppm and zbarimg are there, installing them when we may. */
export function ensurePdfTools(): void {
  const missing = TOOLS.filter((tool) => !installed(tool.command));
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((tool) => tool.debianPackage))];
  const outcome = aptInstall(packages, console.log);
  if (outcome !== "installed" || missing.some((tool) => !installed(tool.command))) {
    throw new Error(
      `${missing.map((tool) => tool.command).join(", ")} introuvable(s) pour lire les PDF des tests. Installez-les :\n` +
        `    sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}`,
    );
  }
}

function withPdfFile<T>(bytes: Uint8Array, read: (file: string, folder: string) => T): T {
  const folder = mkdtempSync(path.join(tmpdir(), "pdf-tools-"));
  try {
    const file = path.join(folder, "document.pdf");
    writeFileSync(file, bytes);
    return read(file, folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} a échoué (${result.status}) : ${result.stderr}`);
  }
  return result.stdout;
}

/** The PDF's text, in reading order, as pdftotext extracts it (UTF-8). */
export function pdfText(bytes: Uint8Array): string {
  return withPdfFile(bytes, (file) => run("pdftotext", ["-enc", "UTF-8", file, "-"]));
}

/** The contents of every QR code on the PDF's first page, printed at 150 dpi. */
export function pdfQrCodes(bytes: Uint8Array): string[] {
  return withPdfFile(bytes, (file, folder) => {
    const image = path.join(folder, "page");
    run("pdftoppm", ["-r", "150", "-png", "-singlefile", "-f", "1", "-l", "1", file, image]);
    return run("zbarimg", ["--quiet", "--raw", `${image}.png`])
      .split("\n")
      .filter((line) => line !== "");
  });
}

/** A word as pdftotext places it: its page (from 1), its text, its box in points from the top left. */
export type PdfWord = {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
};

const XML_ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&apos;": "'",
};

/** Every word of the PDF with its page and box (`pdftotext -bbox`), and each page's size. */
export function pdfWords(bytes: Uint8Array): {
  pages: { width: number; height: number }[];
  words: PdfWord[];
} {
  const xml = withPdfFile(bytes, (file) => run("pdftotext", ["-enc", "UTF-8", "-bbox", file, "-"]));
  const pages: { width: number; height: number }[] = [];
  const words: PdfWord[] = [];
  for (const match of xml.matchAll(
    /<page width="([\d.]+)" height="([\d.]+)">|<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g,
  )) {
    if (match[1]) {
      pages.push({ width: Number(match[1]), height: Number(match[2]) });
      continue;
    }
    words.push({
      page: pages.length,
      text: (match[7] ?? "").replace(
        /&(?:amp|lt|gt|quot|apos);/g,
        (entity) => XML_ENTITIES[entity] ?? entity,
      ),
      xMin: Number(match[3]),
      yMin: Number(match[4]),
      xMax: Number(match[5]),
      yMax: Number(match[6]),
    });
  }
  return { pages, words };
}

/** How many pages the PDF has, by pdftotext's page breaks (form feeds). */
export function pdfPageCount(bytes: Uint8Array): number {
  return pdfText(bytes).split("\f").length - 1;
}
