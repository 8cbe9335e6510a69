import { eq } from "drizzle-orm";
import { legalSchema } from "~/content/schemas";
import type { InvoiceSeller } from "~/lib/invoices/model";
import { invoiceSeller } from "~/lib/invoices/seller";
import { siteDocuments } from "../db/schema";
import type { Executor } from "../jobs/queue.server";

/** The seller as an invoice prints it, read in the caller's transaction; null while incomplete. */
export async function sellerForInvoices(tx: Executor): Promise<InvoiceSeller | null> {
  const [row] = await tx
    .select({ data: siteDocuments.data })
    .from(siteDocuments)
    .where(eq(siteDocuments.key, "legal"));
  const legal = legalSchema.safeParse(row?.data ?? {});
  return legal.success ? invoiceSeller(legal.data) : null;
}
