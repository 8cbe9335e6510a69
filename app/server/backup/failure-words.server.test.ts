import { describe, expect, it } from "vitest";
import { StorageUnavailableError } from "../storage/types";
import { BackupRefusedError } from "./errors.server";
import { ownerMessageOf } from "./failure-words.server";

describe("why a backup or a restore failed, in the owner's words", () => {
  it("says what PostgreSQL, the disk or the store answered means, never « une erreur inattendue »", () => {
    const database = (code: string) =>
      Object.assign(new Error("duplicate key value violates unique constraint"), {
        code,
        table: "blog_articles",
      });
    expect(ownerMessageOf(database("23505"))).toBe(
      "la table « blog_articles » de la sauvegarde contient deux lignes de même clé : la sauvegarde est incohérente",
    );
    expect(ownerMessageOf(database("23503"))).toContain("renvoie à une ligne qui n'y est pas");
    expect(ownerMessageOf(database("22P04"))).toContain("« blog_articles » ne se chargent pas");
    expect(ownerMessageOf(Object.assign(new Error("no space"), { code: "ENOSPC" }))).toContain(
      "le disque du serveur est plein",
    );
    expect(ownerMessageOf(new StorageUnavailableError("S3 silent", { timedOut: true }))).toContain(
      "le stockage des fichiers du site n'a pas répondu",
    );
    expect(ownerMessageOf(new Error("socket hang up"))).toBe(
      "une erreur imprévue est survenue (« socket hang up ») ; le détail est dans le journal du serveur",
    );
    for (const error of [database("23505"), new Error("x"), database("ENOSPC")]) {
      expect(ownerMessageOf(error)).not.toContain("inattendue");
    }
  });

  it("keeps a refusal's own words, without its final period (the page adds its sentence after)", () => {
    expect(ownerMessageOf(new BackupRefusedError("Cette sauvegarde est abîmée."))).toBe(
      "Cette sauvegarde est abîmée",
    );
  });
});
