import type { Route } from "./+types/index";
import { SITE_PAGES } from "~/components/admin/tarifs-nav";
import type { Documents } from "~/content/schemas";
import { documentValues, pricesForm } from "~/lib/document-forms";
import type { z } from "~/lib/zod";
import { requireAdmin } from "~/server/admin/guard.server";
import { listStudios, loadDocument } from "~/server/content/content-store.server";
import { documentFormAction, documentHistory } from "~/server/content/document-form.server";
import { studioPaths } from "~/server/content/site-content.server";
import { listSessionTypes } from "~/server/booking/session-type-store.server";

const PAGE = "/admin/tarifs";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [prices, history, studios, types] = await Promise.all([
    loadDocument("prices"),
    documentHistory("prices", request),
    listStudios(),
    listSessionTypes(),
  ]);
  // A card may be the offer of a session type booked on the site (decision 0127).
  const sessionTypes = [
    { value: "", label: "Aucune : pas de réservation en ligne" },
    ...types
      .filter((type) => !type.archivedAt)
      .map((type) => ({ value: type.id, label: type.name })),
  ];
  const pages = [
    ...SITE_PAGES,
    ...studios
      .filter((studio) => !studio.retiredAt)
      .map((studio) => ({
        path: studioPaths(studio.slug).pagePath,
        label: `Studio ${studio.data.city}`,
      })),
  ];
  return { values: documentValues("prices", prices), history, pages, sessionTypes };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return documentFormAction(await request.formData(), admin, {
    key: "prices",
    schema: pricesForm,
    build: (parsed: z.output<typeof pricesForm>): Documents["prices"] => parsed,
    load: () => loadDocument("prices"),
    // A card names an existing session type, and each type is the offer of one card (decision 0127).
    check: async (prices) => {
      const known = new Set((await listSessionTypes()).map((type) => type.id));
      const taken = new Map<string, string>();
      const errors: Record<string, string> = {};
      prices.tabs.forEach((tab, tabIndex) =>
        tab.cards.forEach((card, cardIndex) => {
          if (card.sessionType === "") return;
          const field = `tabs.${tabIndex}.cards.${cardIndex}.sessionType`;
          const other = taken.get(card.sessionType);
          if (!known.has(card.sessionType)) {
            errors[field] = "Cette séance n'existe plus : choisissez-en une dans la liste";
          } else if (other !== undefined) {
            errors[field] =
              `Cette séance est déjà celle de la carte « ${other} » : une séance, une carte`;
          } else taken.set(card.sessionType, card.title);
        }),
      );
      return errors;
    },
    previewPaths: ["/tarifs"],
    page: PAGE,
    savedTitle: "Tarifs enregistrés",
  });
}
