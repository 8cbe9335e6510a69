import { Copy, Download } from "lucide-react";
import { toast } from "~/components/ui/toaster";
import type { Route } from "./+types/subscribers";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Button, buttonVariants } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { formatDateFr } from "~/lib/dates";
import { cn } from "~/lib/utils";
import { requireAdmin } from "~/server/admin/guard.server";
import { activeEmailList, listSubscribersForAdmin } from "~/server/admin/subscribers.server";
import { log } from "~/server/logger.server";

export const meta: Route.MetaFunction = () => [{ title: "Abonnés - Administration" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  try {
    const subscribers = await listSubscribersForAdmin();
    return {
      subscribers,
      activeEmails: activeEmailList(subscribers),
      activeCount: subscribers.filter((subscriber) => subscriber.active).length,
      loadError: null,
    };
  } catch (error) {
    log.error("admin_subscribers_load_failed", { error });
    return {
      subscribers: [],
      activeEmails: "",
      activeCount: 0,
      loadError: {
        type: "error" as const,
        title: "Erreur",
        description: "Impossible de charger les abonnés",
      },
    };
  }
}

export default function Subscribers({ loaderData }: Route.ComponentProps) {
  const { subscribers, activeEmails, activeCount, loadError } = loaderData;
  useServerToast(loadError);

  async function copyEmails() {
    try {
      await navigator.clipboard.writeText(activeEmails);
      toast.success("Emails copiés", {
        description: `${activeCount} adresse${activeCount > 1 ? "s" : ""} copiée${activeCount > 1 ? "s" : ""}`,
      });
    } catch {
      toast.error("Erreur", { description: "Impossible de copier les emails" });
    }
  }

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Abonnés"
        summary={
          <>
            {subscribers.length} inscrit{subscribers.length > 1 ? "s" : ""}, dont {activeCount}{" "}
            actif
            {activeCount > 1 ? "s" : ""}
          </>
        }
        actions={
          <>
            <Button type="button" onClick={() => void copyEmails()} disabled={activeCount === 0}>
              <Copy aria-hidden="true" />
              Copier les emails
            </Button>
            <a
              href="/admin/subscribers/export.csv"
              download
              className={buttonVariants({ variant: "outline" })}
            >
              <Download aria-hidden="true" />
              Exporter en CSV
            </a>
          </>
        }
      />

      <section
        className="overflow-x-auto rounded-xl border border-border bg-white"
        aria-label="Liste des abonnés"
      >
        {subscribers.length === 0 ? (
          <p className="px-5 py-8 text-muted-foreground">
            {loadError ? "Impossible de charger les abonnés" : "Aucun abonné pour le moment."}
          </p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="border-b border-border bg-muted/50">
              <tr>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Email
                </th>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Inscription
                </th>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Statut
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {subscribers.map((subscriber) => (
                <tr key={subscriber.id} className={cn(!subscriber.active && "text-stone-500")}>
                  <td className="px-5 py-3 break-all">{subscriber.email}</td>
                  <td className="px-5 py-3 whitespace-nowrap">
                    {formatDateFr(subscriber.subscribedAt)}
                  </td>
                  <td className="px-5 py-3">
                    {subscriber.active ? (
                      <span className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-900">
                        Actif
                      </span>
                    ) : (
                      <span className="rounded-full bg-stone-100 px-2.5 py-0.5 text-xs font-semibold text-stone-600">
                        Désabonné
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
