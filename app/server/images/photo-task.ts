/**
 * What the main thread asks of the photo worker and what it answers (decision 0102). Types only: the main
 * thread never loads the worker's modules (sharp stays out of it).
 */

export type PhotoTask = {
  /** A file on the local disk: the owner's upload (`full`) or the cleaned delivery original (`variants`). */
  input: string;
  /** `full`: clean the original and make the web sizes; `variants`: the web sizes only (watermark changed). */
  mode: "full" | "variants";
  /** An empty folder of this process where the worker writes its files. */
  outputDirectory: string;
  /** The gallery's variant revision, part of the web sizes' names. */
  revision: number;
  /** The brand mark bottom-right of the web sizes (never on the original). */
  watermark: boolean;
};

export type PhotoFile = { name: string; path: string };

export type PhotoTaskResult =
  | {
      ok: true;
      /** Upright dimensions of the photo. */
      width: number;
      height: number;
      widths: number[];
      thumbhash: string;
      colour: string;
      /** The web sizes written, named `r{revision}-w{width}.{format}`. */
      files: PhotoFile[];
      /** The delivery original (`full` only): cleaned, its size and CRC-32. */
      original?: PhotoFile & { extension: "jpg" | "png"; bytes: number; crc32: number };
    }
  /** The file cannot become a gallery photo: the owner reads `message`; trying again would not help. */
  | { ok: false; message: string };

/** The owner's messages (French), shown beside a photo that failed. */
export const PHOTO_MESSAGES = {
  broken: "Fichier illisible ou endommagé.",
  unsupported: "Format non pris en charge : envoyez des photos JPEG, PNG ou HEIC.",
  tooManyPixels: "Photo trop grande (plus de 100 mégapixels).",
  heicTooLarge: "Photo HEIC trop grande (plus de 25 mégapixels) : exportez-la en JPEG.",
  missing: "Fichier introuvable : envoyez la photo à nouveau.",
  failed: "Erreur pendant la préparation : réessayez.",
} as const;

export const MAX_PHOTO_PIXELS = 100_000_000;
/**
 * A HEIC is decoded whole into RGBA by WebAssembly, in the site's process: measured (decision 0102) +238 MiB
 * for 12 MP, +376 MiB for 24 MP (an iPhone's default), +690 MiB for 48 MP. Beyond 25 MP the owner exports a
 * JPEG, which sharp decodes in pieces (+218 MiB at 48 MP).
 */
export const MAX_HEIC_PIXELS = 25_000_000;
