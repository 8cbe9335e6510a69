import { randomBytes } from "node:crypto";

// What the administrators' accounts promise, apart from the library that keeps them (auth/config.server.ts):
// pages, e-mails and tests read these without loading better-auth.

/** How long a "forgotten password" link works (it also works only once). */
export const RESET_LINK_LIFETIME_SECONDS = 60 * 60;

/** The page a reset or invitation link opens: the token travels in the query, the page posts it back. */
export const resetPasswordPath = (token: string) =>
  `/admin/reinitialiser-mot-de-passe?token=${encodeURIComponent(token)}`;

/**
 * Backup codes for two-factor sign-in, without characters that read alike (0/O, 1/I/l): 10 codes of 10
 * characters from 31 symbols (about 49 bits each), shown as `XXXXX-XXXXX`.
 */
export const BACKUP_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

export function generateBackupCodes(amount = 10): string[] {
  return Array.from({ length: amount }, () => {
    let text = "";
    while (text.length < 10) {
      const byte = randomBytes(1)[0] ?? 255;
      // 256 is not a multiple of 31: the few bytes above the last full multiple are drawn again.
      if (byte < 256 - (256 % BACKUP_CODE_ALPHABET.length)) {
        text += BACKUP_CODE_ALPHABET[byte % BACKUP_CODE_ALPHABET.length];
      }
    }
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

/** The e-mail of a "forgotten password" link. */
export function resetPasswordEmail(to: string, url: string, brand: string) {
  return {
    to,
    subject: `[${brand}] Réinitialisation de votre mot de passe`,
    text: [
      "Bonjour,",
      "",
      `Un nouveau mot de passe a été demandé pour votre compte d'administration du site ${brand}.`,
      "Pour choisir un nouveau mot de passe, ouvrez ce lien dans l'heure (il ne fonctionne qu'une fois) :",
      "",
      url,
      "",
      "Si vous n'avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.",
    ].join("\n"),
  };
}
