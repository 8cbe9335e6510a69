import { describe, expect, it } from "vitest";
import { MAX_IMPORT_BYTES, MAX_IMPORT_LINES } from "~/lib/subscriber-import";
import {
  parseConsentDate,
  parseSubscriberCsv,
  type ParsedImport,
} from "./subscriber-import.server";
import { subscribersCsv, type AdminSubscriber } from "./subscribers.server";

const now = new Date("2026-01-15T12:00:00Z");
const utf8 = (text: string) => new TextEncoder().encode(text);
const parse = (text: string) => parseSubscriberCsv(utf8(text), now);

function ok(parsed: ParsedImport) {
  if (!parsed.ok) throw new Error(`refused: ${parsed.message}`);
  return parsed;
}
function refused(parsed: ParsedImport): string {
  if (parsed.ok) throw new Error("the file was accepted");
  return parsed.message;
}
const rowsOf = (parsed: ParsedImport) =>
  ok(parsed).rows.map((row) => ({
    line: row.line,
    email: row.email,
    at: row.consentedAt.toISOString(),
  }));

describe("parseConsentDate", () => {
  it("reads JJ/MM/AAAA and AAAA-MM-JJ as midnight in Paris, winter and summer", () => {
    expect(parseConsentDate("05/01/2025")?.toISOString()).toBe("2025-01-04T23:00:00.000Z");
    expect(parseConsentDate("05/07/2025")?.toISOString()).toBe("2025-07-04T22:00:00.000Z");
    expect(parseConsentDate("2025-07-05")?.toISOString()).toBe("2025-07-04T22:00:00.000Z");
    expect(parseConsentDate("5/7/2025")?.toISOString()).toBe("2025-07-04T22:00:00.000Z");
    expect(parseConsentDate("05.07.2025")?.toISOString()).toBe("2025-07-04T22:00:00.000Z");
  });

  it("reads a time (Paris) and an ISO time zone", () => {
    expect(parseConsentDate("05/03/2025 11:00")?.toISOString()).toBe("2025-03-05T10:00:00.000Z");
    expect(parseConsentDate("2025-03-05 11:00:30")?.toISOString()).toBe("2025-03-05T10:00:30.000Z");
    expect(parseConsentDate("2025-03-05T10:00:00Z")?.toISOString()).toBe(
      "2025-03-05T10:00:00.000Z",
    );
    expect(parseConsentDate("2025-03-05T10:00:00+02:00")?.toISOString()).toBe(
      "2025-03-05T08:00:00.000Z",
    );
  });

  it("refuses what is no real date", () => {
    for (const value of ["31/02/2025", "13/13/2025", "2025-02-30", "05/03/25", "hier", "25:00"]) {
      expect(parseConsentDate(value), value).toBeNull();
    }
    expect(parseConsentDate("05/03/2025 24:00")).toBeNull();
  });
});

