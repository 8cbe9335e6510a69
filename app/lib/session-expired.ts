/**
 * What an admin form post refused for want of a session carries back (decision 0133): the address it was
 * posted to and the fields it held, so that the page « Votre session a expiré » can send them again once the
 * owner has signed in, instead of losing what she typed.
 */
export type SessionExpiredAnswer = {
  kind: "session-expired";
  /** The page's address the form was posted to (its `.data` suffix removed). */
  action: string;
  /** The text fields posted, in order; files and passwords are not kept (`dropped` says so). */
  fields: Array<[name: string, value: string]>;
  /** True when something posted could not be kept (a file, a password, a body already read). */
  dropped: boolean;
};

export function isSessionExpiredAnswer(value: unknown): value is SessionExpiredAnswer {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { kind?: unknown }).kind === "session-expired"
  );
}

/** Field names never written back into a page: a password does not belong in HTML. */
export const UNKEPT_FIELD = /password|mot-?de-?passe|secret|totp|^code$/i;
