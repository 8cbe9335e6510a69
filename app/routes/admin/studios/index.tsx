import { EyeOff, Plus, RotateCcw } from "lucide-react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/index";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { EditAndArchiveActions } from "~/components/admin/edit-and-archive";
import { MoveButtons } from "~/components/admin/move-buttons";
import { Button } from "~/components/ui/button";
import { StatusBadge } from "~/components/admin/status-badge";

export { action, loader } from "./index.server";

export const meta: Route.MetaFunction = () => [{ title: "Studios - Administration" }];

/** The search parameter that opens the confirmation of a studio's retirement without JavaScript. */
const CONFIRM_RETIRE_PARAM = "retirer";

export default function Studios({ loaderData }: Route.ComponentProps) {
  const { studios } = loaderData;
  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Studios"
        summary="Dans l'ordre des menus du site."
        actions={
          <Button asChild>
            <Link to="/admin/studios/nouveau">
              <Plus aria-hidden="true" />
              Ajouter un studio
            </Link>
          </Button>
        }
      />
      <section className="rounded-xl border border-border bg-white" aria-label="Liste des studios">
        <ul className="divide-y divide-border">
          {studios.map((studio, index) => (
            <li
              key={studio.id}
              className="flex flex-col gap-3 px-5 py-4 lg:flex-row lg:items-center"
            >
              <div className="min-w-0 flex-1">
                <h2 className="flex flex-wrap items-center gap-2 font-sans text-base font-semibold">
                  {studio.name}
                  {studio.retired ? <StatusBadge tone="neutral">Retiré</StatusBadge> : null}
                </h2>
                <p className="text-sm text-muted-foreground">
                  {studio.city} · {studio.address} · {studio.phone}
                </p>
                {studio.retired ? null : (
                  <p className="text-sm">
                    <a href={studio.pagePath} className="underline underline-offset-4">
                      {studio.pagePath}
                    </a>
                  </p>
                )}
              </div>
              <EditAndArchiveActions
                id={studio.id}
                name={studio.name}
                editTo={`/admin/studios/${studio.id}`}
                archived={studio.retired}
                archive={{
                  intent: "retire",
                  param: CONFIRM_RETIRE_PARAM,
                  confirmation:
                    "Retirer ce studio du site ? Ses pages et son formulaire quittent le site ; ses messages restent dans Messages. Vous pourrez le remettre en ligne.",
                  label: (
                    <>
                      <EyeOff aria-hidden="true" />
                      Retirer
                    </>
                  ),
                }}
                restore={{
                  intent: "reactivate",
                  label: (
                    <>
                      <RotateCcw aria-hidden="true" />
                      Remettre en ligne
                    </>
                  ),
                }}
              >
                <Form method="post" className="flex gap-1">
                  <input type="hidden" name="id" value={studio.id} />
                  <MoveButtons name={studio.name} index={index} count={studios.length} />
                </Form>
              </EditAndArchiveActions>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