describe("parseSubscriberCsv", () => {
  it("reads a semicolon file with a BOM and CRLF lines", () => {
    const parsed = parse(
      "\uFEFFemail;date_consentement\r\nmarie@example.fr;05/03/2025\r\njean@example.fr;2025-04-18\r\n",
    );
    expect(rowsOf(parsed)).toEqual([
      { line: 2, email: "marie@example.fr", at: "2025-03-04T23:00:00.000Z" },
      { line: 3, email: "jean@example.fr", at: "2025-04-17T22:00:00.000Z" },
    ]);
    expect(ok(parsed).invalid).toEqual([]);
  });

  it("reads a comma file without BOM, and the usual names of the columns in any order", () => {
    expect(rowsOf(parse("Date,E-mail\n2025-04-18,Jean@Example.fr\n"))).toEqual([
      { line: 2, email: "Jean@Example.fr", at: "2025-04-17T22:00:00.000Z" },
    ]);
    expect(
      rowsOf(parse("Nom;Adresse e-mail;Date de consentement\nMarie;marie@example.fr;05/03/2025")),
    ).toEqual([{ line: 2, email: "marie@example.fr", at: "2025-03-04T23:00:00.000Z" }]);
    expect(rowsOf(parse("courriel\tdate\nmarie@example.fr\t05/03/2025"))).toHaveLength(1);
  });

  it("lists each invalid line with its number and a French reason, and keeps the valid ones", () => {
    const parsed = ok(
      parse(
        [
          "email;date_consentement",
          "bonne@example.fr;05/03/2025",
          ";05/03/2025",
          "jean@;05/03/2025",
          "",
          "BONNE@example.fr;06/03/2025",
          "sans-date@example.fr;",
          "mauvaise-date@example.fr;31/02/2025",
          "futur@example.fr;01/02/2026",
          "ancien@example.fr;01/06/2024",
          "seconde@example.fr;16/07/2024",
        ].join("\n"),
      ),
    );
    expect(parsed.rows.map((row) => [row.line, row.email])).toEqual([
      [2, "bonne@example.fr"],
      [11, "seconde@example.fr"],
    ]);
    expect(parsed.invalid).toEqual([
      { line: 3, reason: "adresse e-mail manquante" },
      { line: 4, reason: "adresse e-mail invalide (« jean@ »)" },
      { line: 6, reason: "adresse en double : déjà à la ligne 2" },
      { line: 7, reason: "date de consentement manquante" },
      {
        line: 8,
        reason:
          "date de consentement illisible (« 31/02/2025 ») : écrivez JJ/MM/AAAA ou AAAA-MM-JJ",
      },
      { line: 9, reason: "date de consentement dans le futur (01/02/2026)" },
      {
        line: 10,
        reason:
          "consentement de plus de 18 mois (01/06/2024) : au-delà de la durée de conservation des données, l'adresse ne peut pas être importée",
      },
    ]);
  });

  it("reads quoted fields: separators, doubled quotes and line breaks inside, with the right line numbers", () => {
    const parsed = ok(
      parse(
        'nom,email,date\n"Dupont, Marie",marie@example.fr,05/03/2025\n"Martin\n""Jean""",jean@example.fr,05/03/2025\nx,pas-une-adresse,05/03/2025',
      ),
    );
    expect(parsed.rows.map((row) => [row.line, row.email])).toEqual([
      [2, "marie@example.fr"],
      [3, "jean@example.fr"],
    ]);
    expect(parsed.invalid).toEqual([
      { line: 5, reason: "adresse e-mail invalide (« pas-une-adresse »)" },
    ]);
  });

  it("reads the site's own export back: the active only, at their confirmation date", () => {
    const base = {
      subscribedAt: new Date("2025-03-05T10:00:00Z"),
      consentSource: "blog",
      unsubscribedAt: null,
    };
    const exported = subscribersCsv([
      {
        ...base,
        id: "1",
        email: "actif@example.fr",
        status: "active",
        active: true,
        confirmedAt: new Date("2025-03-06T08:30:00Z"),
      },
      {
        ...base,
        id: "2",
        email: "attente@example.fr",
        status: "pending",
        active: false,
        confirmedAt: null,
      },
      {
        ...base,
        id: "3",
        email: "parti@example.fr",
        status: "unsubscribed",
        active: false,
        confirmedAt: new Date("2025-03-06T08:30:00Z"),
        unsubscribedAt: new Date("2025-05-01T08:00:00Z"),
      },
    ] satisfies AdminSubscriber[]);
    const parsed = ok(parseSubscriberCsv(utf8(exported), now));
    expect(rowsOf(parsed)).toEqual([
      { line: 2, email: "actif@example.fr", at: "2025-03-06T08:30:00.000Z" },
    ]);
    expect(parsed.invalid).toEqual([
      {
        line: 3,
        reason: "statut « en attente » : seules les personnes abonnées sont importées",
      },
      { line: 4, reason: "statut « désabonné » : seules les personnes abonnées sont importées" },
    ]);
  });

  it("reads a Windows-1252 file (French Excel's « CSV (séparateur : point-virgule) »)", () => {
    const bytes = Uint8Array.from(
      Buffer.from("Adresse électronique;Date\r\nmarie@example.fr;05/03/2025\r\n", "latin1"),
    );
    expect(rowsOf(parseSubscriberCsv(bytes, now))).toEqual([
      { line: 2, email: "marie@example.fr", at: "2025-03-04T23:00:00.000Z" },
    ]);
  });

  it("refuses a file it cannot read as a whole, saying why", () => {
    expect(refused(parse(""))).toBe("Le fichier est vide.");
    expect(refused(parse("\n\n;\n"))).toBe("Le fichier est vide.");
    expect(refused(parse("email;date_consentement\n"))).toBe(
      "Le fichier ne contient aucune ligne après celle des colonnes.",
    );
    expect(refused(parse("marie@example.fr;05/03/2025\njean@example.fr;05/03/2025"))).toBe(
      "La première ligne doit nommer les colonnes « email » et « date_consentement » : colonne « email » et « date_consentement » introuvable (première ligne lue : « marie@example.fr, 05/03/2025 »).",
    );
    expect(refused(parse("email;nom\nmarie@example.fr;Marie"))).toContain(
      "colonne « date_consentement » introuvable",
    );
    expect(refused(parse('email;date\n"marie@example.fr;05/03/2025\n'))).toBe(
      "Guillemet ouvert et jamais fermé à la ligne 2 : corrigez le fichier (rien n'a été importé).",
    );
    const utf16 = Uint8Array.from([0xff, 0xfe, ...Buffer.from("email;date", "utf16le")]);
    expect(refused(parseSubscriberCsv(utf16, now))).toContain("UTF-16");
  });

  it("refuses more than 2 MB or 20,000 lines", () => {
    const big = new Uint8Array(MAX_IMPORT_BYTES + 1).fill(0x61);
    expect(refused(parseSubscriberCsv(big, now))).toBe(
      "Le fichier dépasse 2\u00a0Mo : découpez-le en plusieurs fichiers.",
    );
    const line = (index: number) => `a${index}@example.fr;05/03/2025`;
    const atLimit = ["email;date", ...Array.from({ length: MAX_IMPORT_LINES }, (_, i) => line(i))];
    expect(ok(parse(atLimit.join("\n"))).rows).toHaveLength(MAX_IMPORT_LINES);
    expect(refused(parse([...atLimit, line(MAX_IMPORT_LINES)].join("\n")))).toBe(
      `Le fichier compte plus de ${MAX_IMPORT_LINES.toLocaleString("fr-FR")} lignes : découpez-le en plusieurs fichiers.`,
    );
  });
});
