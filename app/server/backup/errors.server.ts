/** Refused: the owner's words for why (a damaged archive, another version…); nothing was changed. */
export class BackupRefusedError extends Error {
  override name = "BackupRefusedError";
}
