import { sql } from "drizzle-orm";
import { z } from "~/lib/zod";
import { formatDateTimeFr, parisWallTimeToInstant, wallTime } from "~/lib/dates";
import {
  IMPORT_ATTESTATION,
  importMessages,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_LINES,
} from "~/lib/subscriber-import";
import { db } from "../db/client.server";
import { log } from "../logger.server";
import { RETENTION_MONTHS } from "~/lib/retention";

/*
 * Importing people who already consented to the newsletter (decision 0084): a CSV of addresses and
 * consent dates, read here line by line (each refused line says why, with its number), then added in one
 * statement: all or nothing. An address already known is left as it is; someone who unsubscribed is never
 * subscribed again by an import. Decision record 0084.
 */

export type ImportRow = { line: number; email: string; consentedAt: Date };
export type InvalidLine = { line: number; reason: string };

export type ParsedImport =
  { ok: true; rows: ImportRow[]; invalid: InvalidLine[] } | { ok: false; message: string };

// --- Reading the file ---------------------------------------------------------------------------------

/**
 * The file's text: UTF-8 (its BOM dropped), or else Windows-1252, which French Excel writes for « CSV
 * (séparateur : point-virgule) »; UTF-16 (« Texte Unicode ») is refused with what to do instead.
 */
function decode(bytes: Uint8Array): { ok: true; text: string } | { ok: false; message: string } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return {
      ok: false,
      message:
        "Le fichier est en UTF-16 (« Texte Unicode ») : enregistrez-le au format « CSV UTF-8 (délimité par des virgules) ».",
    };
  }
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { ok: true, text: new TextDecoder("windows-1252").decode(bytes) };
  }
}

type CsvRecord = { line: number; fields: string[] };

/**
 * The separator of the header (the first line that is not blank): the most frequent of `;`, `,` and tab
 * outside quotes, `,` when none is there.
 */
function separatorOf(text: string): string {
  const counts = new Map([
    [";", 0],
    [",", 0],
    ["\t", 0],
  ]);
  let quoted = false;
  let content = false;
  for (const character of text) {
    if (character === '"') quoted = !quoted;
    else if (!quoted && (character === "\n" || character === "\r")) {
      if (content) break;
    } else if (!quoted && counts.has(character))
      counts.set(character, (counts.get(character) ?? 0) + 1);
    if (!/\s/.test(character)) content = true;
  }
  let best = ",";
  for (const [separator, count] of counts) if (count > (counts.get(best) ?? 0)) best = separator;
  return best;
}

/**
 * CSV records (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes), each with the number of
 * the line it starts on. At most `maxRecords` non-blank records are read; `more` says whether others follow.
 */
export function readCsv(
  text: string,
  maxRecords: number,
): { ok: true; records: CsvRecord[]; more: boolean } | { ok: false; unclosedQuoteLine: number } {
  const separator = separatorOf(text);
  const records: CsvRecord[] = [];
  let index = 0;
  let line = 1;
  const newline = () => {
    if (text[index] === "\r" && text[index + 1] === "\n") index += 2;
    else index += 1;
    line += 1;
  };
  while (index < text.length) {
    const start = line;
    const fields: string[] = [];
    let field = "";
    for (;;) {
      const character = text[index];
      if (character === '"' && field.trim() === "") {
        // A quoted field: up to the lone closing quote.
        field = "";
        index += 1;
        for (;;) {
          if (index >= text.length) return { ok: false, unclosedQuoteLine: start };
          const inside = text[index];
          if (inside === '"') {
            if (text[index + 1] === '"') {
              field += '"';
              index += 2;
              continue;
            }
            index += 1;
            break;
          }
          if (inside === "\n" || (inside === "\r" && text[index + 1] !== "\n")) line += 1;
          field += inside;
          index += 1;
        }
        continue;
      }
      if (character === undefined || character === "\n" || character === "\r") {
        fields.push(field);
        if (character !== undefined) newline();
        break;
      }
      if (character === separator) {
        fields.push(field);
        field = "";
        index += 1;
        continue;
      }
      field += character;
      index += 1;
    }
    if (fields.every((value) => value.trim() === "")) continue;
    if (records.length === maxRecords) return { ok: true, records, more: true };
    records.push({ line: start, fields });
  }
  return { ok: true, records, more: false };
}

// --- The header --------------------------------------------------------------------------------------

