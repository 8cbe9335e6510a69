import type { Route } from "./+types/mentions-legales";
import { shownAddress } from "~/lib/external-links";
import { sirenOf } from "~/lib/legal/seller";
import { siteContent } from "~/server/content/site-content.server";

/** The legal details (`legal` document, /admin/site). */
export async function loader({ context }: Route.LoaderArgs) {
  const { legal } = (await siteContent(context)).documents;
  // A link the owner has not set yet is not shown (decision 0126).
  return {
    legal: {
      ...legal,
      host: { ...legal.host, website: shownAddress(legal.host.website) },
      mediator: { ...legal.mediator, website: shownAddress(legal.mediator.website) },
    },
    siren: sirenOf(legal.siret),
    vatExempt: legal.vatRegime === "franchise",
  };
}
