import { createHmac } from "node:crypto";
import { createCookie, redirect, type Cookie } from "react-router";
import { z } from "zod";
import type { ToastMessage } from "~/lib/toast";
import { authSecret } from "./auth/auth.server";
import { env } from "./env.server";

// A toast that must survive a redirect (a full page load, or a form posted without JavaScript) travels in
// this short-lived cookie and is shown, then cleared, by the next page.
// It is signed (a forged cookie would put any text in the site's own voice) with a key derived from the
// sessions' secret, and its flags follow the session cookie's: Secure whenever the site is served over
// https (better-auth's `useSecureCookies`, auth.server.ts).
let toastCookie: Promise<Cookie> | undefined;

/** The key that signs toast cookies: the sessions' secret, specialised so that neither signs the other. */
export function toastCookieSecret(sessionSecret: string): string {
  return createHmac("sha256", sessionSecret).update("toast cookie").digest("base64url");
}

function cookie(): Promise<Cookie> {
  toastCookie ??= authSecret().then((secret) =>
    createCookie("toast", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: 60,
      secure: env().SITE_URL.startsWith("https://"),
      secrets: [toastCookieSecret(secret)],
    }),
  );
  return toastCookie;
}

const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]),
  title: z.string(),
  description: z.string().optional(),
});

/** The `Set-Cookie` value that carries `toast` to the next page. */
export async function toastCookieHeader(toast: ToastMessage): Promise<string> {
  return (await cookie()).serialize(toast);
}

export async function redirectWithToast(url: string, toast: ToastMessage, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastCookieHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads the pending toast, if any, and the header that clears it. A cookie not signed by us is ignored. */
export async function readToast(
  request: Request,
): Promise<{ toast: ToastMessage | null; headers: Headers }> {
  const headers = new Headers();
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader || !/(^|;\s*)toast=/.test(cookieHeader)) return { toast: null, headers };
  const toastCookie = await cookie();
  const raw: unknown = await toastCookie.parse(cookieHeader);
  headers.append("Set-Cookie", await toastCookie.serialize("", { maxAge: 0 }));
  if (raw === null || raw === undefined || raw === false) return { toast: null, headers };
  const parsed = toastSchema.safeParse(raw);
  return { toast: parsed.success ? parsed.data : null, headers };
}
