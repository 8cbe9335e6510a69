import { auth, authRefusal } from "../auth/auth.server";
import { consumeRateLimit } from "../rate-limit.server";
import { finishSignIn, type SignInOutcome, tooManyAttempts } from "./sign-in.server";

/** True when the browser holds a pending two-factor challenge (set by a correct password). */
export function hasTwoFactorChallenge(request: Request): boolean {
  return /(?:^|;\s*)(?:__Secure-)?studio\.two_factor=/.test(request.headers.get("Cookie") ?? "");
}

/**
 * A code as typed: spaces dropped; a backup code upper-cased and given its dash back (`ab cde fghjk` or
 * `ABCDEFGHJK` are `ABCDE-FGHJK`), since its symbols are all capital letters and digits.
 */
export function normaliseCode(code: string): string {
  const compact = code.replace(/\s+/g, "");
  if (/^\d{6}$/.test(compact)) return compact;
  const symbols = compact.replace(/-/g, "").toUpperCase();
  return symbols.length === 10 ? `${symbols.slice(0, 5)}-${symbols.slice(5)}` : compact;
}

/** Second step of sign-in: a 6-digit code from the app, or one of the backup codes. */
export async function verifySecondFactor(
  request: Request,
  { code, client }: { code: string; client: string },
): Promise<SignInOutcome> {
  const limit = await consumeRateLimit(`admin-2fa:client:${client}`, {
    limit: 20,
    windowSeconds: 15 * 60,
  });
  if (!limit.allowed) {
    return { kind: "refused", status: 429, toast: tooManyAttempts(limit.retryAfterSeconds) };
  }
  const api = (await auth()).api;
  const normalised = normaliseCode(code);
  try {
    const result = /^\d{6}$/.test(normalised)
      ? await api.verifyTOTP({
          body: { code: normalised },
          headers: request.headers,
          returnHeaders: true,
        })
      : await api.verifyBackupCode({
          body: { code: normalised },
          headers: request.headers,
          returnHeaders: true,
        });
    const user = (result.response as { user?: { role?: unknown; email?: string } }).user;
    return finishSignIn(result.headers, user);
  } catch (error) {
    const refusal = await authRefusal(error);
    if (refusal) {
      const expired =
        (refusal.body as { code?: string } | undefined)?.code === "INVALID_TWO_FACTOR_COOKIE";
      return {
        kind: "refused",
        status: 401,
        toast: {
          type: "error",
          title: "Erreur de connexion",
          description: expired
            ? "La vérification a expiré. Reconnectez-vous avec votre mot de passe."
            : "Code invalide",
        },
      };
    }
    throw error;
  }
}

export type TotpSetup = { totpURI: string; secret: string; qrCode: string };

/** The QR code (an SVG data URL made on the server: no third-party request) and the manual key. */
export async function totpSetup(totpURI: string): Promise<TotpSetup> {
  const secret = new URL(totpURI).searchParams.get("secret") ?? "";
  // qrcode is loaded when an administrator first turns two-factor on, not at start-up (decision 0092).
  const { default: QRCode } = await import("qrcode");
  const svg = await QRCode.toString(totpURI, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return {
    totpURI,
    secret,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}
