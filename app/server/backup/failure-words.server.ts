import { StorageUnavailableError } from "../storage/types";
import { BackupRefusedError } from "./errors.server";

/*
 * Why a backup, a check or a restore failed, in the owner's words (decision 0128): a refusal says its own
 * reason; what PostgreSQL, the disk or a store answered is told as what it means for her, never as « une
 * erreur inattendue » alone. The technical detail stays in the server's log.
 */

type DatabaseError = { code?: string; table?: string; constraint?: string; column?: string };

/** The table an error names, as PostgreSQL gives it (`blog_articles`). */
const tableOf = (error: DatabaseError) => (error.table ? ` « ${error.table} »` : "");

/** The sentence (no final period) the page and the e-mails show after « échouée : ». */
export function ownerMessageOf(error: unknown): string {
  if (error instanceof BackupRefusedError) return error.message.replace(/\.$/, "");
  if (error instanceof StorageUnavailableError) {
    return "le stockage des fichiers du site n'a pas répondu à temps : réessayez dans un moment";
  }
  const found = (error as { cause?: unknown })?.cause ?? error;
  const { code } = (found ?? {}) as DatabaseError & { code?: string };
  const database = found as DatabaseError;
  switch (code) {
    case "23505":
      return `la table${tableOf(database)} de la sauvegarde contient deux lignes de même clé : la sauvegarde est incohérente`;
    case "23503":
      return `une ligne de la table${tableOf(database)} de la sauvegarde renvoie à une ligne qui n'y est pas : la sauvegarde est incohérente`;
    case "23502":
    case "23514":
    case "23P01":
      return `une ligne de la table${tableOf(database)} de la sauvegarde est refusée par les règles de la base : la sauvegarde est incohérente`;
    case "ENOSPC":
    case "53100":
      return "le disque du serveur est plein : libérez de la place (ou supprimez d'anciennes sauvegardes), puis recommencez";
    case "ECONNREFUSED":
    case "ECONNRESET":
    case "57P01":
    case "57P03":
      return "la base de données du site ne répondait plus pendant le travail : réessayez dans un moment";
    case "EACCES":
    case "EPERM":
      return "le serveur n'a pas le droit d'écrire dans le dossier des sauvegardes : la personne qui héberge le site doit le corriger";
  }
  if (typeof code === "string" && /^(22|23)/.test(code)) {
    return `des données de la table${tableOf(database)} ne se chargent pas dans la base : la sauvegarde est incohérente`;
  }
  const detail = error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200);
  return `une erreur imprévue est survenue (« ${detail} ») ; le détail est dans le journal du serveur`;
}
