import { useEffect, useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/field";
import {
  isLinkAddress,
  LINK_ADDRESS_MESSAGE,
  SITE_PAGES_PATH,
  type SitePage,
} from "~/lib/link-address";
import { Dialog } from "./dialog";

/**
 * The article editor's link dialog, instead of the browser's prompt(): an address typed
 * or pasted, or a page of the site picked from a list that filters as she types; « Retirer le lien » on an
 * existing link. The address is checked as the sanitizer will keep it.
 */
export function LinkDialog({
  initial,
  editing,
  onCancel,
  onApply,
  onRemove,
}: {
  /** The link's current address ("" for a new link). */
  initial: string;
  /** An existing link is being changed (« Retirer le lien » is offered). */
  editing: boolean;
  onCancel: () => void;
  onApply: (address: string) => void;
  onRemove: () => void;
}) {
  const [address, setAddress] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState("");
  const [pages, setPages] = useState<SitePage[] | null>(null);
  const [pagesFailed, setPagesFailed] = useState(false);
  const id = useId();

  useEffect(() => {
    const controller = new AbortController();
    fetch(SITE_PAGES_PATH, { signal: controller.signal, headers: { Accept: "application/json" } })
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        setPages(((await response.json()) as { pages: SitePage[] }).pages);
      })
      .catch(() => {
        if (!controller.signal.aborted) setPagesFailed(true);
      });
    return () => controller.abort();
  }, []);

  const apply = () => {
    const trimmed = address.trim();
    if (!isLinkAddress(trimmed)) setError(LINK_ADDRESS_MESSAGE);
    else onApply(trimmed);
  };
  const wanted = filter.trim().toLocaleLowerCase("fr");
  const shown = (pages ?? []).filter(
    (page) =>
      wanted === "" ||
      page.label.toLocaleLowerCase("fr").includes(wanted) ||
      page.path.includes(wanted),
  );

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      title={editing ? "Modifier le lien" : "Ajouter un lien"}
      description="Une page du site, une adresse web ou un e-mail. Les liens vers d'autres sites s'ouvrent dans un nouvel onglet."
    >
      {/* Not a <form>: the dialog is rendered inside the article form's React tree. */}
      <div className="space-y-4">
        <div className="space-y-1.5">
          <label htmlFor={`${id}-adresse`} className="block text-sm font-medium">
            Adresse du lien
          </label>
          <Input
            id={`${id}-adresse`}
            value={address}
            placeholder="/tarifs ou https://…"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-erreur` : undefined}
            onChange={(event) => {
              setAddress(event.target.value);
              setError(null);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                apply();
              }
            }}
          />
          {error ? (
            <p id={`${id}-erreur`} className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
        </div>
        <div className="space-y-1.5">
          <label htmlFor={`${id}-pages`} className="block text-sm font-medium">
            Ou choisissez une page du site
          </label>
          <Input
            id={`${id}-pages`}
            type="search"
            value={filter}
            placeholder="Rechercher une page"
            onChange={(event) => setFilter(event.target.value)}
          />
          {pagesFailed ? (
            <p className="text-sm text-destructive">
              La liste des pages n'a pas pu être chargée : saisissez l'adresse ci-dessus.
            </p>
          ) : pages === null ? (
            <p className="text-sm text-muted-foreground">Chargement des pages…</p>
          ) : (
            <ul
              aria-label="Pages du site"
              className="max-h-56 space-y-0.5 overflow-y-auto rounded-md border border-border p-1"
            >
              {shown.map((page) => (
                <li key={page.path}>
                  <button
                    type="button"
                    aria-pressed={address.trim() === page.path}
                    onClick={() => {
                      setAddress(page.path);
                      setError(null);
                    }}
                    className="flex min-h-11 w-full items-center justify-between gap-3 rounded px-2 py-1 text-left text-sm hover:bg-muted focus-visible:outline-2 aria-pressed:bg-stone-900 aria-pressed:text-white"
                  >
                    <span className="truncate">{page.label}</span>
                    <span className="shrink-0 text-xs opacity-75">{page.group}</span>
                  </button>
                </li>
              ))}
              {shown.length === 0 ? (
                <li className="px-2 py-1 text-sm text-muted-foreground">Aucune page trouvée.</li>
              ) : null}
            </ul>
          )}
        </div>
        <div className="flex flex-wrap justify-end gap-3">
          {editing ? (
            <Button type="button" variant="outline" onClick={onRemove}>
              Retirer le lien
            </Button>
          ) : null}
          <Button type="button" variant="ghost" onClick={onCancel}>
            Annuler
          </Button>
          <Button type="button" onClick={apply}>
            Appliquer le lien
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
