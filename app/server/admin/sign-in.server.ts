import { redirect } from "react-router";
import { auth, authRefusal } from "../auth/auth.server";
import { redirectWithToast } from "../toast.server";
import { returnPathOf, withReturnPath } from "./return-path.server";
import { consumeRateLimit, resetRateLimit } from "../rate-limit.server";
import type { ToastMessage } from "~/lib/toast";
import { deviceCookieHeader, trustedDevice } from "./device-cookie.server";

/**
 * Sign-in attempts allowed per window: per account from browsers it has never signed in from (`perEmail`),
 * per known browser of that account (`perDevice`, see device-cookie.server), and per client address.
 */
export const SIGN_IN_LIMITS = {
  perEmail: { limit: 5, windowSeconds: 15 * 60 },
  perDevice: { limit: 10, windowSeconds: 15 * 60 },
  perClient: { limit: 30, windowSeconds: 15 * 60 },
} as const;

export const signInRateLimitKeys = (email: string, client: string, device?: string) => ({
  email: `admin-login:email:${email.trim().toLowerCase()}`,
  client: `admin-login:client:${client}`,
  device: `admin-login:device:${device ?? ""}`,
});

export type SignInOutcome =
  | { kind: "signed-in"; headers: Headers }
  | { kind: "two-factor"; headers: Headers }
  | { kind: "refused"; status: number; toast: ToastMessage };

const INVALID_CREDENTIALS: ToastMessage = {
  type: "error",
  title: "Erreur de connexion",
  description: "Email ou mot de passe incorrect",
};

export function tooManyAttempts(retryAfterSeconds: number): ToastMessage {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return {
    type: "error",
    title: "Trop de tentatives",
    description: `Trop de tentatives de connexion. Veuillez réessayer dans ${minutes} minute${minutes > 1 ? "s" : ""}.`,
  };
}

/**
 * Checks the password of an administrator. Attempts are counted per client, and per account before the
 * password is even looked at, so a blocked attacker learns nothing. A browser holding a valid device cookie
 * for this account is counted on its own (a stranger's failures cannot lock it out); any other browser is
 * counted on the account's shared counter. A success clears the counter it used and makes the browser known.
 */
export async function signInAdministrator(
  request: Request,
  { email, password, client }: { email: string; password: string; client: string },
): Promise<SignInOutcome> {
  const device = await trustedDevice(request, email);
  const keys = signInRateLimitKeys(email, client, device ?? undefined);
  const accountKey = device ? keys.device : keys.email;
  const [byAccount, byClient] = await Promise.all([
    consumeRateLimit(accountKey, device ? SIGN_IN_LIMITS.perDevice : SIGN_IN_LIMITS.perEmail),
    consumeRateLimit(keys.client, SIGN_IN_LIMITS.perClient),
  ]);
  if (!byAccount.allowed || !byClient.allowed) {
    const retry = Math.max(
      byAccount.allowed ? 0 : byAccount.retryAfterSeconds,
      byClient.allowed ? 0 : byClient.retryAfterSeconds,
    );
    return { kind: "refused", status: 429, toast: tooManyAttempts(retry) };
  }

  const api = (await auth()).api;
  let result;
  try {
    result = await api.signInEmail({
      body: { email, password, rememberMe: true },
      headers: request.headers,
      returnHeaders: true,
    });
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal && (refusal.status === "UNAUTHORIZED" || refusal.status === "BAD_REQUEST")) {
      return { kind: "refused", status: 401, toast: INVALID_CREDENTIALS };
    }
    throw error;
  }
  await resetRateLimit(accountKey);

  const response = result.response as {
    twoFactorRedirect?: boolean;
    user?: { role?: unknown; email?: string };
  };
  if (response.twoFactorRedirect) return { kind: "two-factor", headers: result.headers };
  return finishSignIn(result.headers, response.user);
}

/**
 * Only administrators keep a session: anyone else is signed out at once. An administrator's browser becomes
 * a known device of the account (device-cookie.server).
 */
export async function finishSignIn(
  headers: Headers,
  user: { role?: unknown; email?: string } | undefined,
): Promise<SignInOutcome> {
  if (user?.role === "admin" && user.email) {
    const out = new Headers(headers);
    out.append("Set-Cookie", await deviceCookieHeader(user.email));
    return { kind: "signed-in", headers: out };
  }
  const cookie = headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  const signedOut = await (
    await auth()
  ).api
    .signOut({ headers: new Headers({ cookie }), returnHeaders: true })
    .catch(() => null);
  void signedOut;
  return {
    kind: "refused",
    status: 403,
    toast: {
      type: "error",
      title: "Erreur de connexion",
      description: "Ce compte n'a pas accès à l'administration.",
    },
  };
}

/**
 * Where a sign-in that went through leads, thrown as a redirect with its cookies: to the second factor when
 * her account asks for it (the return path kept), back to the e-mailed link she opened signed out (decision
 * 0139, without a toast, for a download), or to the dashboard with « Connexion réussie ».
 */
export async function leadSignedIn(
  request: Request,
  outcome: { kind: "signed-in" | "two-factor"; headers: Headers },
): Promise<never> {
  if (outcome.kind === "two-factor") {
    throw redirect(withReturnPath("/admin/verification", returnPathOf(request)), {
      headers: outcome.headers,
    });
  }
  const returnPath = returnPathOf(request);
  if (returnPath) throw redirect(returnPath, { headers: outcome.headers });
  throw await redirectWithToast(
    "/admin/dashboard",
    {
      type: "success",
      title: "Connexion réussie",
      description: "Redirection vers le tableau de bord...",
    },
    { headers: outcome.headers },
  );
}
