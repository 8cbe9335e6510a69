import { CheckCircle2, Circle, Rocket } from "lucide-react";
import { Link } from "react-router";

export type ChecklistEntry = { label: string; detail?: string; href: string; done: boolean };

/**
 * « Avant la mise en ligne »: what still holds a demo value, with a link to the form that replaces it
 * (server/content/go-live.server.ts decides). Done items stay listed, ticked, so the owner sees her progress.
 */
export function GoLiveChecklist({ items }: { items: ChecklistEntry[] }) {
  const done = items.filter((item) => item.done).length;
  const complete = done === items.length;
  return (
    <section
      aria-labelledby="mise-en-ligne-titre"
      className="rounded-xl border border-border bg-white"
    >
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-border px-5 py-4">
        <h2 id="mise-en-ligne-titre" className="flex items-center gap-2 text-xl font-semibold">
          <Rocket aria-hidden="true" className="size-5" />
          Avant la mise en ligne
        </h2>
        <p className="text-sm text-muted-foreground">
          {done} sur {items.length} fait{done > 1 ? "s" : ""}
        </p>
      </div>
      <div className="px-5 pt-4">
        <progress
          value={done}
          max={items.length}
          aria-label="Avancement de la mise en ligne"
          className="h-2 w-full overflow-hidden rounded-full accent-gold-dark"
        />
        <p className="mt-3 text-sm text-muted-foreground">
          {complete
            ? "Toutes les informations de démonstration ont été remplacées : le site est prêt."
            : "Ces informations sont encore celles de la démonstration : remplacez-les par les vôtres."}
        </p>
      </div>
      <ul className="divide-y divide-border px-5 pb-2">
        {items.map((item) => (
          <li key={`${item.href}|${item.label}`} className="flex items-start gap-3 py-3">
            {item.done ? (
              <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-green-700" />
            ) : (
              <Circle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
            )}
            <div className="min-w-0 flex-1">
              <p className={item.done ? "text-muted-foreground" : "font-medium"}>
                {item.label}
                <span className="sr-only">{item.done ? " : fait" : " : à faire"}</span>
              </p>
              {item.detail ? (
                <p className="text-sm break-words text-muted-foreground">{item.detail}</p>
              ) : null}
            </div>
            {item.done ? null : (
              <Link
                to={item.href}
                className="shrink-0 text-sm font-medium text-gold-dark underline-offset-4 hover:underline"
              >
                Modifier<span className="sr-only"> : {item.label}</span>
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
