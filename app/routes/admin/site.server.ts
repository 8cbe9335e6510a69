import type { Route } from "./+types/site";
import { data } from "react-router";
import type { Documents } from "~/content/schemas";
import { documentValues, legalForm } from "~/lib/document-forms";
import { unprintableFields } from "~/server/pdf/printable.server";
import { issueMissingInvoices } from "~/server/invoices/orders.server";
import { log } from "~/server/logger.server";
import { identityForm } from "~/lib/identity-form";
import type { z } from "~/lib/zod";
import { requireAdmin } from "~/server/admin/guard.server";
import { loadDocument } from "~/server/content/content-store.server";
import {
  documentFormAction,
  documentHistory,
  restoreAction,
} from "~/server/content/document-form.server";

const PAGE = "/admin/site";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [identity, legal, identityHistory, legalHistory] = await Promise.all([
    loadDocument("identity"),
    loadDocument("legal"),
    documentHistory("identity", request),
    documentHistory("legal", request),
  ]);
  return {
    identity: { values: documentValues("identity", identity), history: identityHistory },
    legal: { values: documentValues("legal", legal), history: legalHistory },
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  // Each history's « Restaurer » names a revision only: it belongs to one of the two documents.
  if (formData.get("intent") === "restore") {
    const answer = await restoreAction(
      ["identity", "legal"],
      formData.get("revision"),
      admin,
      PAGE,
      { identity: identityPrintingErrors, legal: legalPrintingErrors },
    );
    // A restored version may complete the legal details as a save does.
    await issueHeldBackInvoices();
    return answer;
  }
  switch (formData.get("document")) {
    case "identity":
      return documentFormAction(formData, admin, {
        key: "identity",
        schema: identityForm,
        build: (
          parsed: z.output<typeof identityForm>,
          stored: Documents["identity"],
        ): Documents["identity"] => ({ ...parsed, shareImage: stored.shareImage }),
        load: () => loadDocument("identity"),
        check: identityPrintingErrors,
        previewPaths: ["/"],
        page: PAGE,
        savedTitle: "Identité du site modifiée",
      });
    case "legal": {
      const answer = await documentFormAction(formData, admin, {
        key: "legal",
        schema: legalForm,
        build: (parsed: z.output<typeof legalForm>): Documents["legal"] => parsed,
        load: () => loadDocument("legal"),
        check: legalPrintingErrors,
        previewPaths: ["/mentions-legales"],
        page: PAGE,
        savedTitle: "Mentions légales enregistrées",
      });
      await issueHeldBackInvoices();
      return answer;
    }
    default:
      return data({ error: "Formulaire inconnu" }, { status: 400 });
  }
}

/**
 * The brand heads every gift voucher (decision 0164): a voucher is drawn once paid, so what its fonts
 * cannot draw is refused at a save and at a restore.
 */
function identityPrintingErrors(identity: Documents["identity"]) {
  return unprintableFields({ brand: identity.brand }, "le bon");
}

/**
 * What every invoice prints of the seller (decision 0176): an invoice cannot be changed once issued, so
 * what its fonts cannot draw is refused, at a save and at a restore.
 */
function legalPrintingErrors(legal: Documents["legal"]) {
  return unprintableFields(
    {
      companyName: legal.companyName,
      legalForm: legal.legalForm,
      address: legal.address,
      rcs: legal.rcs,
      siret: legal.siret,
      vatNumber: legal.vatNumber,
      phone: legal.phone,
      email: legal.email,
      "mediator.name": legal.mediator.name,
      "mediator.website": legal.mediator.website,
    },
    "la facture",
  );
}

/**
 * The legal details now complete, the invoices they held back are issued at once (decision 0181), in the
 * order of their payments, before a new payment takes the next number; the reconciliation job does it
 * again every 15 minutes should this fail. Nothing to do while they are incomplete.
 */
async function issueHeldBackInvoices(): Promise<void> {
  await issueMissingInvoices().catch((error: unknown) =>
    log.error("missing_invoices_failed", { error }),
  );
}
