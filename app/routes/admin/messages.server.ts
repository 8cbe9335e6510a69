import type { Route } from "./+types/messages";
import { parseIntent } from "~/lib/forms";
import { requireAdmin } from "~/server/admin/guard.server";
import { refusedIntent } from "~/server/forms.server";
import { listPath, pagePosition, searchParam } from "~/server/db/keyset.server";
import {
  deleteMessage,
  listMessagesForAdmin,
  MESSAGE_LIST_ORDER,
  MESSAGE_STATE_FILTERS,
  messageCounts,
  setMessageHandled,
  type MessageStateFilter,
} from "~/server/contact/admin-messages.server";
import { listStudios } from "~/server/content/content-store.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";

function label(options: Array<{ value: string; label: string }>, value: string | null) {
  if (!value) return null;
  return options.find((option) => option.value === value)?.label ?? value;
}

const PAGE = "/admin/messages";
/** What the list's address keeps when an action brings the owner back to it. */
const LIST_PARAMS = ["statut", "q", "apres", "avant"];

function stateFilter(value: string | null): MessageStateFilter | null {
  return value !== null && Object.hasOwn(MESSAGE_STATE_FILTERS, value)
    ? (value as MessageStateFilter)
    : null;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const filters = { state: stateFilter(params.get("statut")), search: searchParam(params) };
  try {
    // Every studio, retired ones too: their messages stay, under the studio's name.
    const [page, counts, studios] = await Promise.all([
      listMessagesForAdmin(filters, pagePosition(MESSAGE_LIST_ORDER, params)),
      messageCounts(),
      listStudios(),
    ]);
    const bySlug = new Map(studios.map((studio) => [studio.slug, studio.data]));
    const messages = page.rows.map((row) => {
      const studio = bySlug.get(row.studio);
      const form = studio?.contactForm;
      return {
        ...row,
        studioName: studio?.name ?? row.studio,
        shootingTypeLabel: form ? label(form.shootingTypes, row.shootingType) : row.shootingType,
        sourceLabel: form ? label(form.sources, row.source) : row.source,
      };
    });
    const { previous, next } = page;
    const matching = page.matching ?? counts.total;
    return { messages, previous, next, matching, counts, filters, loadError: null };
  } catch (error) {
    log.error("admin_messages_load_failed", { error });
    return {
      messages: [],
      previous: null,
      next: null,
      matching: 0,
      counts: { total: 0, waiting: 0 },
      filters,
      loadError: {
        type: "error" as const,
        title: "Erreur",
        description: "Impossible de charger les messages",
      },
    };
  }
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const parsed = parseIntent(await request.formData(), ["delete", "handled", "unhandled"]);
  if (!parsed.ok) return refusedIntent(parsed.reason, "Message inconnu");
  const { intent, id } = parsed;
  const back = listPath(PAGE, new URL(request.url).searchParams, LIST_PARAMS);
  try {
    if (intent === "delete") {
      if (!(await deleteMessage(id))) throw new Error("not found");
      return redirectWithToast(back, { type: "success", title: "Message supprimé" });
    }
    if (!(await setMessageHandled(id, intent === "handled"))) throw new Error("not found");
    return redirectWithToast(back, {
      type: "success",
      title:
        intent === "handled" ? "Message marqué comme traité" : "Message marqué comme à traiter",
    });
  } catch (error) {
    log.error("admin_message_update_failed", { error });
    return redirectWithToast(back, {
      type: "error",
      title: "Erreur",
      description:
        intent === "delete"
          ? "Impossible de supprimer le message"
          : "Impossible de modifier le message",
    });
  }
}
