import type { Route } from "./+types/apercu";
import { isUuid } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { newsletterMode } from "~/server/newsletter/email.server";
import { newsletterSample } from "~/server/newsletter/sending.server";

/**
 * The policy of an e-mail shown inside the admin: nothing runs (no script, no form, a sandbox of its own
 * origin), only its inline styles and images are loaded, and only the site's own pages may frame it.
 */
export const PREVIEW_POLICY =
  "default-src 'none'; img-src 'self' https: data:; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'";

function refusal(message: string, status: number) {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * An article's newsletter as subscribers will get it (`?mode=excerpt|full`), with the sample unsubscribe
 * link: the HTML the send page frames, or its plain-text part (`&format=texte`).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request, { resource: true });
  const search = new URL(request.url).searchParams;
  const mode = newsletterMode(search.get("mode") ?? "excerpt");
  const format = search.get("format");
  if (!mode) return refusal("Mode d'aperçu inconnu : « excerpt » ou « full ».", 400);
  if (format !== null && format !== "texte") {
    return refusal("Format d'aperçu inconnu : « texte » ou aucun.", 400);
  }
  const sample = isUuid(params.id) ? await newsletterSample(params.id, mode) : null;
  if (!sample) return refusal("Article inconnu.", 404);
  const text = format === "texte";
  return new Response(text ? sample.content.text : sample.content.html, {
    headers: {
      "Content-Type": `${text ? "text/plain" : "text/html"}; charset=utf-8`,
      "Content-Security-Policy": PREVIEW_POLICY,
      "X-Frame-Options": "SAMEORIGIN",
      "Cache-Control": "no-store",
    },
  });
}
