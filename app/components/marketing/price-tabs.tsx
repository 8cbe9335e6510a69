import { useRef, type KeyboardEvent } from "react";
import { Link, useNavigate } from "react-router";
import type { Prices } from "~/content/schemas";
import { useHydrated } from "~/lib/use-hydrated";
import { cn } from "~/lib/utils";
import { PriceCard, type ShownPriceCard } from "./price-card";

type PriceTab = Omit<Prices["tabs"][number], "cards"> & { cards: ShownPriceCard[] };

const tabHref = (id: PriceTab["id"]) => (id === "pro" ? "?onglet=pro" : "?onglet=particuliers");

/**
 * The tabs of the prices page (WAI-ARIA tabs pattern). The chosen tab lives in the URL (`?onglet=pro`), so
 * it survives a reload and each tab is a real link that works without JavaScript; once the page is
 * interactive, the arrow keys move between tabs and only the chosen tab is in the Tab order. On a light page
 * (decision 0090, no React) the plain script of app/light-script.ts does the same on this markup.
 */
export function PriceTabs({ tabs, selected }: { tabs: PriceTab[]; selected: PriceTab["id"] }) {
  const navigate = useNavigate();
  const tabRefs = useRef(new Map<PriceTab["id"], HTMLAnchorElement>());
  const interactive = useHydrated();

  function select(id: PriceTab["id"]) {
    void navigate(tabHref(id), { replace: true, preventScrollReset: true });
    tabRefs.current.get(id)?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLAnchorElement>) {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const target = {
      ArrowRight: tabs[(index + 1) % tabs.length],
      ArrowLeft: tabs[(index - 1 + tabs.length) % tabs.length],
      Home: tabs[0],
      End: tabs[tabs.length - 1],
    }[event.key];
    if (!target) return;
    event.preventDefault();
    select(target.id);
  }

  return (
    <div>
      <div
        role="tablist"
        aria-label="Catégories de tarifs"
        className="mx-auto flex w-fit max-w-full rounded-full bg-muted p-1"
      >
        {tabs.map((tab) => {
          const isSelected = tab.id === selected;
          return (
            <Link
              key={tab.id}
              ref={(element) => {
                if (element) tabRefs.current.set(tab.id, element);
                else tabRefs.current.delete(tab.id);
              }}
              to={tabHref(tab.id)}
              replace
              preventScrollReset
              role="tab"
              onKeyDown={onKeyDown}
              id={`onglet-${tab.id}`}
              aria-selected={isSelected}
              aria-controls={`panneau-${tab.id}`}
              tabIndex={interactive && !isSelected ? -1 : 0}
              // Styled by aria-selected, which the light page's script sets too (decision 0090).
              className="inline-flex min-h-11 items-center rounded-full px-5 text-sm font-semibold text-foreground transition-colors hover:bg-white aria-selected:bg-primary aria-selected:text-primary-foreground aria-selected:shadow sm:px-8"
            >
              {tab.label}
            </Link>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`panneau-${tab.id}`}
          aria-labelledby={`onglet-${tab.id}`}
          hidden={tab.id !== selected}
          className="mt-12"
        >
          <h2 className="sr-only">{tab.label}</h2>
          <ul
            className={cn(
              "grid gap-8 sm:grid-cols-2",
              tab.cards.length > 2 ? "lg:grid-cols-3" : "mx-auto max-w-4xl",
            )}
          >
            {tab.cards.map((card) => (
              <li key={`${card.title}-${card.link}`} className="flex flex-col [&>article]:flex-1">
                <PriceCard card={card} />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