/** A column name compared without case, accents, spaces or punctuation: « Date de consentement » → date_de_consentement. */
function columnKey(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

const EMAIL_COLUMNS = [
  "email",
  "e_mail",
  "mail",
  "courriel",
  "adresse_email",
  "adresse_e_mail",
  "adresse_mail",
  "adresse_courriel",
  "adresse_electronique",
  "email_address",
];

/** Names of the consent date's column, the most precise first (the site's own export: date_confirmation). */
const DATE_COLUMNS = [
  "date_consentement",
  "date_de_consentement",
  "date_du_consentement",
  "consentement",
  "consent_date",
  "date_confirmation",
  "date_de_confirmation",
  "date",
  "date_inscription",
  "date_d_inscription",
  "subscribed_at",
];

const STATE_COLUMNS = ["statut", "status", "etat"];

/** A state column's values that mean "subscribed" (the site's export writes « actif »). */
const SUBSCRIBED_STATES = new Set([
  "",
  "actif",
  "active",
  "abonne",
  "abonnee",
  "inscrit",
  "inscrite",
  "confirme",
  "confirmee",
  "subscribed",
  "oui",
  "yes",
]);

function findColumn(keys: string[], names: string[]): number {
  for (const name of names) {
    const index = keys.indexOf(name);
    if (index !== -1) return index;
  }
  return -1;
}

// --- Dates ---------------------------------------------------------------------------------------------

const FRENCH_DATE =
  /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ T]+(\d{1,2})[:h](\d{2})(?::(\d{2}))?)?$/;
const ISO_DATE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A consent date as owners write it: JJ/MM/AAAA or AAAA-MM-JJ (also with `-` or `.`, and a time), in Paris
 * time unless an ISO time zone says otherwise. Null when it is no real date.
 */
export function parseConsentDate(value: string): Date | null {
  const french = FRENCH_DATE.exec(value);
  const iso = french ? null : ISO_DATE.exec(value);
  const parts = french
    ? [french[3], french[2], french[1], french[4], french[5], french[6]]
    : iso
      ? [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6]]
      : null;
  if (!parts) return null;
  const [year, month, day, hour, minute, second] = parts.map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = wallTime(year, month, day, hour, minute, second);
  if (wall === null) return null;
  const zone = iso?.[7];
  if (!zone) return parisWallTimeToInstant(wall);
  if (zone === "Z") return new Date(wall);
  const sign = zone.startsWith("-") ? -1 : 1;
  const [hours, minutes] = [Number(zone.slice(1, 3)), Number(zone.slice(-2))];
  return new Date(wall - sign * (hours * 60 + minutes) * 60_000);
}

// --- The lines -----------------------------------------------------------------------------------------

const emailSchema = z.email();

/** A value quoted in a reason, cut when long. */
function quoted(value: string): string {
  return `« ${value.length > 60 ? `${value.slice(0, 60)}…` : value} »`;
}

/** A date as the owner wrote it, for a reason. */
function writtenAs(value: string): string {
  return value.length > 30 ? `${value.slice(0, 30)}…` : value;
}

/**
 * Reads an import file: its header names the columns (`email` and `date_consentement`, or their usual
 * variants), each following line is an address to add or an invalid line and its reason. A file that cannot
 * be read as a whole (size, encoding, header, too many lines, an unclosed quote) is refused with one message.
 */
