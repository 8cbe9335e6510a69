import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { auth } from "~/server/auth/auth.server";

/** Ends the session (POST only: a link or an image cannot sign the owner out). */
export async function action({ request }: Route.ActionArgs) {
  const headers = new Headers();
  try {
    const result = await (
      await auth()
    ).api.signOut({ headers: request.headers, returnHeaders: true });
    for (const cookie of result.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  } catch {
    // No session: nothing to end.
  }
  return redirect("/admin/login", { headers });
}

export function loader() {
  return redirect("/admin/login");
}
