import { seedDocuments } from "../../app/content/seed";
import type { Legal } from "../../app/content/schemas";
import type { InvoiceSeller } from "../../app/lib/invoices/model";

/*
 * A seller whose legal identity is complete (decision 0176): the tests that issue invoices (decisions 0177,
 * 0181) save it as the site's legal details, or print it as an invoice's seller. Under the franchise
 * (art. 293 B); `subjectToVat` for a seller who charges TVA.
 */

/** The site's legal details, complete, under the franchise. */
export const completeLegal: Legal = {
  ...structuredClone(seedDocuments.legal),
  companyName: "Atelier Lumière SARL",
  legalForm: "SARL au capital de 5 000 €",
  address: "4 avenue Thiers, 19100 Brive-la-Gaillarde",
  rcs: "RCS Brive 443 061 841",
  siret: "443 061 841 00047",
  vatRegime: "franchise",
  vatNumber: "",
  email: "contact@atelier-lumiere.fr",
  phone: "05 55 00 00 00",
  mediator: { name: "Médiateur CM2C", website: "https://www.cm2c.net" },
};

/** The same seller, subject to TVA, with a TVA number that matches its SIREN. */
export const subjectToVat: Legal = {
  ...completeLegal,
  vatRegime: "assujetti",
  vatNumber: "FR64443061841",
};

/** `completeLegal` as an invoice prints it (`invoiceSeller`). */
export const invoiceSellerForTests: InvoiceSeller = {
  companyName: completeLegal.companyName,
  legalForm: completeLegal.legalForm,
  address: completeLegal.address,
  registration: completeLegal.rcs,
  siret: completeLegal.siret,
  siren: "443 061 841",
  vatNumber: null,
  vatMention: "TVA non applicable, art. 293 B du CGI",
  email: completeLegal.email,
  phone: completeLegal.phone,
  mediator: completeLegal.mediator,
};
