import type { InvoiceLink } from "~/lib/invoices/links";

/**
 * « Factures » on a client's page (her order's, her booking's): each invoice or credit note, its PDF to
 * download. Nothing at all when there is none.
 */
export function InvoiceList({ invoices }: { invoices: readonly InvoiceLink[] }) {
  if (invoices.length === 0) return null;
  return (
    <section aria-labelledby="factures" className="space-y-2">
      <h2 id="factures" className="text-xl font-semibold">
        Factures
      </h2>
      <ul className="space-y-1">
        {invoices.map((invoice) => (
          <li key={invoice.number}>
            <a href={invoice.href} download className="underline underline-offset-4">
              {invoice.title} (PDF)
            </a>{" "}
            du {invoice.issuedOn}, {invoice.amount}
          </li>
        ))}
      </ul>
    </section>
  );
}
