/**
 * What a form refuses because a PDF could not print it: a name or a message the gift voucher (decision 0164)
 * or an invoice (decision 0178) will print is checked when it is typed, against the characters of the PDFs'
 * fonts. A voucher or an invoice cannot be changed once issued: a character found out at its drawing would
 * leave it impossible to download, after the money was taken.
 */

/** The document a form's texts end up on, as its message names it. */
export type PrintedOn = "le bon" | "la facture";

/**
 * For each field of `texts` (the texts a PDF prints, by the form's field names) whose text holds
 * characters the PDFs' fonts cannot draw, the French message that names them; fields with printable text
 * are absent.
 */
export async function unprintableFields<Field extends string>(
  texts: Partial<Record<Field, string>>,
  printedOn: PrintedOn,
): Promise<Partial<Record<Field, string>>> {
  // The PDF's modules load on first use (decision 0190).
  const { charactersMissingFromPdfFonts } = await import("./pdf-fonts.server");
  const errors: Partial<Record<Field, string>> = {};
  for (const field of Object.keys(texts) as Field[]) {
    const missing = await charactersMissingFromPdfFonts([texts[field] ?? ""]);
    if (missing.length > 0) {
      errors[field] =
        `Ces caractères ne peuvent pas être imprimés sur ${printedOn} : ${missing.join(" ")}. Retirez-les ou remplacez-les.`;
    }
  }
  return errors;
}
