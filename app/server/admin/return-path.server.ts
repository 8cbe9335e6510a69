/**
 * Where the sign-in pages send the administrator once signed in (decision 0139): `?retour=` of their
 * address, kept while she signs in (and through the two-factor step), so that a link of an e-mail that
 * needs her session (the monthly backup link) opens once she has signed in. Only an address of the admin
 * on this site is followed: anything else (another site, `//host`, a scheme) is ignored.
 */
const ADMIN_PATH = /^\/admin\/[A-Za-z0-9\-._~%/]*(\?[A-Za-z0-9\-._~%=&]*)?$/;

export function returnPathOf(request: Request): string | null {
  const asked = new URL(request.url).searchParams.get("retour");
  if (!asked || asked.length > 1000 || !ADMIN_PATH.test(asked) || asked.includes("//")) return null;
  return asked;
}

/** `path` with the return address kept (the next sign-in step). */
export function withReturnPath(path: string, returnPath: string | null): string {
  return returnPath ? `${path}?retour=${encodeURIComponent(returnPath)}` : path;
}
