import { data, redirect } from "react-router";
import { auth } from "../auth.server";
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
async function hasSession(request: Request): Promise<boolean> {
  try {
    return Boolean(await (await auth()).api.getSession({ headers: request.headers }));
  } catch {
    return false;
  }
}

/**
 * Every admin loader and action starts with this (STYLE habit 4). Pages (GET) of a signed-out or non-admin
 * visitor are redirected to the login page; actions and resource routes (`resource: true`) are refused with
 * 401 (not signed in) or 403 (signed in, not an administrator).
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
  throw data(signedIn ? "Accès réservé aux administrateurs." : "Connexion requise.", {
    status: signedIn ? 403 : 401,
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
