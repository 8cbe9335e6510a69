import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseGuide } from "./guide";

describe("parseGuide", () => {
  it("reads headings, paragraphs over several lines, and list items with their continuation lines", () => {
    const markdown = [
      "# Guide",
      "",
      "Une phrase",
      "sur deux lignes.",
      "",
      "## Se connecter",
      "",
      "- **Site** : la marque,",
      "  le slogan.",
      "- Le code `/admin/login`.",
      "Après la liste.",
    ].join("\n");
    expect(parseGuide(markdown)).toEqual([
      { kind: "heading", level: 1, text: "Guide" },
      { kind: "paragraph", inlines: [{ kind: "text", text: "Une phrase sur deux lignes." }] },
      { kind: "heading", level: 2, text: "Se connecter" },
      {
        kind: "list",
        items: [
          [
            { kind: "strong", text: "Site" },
            { kind: "text", text: " : la marque, le slogan." },
          ],
          [
            { kind: "text", text: "Le code " },
            { kind: "code", text: "/admin/login" },
            { kind: "text", text: "." },
          ],
        ],
      },
      { kind: "paragraph", inlines: [{ kind: "text", text: "Après la liste." }] },
    ]);
  });

  it("keeps markup it does not know as text, never as HTML", () => {
    expect(parseGuide("<b>gras</b> et [lien](/x)")).toEqual([
      { kind: "paragraph", inlines: [{ kind: "text", text: "<b>gras</b> et [lien](/x)" }] },
    ]);
  });

  it("reads the owner's guide whole: every line of it lands in a block", () => {
    const guide = fs.readFileSync(
      path.resolve(import.meta.dirname, "../../docs/guide-proprietaire.md"),
      "utf8",
    );
    const blocks = parseGuide(guide);
    const text = JSON.stringify(blocks);
    expect(blocks[0]).toEqual({ kind: "heading", level: 1, text: "Guide de la propriétaire" });
    for (const word of [
      "Avant la mise en ligne",
      "Réservation en ligne",
      "Sauvegarder maintenant",
      "Bons cadeaux et paiements",
    ]) {
      expect(text).toContain(word);
    }
  });
});
