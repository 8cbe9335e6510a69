import { data } from "react-router";
import type { Route } from "./+types/layout";
import { renewedSessionCookies, requireAdmin } from "~/server/admin/guard.server";
import { siteContent } from "~/server/content/site-content.server";
import { readToast } from "~/server/toast.server";

/** Keeps a session in use alive: its renewed cookie goes out with the page. */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request }, next) => {
    const cookies = await renewedSessionCookies(request);
    const response = await next();
    if (response instanceof Response) {
      for (const cookie of cookies) response.headers.append("Set-Cookie", cookie);
    }
    return response;
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const { toast, headers } = await readToast(request);
  headers.set("Cache-Control", "no-store");
  const brand = (await siteContent(context)).documents.identity.brand;
  return data({ email: admin.email, brand, toast }, { headers });
}
