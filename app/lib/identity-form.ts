import type { Documents } from "~/content/schemas";
import { EMAIL_MESSAGE, REQUIRED_MESSAGE, URL_MESSAGE } from "~/lib/document-forms";
import { defineFields, tableSchema } from "~/lib/field-table";
import { flatten, type FormTree, unflatten } from "~/lib/forms";
import { z } from "~/lib/zod";

/*
 * The site identity form of /admin/site (decision 0152): the studio's name, contacts and links, each
 * field described once. Its names are the stored document's paths (`social.facebook`), as every document
 * form's (decision 0070); the share image is the media library's and stays out of the form.
 */

/** A text of at most `max` characters, with the document forms' message past it. */
const atMost = (max: number) => ({ max, tooLong: `${max} caractères au maximum` });

/** The studio's name and contacts, at the top of the form. */
export const IDENTITY_FIELDS = defineFields({
  brand: {
    kind: "text",
    label: "Nom du studio",
    historyLabel: "Nom de la marque",
    ...atMost(100),
    required: "Le nom du studio est requis",
    row: "name",
  },
  experience: {
    kind: "text",
    label: "Expérience",
    ...atMost(100),
    required: REQUIRED_MESSAGE,
    hint: "Par exemple « plus de 15 ans d'expérience ».",
    row: "name",
  },
  tagline: {
    kind: "textarea",
    label: "Phrase d'accroche",
    historyLabel: "Accroche",
    ...atMost(300),
    required: REQUIRED_MESSAGE,
    rows: 2,
  },
  label: {
    kind: "text",
    label: "Label",
    inputLabel: "Label (facultatif)",
    historyLabel: "Libellé",
    ...atMost(100),
    hint: "Par exemple « Portraitiste de France ».",
    row: "details",
  },
  priceRange: {
    kind: "text",
    label: "Gamme de prix",
    inputLabel: "Gamme de prix (facultative)",
    ...atMost(10),
    hint: "Pour les moteurs de recherche : de € à €€€€.",
    row: "details",
  },
  email: {
    kind: "email",
    label: "E-mail général",
    historyLabel: "E-mail",
    ...atMost(255),
    required: "L'adresse e-mail est requise",
    invalid: EMAIL_MESSAGE,
    row: "details",
  },
  phone: {
    kind: "tel",
    label: "Téléphone général",
    inputLabel: "Téléphone général (facultatif)",
    historyLabel: "Téléphone",
    ...atMost(30),
    row: "details",
  },
});

const link = { kind: "url", ...atMost(500), webAddress: true, invalid: URL_MESSAGE } as const;

/** Its pages on social networks and other sites (« Réseaux sociaux et sites »). */
export const IDENTITY_LINK_FIELDS = defineFields({
  "social.facebook": { ...link, label: "Page Facebook", historyLabel: "Facebook", row: "links" },
  "social.instagram": {
    ...link,
    label: "Compte Instagram",
    historyLabel: "Instagram",
    row: "links",
  },
  "social.youtube": { ...link, label: "Chaîne YouTube", historyLabel: "YouTube", row: "links" },
  selfieBoothUrl: {
    ...link,
    label: "Site de location de borne selfie",
    historyLabel: "Lien de la borne selfie",
    row: "links",
  },
});

const IDENTITY_TABLES = [IDENTITY_FIELDS, IDENTITY_LINK_FIELDS] as const;

/** What the identity's history calls each stored field. */
export const IDENTITY_HISTORY_LABELS: Readonly<Record<string, string>> = Object.assign(
  {},
  ...IDENTITY_TABLES.map((table) => table.historyLabels),
);

/**
 * The form read from its fields' tree (what `parseNestedForm` gives): each field by its table, in the
 * page's order, into the stored document but its share image.
 */
export const identityForm = z
  .preprocess((tree) => flatten(tree as FormTree), tableSchema(IDENTITY_TABLES, {}))
  .transform(
    (fields) =>
      unflatten(fields as Record<string, string>) as Omit<Documents["identity"], "shareImage">,
  );
