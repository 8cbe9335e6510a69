/** The accountant's files (decision 0182): their address under /admin/comptabilite, title and content. */
export const ACCOUNTING_FILES = [
  {
    file: "livre-des-recettes.csv",
    title: "Livre des recettes",
    about:
      "Chaque encaissement et chaque remboursement, dans l'ordre : date, facture ou avoir, client, nature, montant, mode de règlement.",
  },
  {
    file: "journal-des-ventes.csv",
    title: "Journal des ventes",
    about: "Les factures et avoirs émis, une ligne par taux de TVA : HT, TVA et TTC.",
  },
  {
    file: "encaissements.csv",
    title: "Encaissements",
    about:
      "Les paiements reçus et remboursements tels que le journal les garde, avec les références du prestataire et des virements.",
  },
  {
    file: "bons-cadeaux-a-honorer.csv",
    title: "Bons cadeaux à honorer",
    about:
      "Au dernier jour de la période : les bons encore valables et ce qui reste à honorer sur chacun (une dette envers les clients).",
  },
] as const;

export type AccountingFile = (typeof ACCOUNTING_FILES)[number]["file"];

export const accountingFilePath = (file: AccountingFile, from: string, to: string) =>
  `/admin/comptabilite/${file}?du=${from}&au=${to}`;
