import { data, redirect } from "react-router";
import { type SessionExpiredAnswer, UNKEPT_FIELD } from "~/lib/session-expired";
import { auth } from "../auth/auth.server";
import { log } from "../logger.server";

export type AdminUser = { id: string; email: string; name: string; twoFactorEnabled: boolean };

/**
 * The signed-in administrator of this request, or null. SPEC §6's is_admin rule: any error, no session, or
 * any role but exactly "admin" means not an administrator.
 */
export async function getAdmin(request: Request): Promise<AdminUser | null> {
  try {
    const session = await (await auth()).api.getSession({ headers: request.headers });
    const user = session?.user as
      | { id: string; email: string; name: string; role?: unknown; twoFactorEnabled?: unknown }
      | undefined;
    if (!user || user.role !== "admin") return null;
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      twoFactorEnabled: user.twoFactorEnabled === true,
    };
  } catch (error) {
    log.error("admin_check_failed", { error });
    return null;
  }
}

/** True when the request carries any valid session (admin or not). */
export async function hasSession(request: Request): Promise<boolean> {
  try {
    return Boolean(await (await auth()).api.getSession({ headers: request.headers }));
  } catch {
    return false;
  }
}

/** The largest form body kept for « Envoyer à nouveau »; an upload's is not. */
const KEPT_BODY_BYTES = 256 * 1024;

/**
 * What a page's form post refused with 401 carries back (decision 0133): the page's address and the text
 * fields posted, read from a copy of the request (the action has not read it yet, or nothing is kept).
 */
async function sessionExpiredAnswer(request: Request): Promise<SessionExpiredAnswer> {
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  // A post with JavaScript goes to the page's `.data` address (`/_.data` for the root).
  const pathname = url.pathname.replace(/\/_\.data$/, "/").replace(/\.data$/, "");
  const action = `${pathname}${url.search}`;
  const length = Number(request.headers.get("content-length") ?? "0");
  const type = request.headers.get("content-type") ?? "";
  const readable =
    !request.bodyUsed &&
    length <= KEPT_BODY_BYTES &&
    /^(application\/x-www-form-urlencoded|multipart\/form-data)/.test(type);
  if (!readable) {
    return { kind: "session-expired", action, fields: [], dropped: length > 0 || type !== "" };
  }
  try {
    const fields: SessionExpiredAnswer["fields"] = [];
    let dropped = false;
    for (const [name, value] of await request.clone().formData()) {
      if (typeof value !== "string" || UNKEPT_FIELD.test(name)) dropped = true;
      else fields.push([name, value]);
    }
    return { kind: "session-expired", action, fields, dropped };
  } catch {
    return { kind: "session-expired", action, fields: [], dropped: true };
  }
}

/**
 * Every admin loader and action starts with this: a check in the layout alone is a hole, since loaders run
 * in parallel. Pages (GET) of a signed-out or non-admin visitor are redirected to the login page; actions
 * and resource routes (`resource: true`) are refused with 401 (not signed in) or 403 (signed in, not an
 * administrator). A page's form post refused with 401 (a session expired while the owner typed) carries
 * what she posted back to « Votre session a expiré ».
 */
export async function requireAdmin(
  request: Request,
  options: { resource?: boolean } = {},
): Promise<AdminUser> {
  const admin = await getAdmin(request);
  if (admin) return admin;
  const isPage = request.method === "GET" && !options.resource;
  if (isPage) throw redirect("/admin/login");
  const signedIn = await hasSession(request);
  // The reason phrase of the status line, which React Router would otherwise write « Internal Server Error ».
  if (!signedIn && !options.resource) {
    throw data(await sessionExpiredAnswer(request), { status: 401, statusText: "Unauthorized" });
  }
  throw data(signedIn ? "Accès réservé aux administrateurs." : "Connexion requise.", {
    status: signedIn ? 403 : 401,
    statusText: signedIn ? "Forbidden" : "Unauthorized",
  });
}

/**
 * The cookie renewal of a session in use: better-auth extends the session in the database once a day and
 * gives a fresh cookie, which the admin layout's middleware adds to the response.
 */
export async function renewedSessionCookies(request: Request): Promise<string[]> {
  try {
    const result = await (
      await auth()
    ).api.getSession({
      headers: request.headers,
      returnHeaders: true,
    });
    return result.headers.getSetCookie();
  } catch {
    return [];
  }
}
