import { Check, Mail, Phone, RotateCcw } from "lucide-react";
import { Form } from "react-router";
import type { Route } from "./+types/messages";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { DeleteForm } from "~/components/admin/delete-form";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { formatDateFr } from "~/lib/dates";
import { parseIntent } from "~/lib/forms";
import { cn } from "~/lib/utils";
import { requireAdmin } from "~/server/admin/guard.server";
import { refusedIntent } from "~/server/forms.server";
import {
  deleteMessage,
  listMessagesForAdmin,
  setMessageHandled,
} from "~/server/admin/messages.server";
import { listStudios } from "~/server/content/content-store.server";
import { log } from "~/server/logger.server";
import { redirectWithToast } from "~/server/toast.server";
import { StatusBadge } from "~/components/admin/status-badge";

export const meta: Route.MetaFunction = () => [{ title: "Messages - Administration" }];

function label(options: Array<{ value: string; label: string }>, value: string | null) {
  if (!value) return null;
  return options.find((option) => option.value === value)?.label ?? value;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  try {
    // Every studio, retired ones too: their messages stay, under the studio's name.
    const [rows, studios] = await Promise.all([listMessagesForAdmin(), listStudios()]);
    const bySlug = new Map(studios.map((studio) => [studio.slug, studio.data]));
    const messages = rows.map((row) => {
      const studio = bySlug.get(row.studio);
      const form = studio?.contactForm;
      return {
        ...row,
        studioName: studio?.name ?? row.studio,
        shootingTypeLabel: form ? label(form.shootingTypes, row.shootingType) : row.shootingType,
        sourceLabel: form ? label(form.sources, row.source) : row.source,
      };
    });
    return { messages, loadError: null };
  } catch (error) {
    log.error("admin_messages_load_failed", { error });
    return {
      messages: [],
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
  try {
    if (intent === "delete") {
      if (!(await deleteMessage(id))) throw new Error("not found");
      return redirectWithToast("/admin/messages", { type: "success", title: "Message supprimé" });
    }
    if (!(await setMessageHandled(id, intent === "handled"))) throw new Error("not found");
    return redirectWithToast("/admin/messages", {
      type: "success",
      title:
        intent === "handled" ? "Message marqué comme traité" : "Message marqué comme à traiter",
    });
  } catch (error) {
    log.error("admin_message_update_failed", { error });
    return redirectWithToast("/admin/messages", {
      type: "error",
      title: "Erreur",
      description:
        intent === "delete"
          ? "Impossible de supprimer le message"
          : "Impossible de modifier le message",
    });
  }
}

export default function Messages({ loaderData }: Route.ComponentProps) {
  const { messages, loadError } = loaderData;
  useServerToast(loadError);
  const waiting = messages.filter((message) => !message.handledAt).length;

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Messages"
        summary={
          <>
            {messages.length} message{messages.length > 1 ? "s" : ""}, dont {waiting} à traiter. Les
            messages sont effacés automatiquement 18 mois après leur dernier traitement.
          </>
        }
      />

      {messages.length === 0 ? (
        <p className="rounded-xl border border-border bg-white px-5 py-8 text-muted-foreground">
          {loadError ? "Impossible de charger les messages" : "Aucun message pour le moment."}
        </p>
      ) : (
        <ul className="space-y-4" aria-label="Liste des messages">
          {messages.map((message) => {
            const name = `${message.prenom} ${message.nom}`;
            return (
              <li key={message.id}>
                <article
                  aria-label={`Message de ${name}`}
                  className={cn(
                    "rounded-xl border bg-white p-5",
                    message.handledAt ? "border-border" : "border-gold-dark/50 shadow-sm",
                  )}
                >
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div>
                      <h2 className="font-sans text-lg font-semibold">{name}</h2>
                      <p className="text-sm text-muted-foreground">
                        {formatDateFr(message.createdAt)} · {message.studioName} ·{" "}
                        {message.shootingTypeLabel}
                        {message.sourceLabel ? ` · Connu par : ${message.sourceLabel}` : ""}
                      </p>
                      {message.suspectedSpam ? (
                        <p className="mt-1 text-sm font-semibold text-red-800">
                          Indésirable probable : le champ caché anti-robots a été rempli (un robot,
                          ou le remplissage automatique du navigateur). Non transmis par e-mail.
                        </p>
                      ) : null}
                    </div>
                    <StatusBadge tone={message.handledAt ? "muted" : "warning"}>
                      {message.handledAt
                        ? `Traité le ${formatDateFr(message.handledAt)}`
                        : "À traiter"}
                    </StatusBadge>
                  </div>
                  <p className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm">
                    <a
                      href={`mailto:${message.email}`}
                      className="inline-flex items-center gap-1.5 underline-offset-4 hover:underline"
                    >
                      <Mail aria-hidden="true" className="size-4" />
                      {message.email}
                    </a>
                    {message.telephone ? (
                      <a
                        href={`tel:${message.telephone.replace(/[^\d+]/g, "")}`}
                        className="inline-flex items-center gap-1.5 underline-offset-4 hover:underline"
                      >
                        <Phone aria-hidden="true" className="size-4" />
                        {message.telephone}
                      </a>
                    ) : null}
                  </p>
                  <p className="mt-3 text-sm whitespace-pre-line">{message.message}</p>
                  <div className="mt-4 flex flex-wrap gap-2">
                    <Form method="post">
                      <input type="hidden" name="id" value={message.id} />
                      <Button
                        type="submit"
                        name="intent"
                        value={message.handledAt ? "unhandled" : "handled"}
                        variant="outline"
                        size="sm"
                      >
                        {message.handledAt ? (
                          <RotateCcw aria-hidden="true" />
                        ) : (
                          <Check aria-hidden="true" />
                        )}
                        {message.handledAt ? "Remettre à traiter" : "Marquer comme traité"}
                      </Button>
                    </Form>
                    <DeleteForm
                      id={message.id}
                      confirmation="Êtes-vous sûr de vouloir supprimer ce message ?"
                    />
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
