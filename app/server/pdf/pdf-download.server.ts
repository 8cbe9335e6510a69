/**
 * A PDF as a download: its name, never cached (a voucher or an invoice is one person's), never indexed.
 * The buyer's voucher and invoices and the owner's invoices leave by it.
 */
export function pdfDownload(bytes: Uint8Array, filename: string): Response {
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