export function parseSubscriberCsv(bytes: Uint8Array, now = new Date()): ParsedImport {
  if (bytes.byteLength === 0) return { ok: false, message: "Le fichier est vide." };
  if (bytes.byteLength > MAX_IMPORT_BYTES) return { ok: false, message: importMessages.tooLarge };
  const decoded = decode(bytes);
  if (!decoded.ok) return decoded;
  // One more record than allowed: the header, then MAX_IMPORT_LINES lines.
  const read = readCsv(decoded.text, MAX_IMPORT_LINES + 1);
  if (!read.ok) {
    return {
      ok: false,
      message: `Guillemet ouvert et jamais fermé à la ligne ${read.unclosedQuoteLine} : corrigez le fichier (rien n'a été importé).`,
    };
  }
  if (read.more) {
    return {
      ok: false,
      message: `Le fichier compte plus de ${MAX_IMPORT_LINES.toLocaleString("fr-FR")} lignes : découpez-le en plusieurs fichiers.`,
    };
  }
  const [header, ...lines] = read.records;
  if (!header) return { ok: false, message: "Le fichier est vide." };
  const keys = header.fields.map(columnKey);
  const emailColumn = findColumn(keys, EMAIL_COLUMNS);
  const dateColumn = findColumn(keys, DATE_COLUMNS);
  const stateColumn = findColumn(keys, STATE_COLUMNS);
  if (emailColumn === -1 || dateColumn === -1) {
    const missing = [
      emailColumn === -1 ? "« email »" : null,
      dateColumn === -1 ? "« date_consentement »" : null,
    ]
      .filter(Boolean)
      .join(" et ");
    const read = header.fields
      .map((name) => name.trim())
      .filter(Boolean)
      .slice(0, 6)
      .join(", ");
    return {
      ok: false,
      message: `La première ligne doit nommer les colonnes « email » et « date_consentement » : colonne ${missing} introuvable (première ligne lue : ${read ? quoted(read) : "vide"}).`,
    };
  }
  if (lines.length === 0) {
    return { ok: false, message: "Le fichier ne contient aucune ligne après celle des colonnes." };
  }

  const oldest = new Date(now);
  oldest.setUTCMonth(oldest.getUTCMonth() - RETENTION_MONTHS);
  const seen = new Map<string, number>();
  const rows: ImportRow[] = [];
  const invalid: InvalidLine[] = [];
  for (const { line, fields } of lines) {
    const refuse = (reason: string) => invalid.push({ line, reason });
    const email = (fields[emailColumn] ?? "").trim();
    const written = (fields[dateColumn] ?? "").trim();
    if (!email) {
      refuse("adresse e-mail manquante");
      continue;
    }
    if (email.length > 255) {
      refuse("adresse e-mail trop longue (255 caractères au plus)");
      continue;
    }
    if (!emailSchema.safeParse(email).success) {
      refuse(`adresse e-mail invalide (${quoted(email)})`);
      continue;
    }
    const key = email.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      refuse(`adresse en double : déjà à la ligne ${first}`);
      continue;
    }
    seen.set(key, line);
    if (stateColumn !== -1) {
      const state = (fields[stateColumn] ?? "").trim();
      if (!SUBSCRIBED_STATES.has(columnKey(state))) {
        refuse(`statut ${quoted(state)} : seules les personnes abonnées sont importées`);
        continue;
      }
    }
    if (!written) {
      refuse("date de consentement manquante");
      continue;
    }
    const consentedAt = parseConsentDate(written);
    if (!consentedAt) {
      refuse(
        `date de consentement illisible (${quoted(writtenAs(written))}) : écrivez JJ/MM/AAAA ou AAAA-MM-JJ`,
      );
      continue;
    }
    if (consentedAt > now) {
      refuse(`date de consentement dans le futur (${writtenAs(written)})`);
      continue;
    }
    if (consentedAt < oldest) {
      refuse(
        `consentement de plus de ${RETENTION_MONTHS} mois (${writtenAs(written)}) : au-delà de la durée de conservation des données, l'adresse ne peut pas être importée`,
      );
      continue;
    }
    rows.push({ line, email, consentedAt });
  }
  return { ok: true, rows, invalid };
}

// --- Adding them ---------------------------------------------------------------------------------------

/** The proof of consent kept with each imported address: who attested what, when, from which file. */
export function importConsentText(attestation: {
  adminEmail: string;
  fileName: string;
  at: Date;
}): string {
  return `Import du ${formatDateTimeFr(attestation.at)} par ${attestation.adminEmail} (fichier ${quoted(attestation.fileName)}), qui a attesté : « ${IMPORT_ATTESTATION} ».`;
}

/**
 * Adds the rows as active subscribers (consent source 'import', confirmed at the consent date, the owner's
 * attestation as consent text), in one statement: all or nothing. Addresses already known, whatever their
 * case, are left unchanged and counted: the unsubscribed apart, since they are never subscribed again.
 */
export async function importSubscribers(
  rows: ImportRow[],
  attestation: { adminEmail: string; fileName: string; at?: Date },
): Promise<{ added: number; alreadyPresent: number; unsubscribed: number }> {
  if (rows.length === 0) return { added: 0, alreadyPresent: 0, unsubscribed: 0 };
  const consentText = importConsentText({ ...attestation, at: attestation.at ?? new Date() });
  const input = JSON.stringify(
    rows.map((row) => ({ email: row.email, consented_at: row.consentedAt.toISOString() })),
  );
  // One statement, so all or nothing. Its snapshot predates the insert: the join finds the addresses that
  // were already there, and how many of them left the newsletter.
  const [counts] = (
    await db().execute<{ added: string; present: string; unsubscribed: string }>(sql`
      with input as (
        select email, consented_at
        from json_to_recordset(${input}::json) as input(email text, consented_at timestamptz)
      ),
      added as (
        insert into blog_newsletter_subscribers
          (email, status, consent_source, consent_text, confirmed_at, subscribed_at, last_activity_at)
        select email, 'active', 'import', ${consentText}, consented_at, now(), consented_at from input
        on conflict ((lower(email))) do nothing
        returning id
      )
      select (select count(*) from added) as added,
        count(s.id) filter (where s.status <> 'unsubscribed') as present,
        count(s.id) filter (where s.status = 'unsubscribed') as unsubscribed
      from input join blog_newsletter_subscribers s on lower(s.email) = lower(input.email)
    `)
  ).rows;
  const summary = {
    added: Number(counts?.added ?? 0),
    alreadyPresent: Number(counts?.present ?? 0),
    unsubscribed: Number(counts?.unsubscribed ?? 0),
  };
  log.info("newsletter_subscribers_imported", summary);
  return summary;
}
