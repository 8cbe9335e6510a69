/** Refused: the owner's words for why (a damaged archive, another version…); nothing was changed. */
export class BackupRefusedError extends Error {
  override name = "BackupRefusedError";
}

/**
 * Refused: the site encrypts its backups (BACKUP_KEY) and this archive is not encrypted, so nothing proves
 * it is one of the site's (decision 0129). The command line may accept it knowingly.
 */
export class UnencryptedArchiveError extends BackupRefusedError {
  override name = "UnencryptedArchiveError";
  constructor() {
    super(
      "Cette sauvegarde n'est pas chiffrée, alors que ce site chiffre les siennes (BACKUP_KEY) : rien ne prouve qu'elle vienne de lui, elle n'est pas restaurée.",
    );
  }
}

/**
 * Refused before it began: another backup, check or restore holds the one turn (the page's, the nightly
 * job's, or another command line's, on any server; decision 0143). The message says which, in French.
 */
export class BackupBusyError extends BackupRefusedError {
  override name = "BackupBusyError";
}
