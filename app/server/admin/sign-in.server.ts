import { isAPIError } from "better-auth/api";
import { auth } from "../auth.server";
import { consumeRateLimit, resetRateLimit } from "../rate-limit.server";
import type { ToastMessage } from "~/lib/toast";

/** Sign-in attempts allowed per window, per e-mail address and per client address. */
export const SIGN_IN_LIMITS = {
  perEmail: { limit: 5, windowSeconds: 15 * 60 },
  perClient: { limit: 30, windowSeconds: 15 * 60 },
} as const;

export const signInRateLimitKeys = (email: string, client: string) => ({
  email: `admin-login:email:${email.toLowerCase()}`,
  client: `admin-login:client:${client}`,
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
 * Checks the password of an administrator. Attempts are counted per address and per client before the
 * password is even looked at, so a blocked attacker learns nothing; a success clears the address's count.
 */
export async function signInAdministrator(
  request: Request,
  { email, password, client }: { email: string; password: string; client: string },
): Promise<SignInOutcome> {
  const keys = signInRateLimitKeys(email, client);
  const [byEmail, byClient] = await Promise.all([
    consumeRateLimit(keys.email, SIGN_IN_LIMITS.perEmail),
    consumeRateLimit(keys.client, SIGN_IN_LIMITS.perClient),
  ]);
  if (!byEmail.allowed || !byClient.allowed) {
    const retry = Math.max(
      byEmail.allowed ? 0 : byEmail.retryAfterSeconds,
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
    if (isAPIError(error) && (error.status === "UNAUTHORIZED" || error.status === "BAD_REQUEST")) {
      return { kind: "refused", status: 401, toast: INVALID_CREDENTIALS };
    }
    throw error;
  }
  await resetRateLimit(keys.email);

  const response = result.response as { twoFactorRedirect?: boolean; user?: { role?: unknown } };
  if (response.twoFactorRedirect) return { kind: "two-factor", headers: result.headers };
  return finishSignIn(result.headers, response.user?.role);
}

/** Only administrators keep a session: anyone else is signed out at once. */
export async function finishSignIn(headers: Headers, role: unknown): Promise<SignInOutcome> {
  if (role === "admin") return { kind: "signed-in", headers };
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
