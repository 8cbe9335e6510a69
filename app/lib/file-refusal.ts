import { data } from "react-router";

/**
 * What a file route, or a helper of one, throws to refuse (decision 0202): `status`, and the sentence the
 * person reads when the status's own does not say it (« Cette photo n'est pas encore débloquée… »). Never
 * cached. The route's `fileRoute` (server/http/file-refusal.server) writes it as a French page.
 */
export function refuse(status: number, text: string | null = null) {
  return data(text, { status, headers: { "Cache-Control": "no-store" } });
}
