import { ChevronDown, Menu, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { Logo } from "./logo";
import { headerLinks, type NavLinkItem } from "~/content/navigation";
import { reserveHref, useSite } from "~/lib/public-site";
import { SCROLL_THRESHOLD } from "~/light-script";
import { cn } from "~/lib/utils";

/** The studios' pages, in the owner's order: the « Studios » menu. */
function useStudioLinks(): NavLinkItem[] {
  return useSite().studios.map((studio) => ({ label: studio.name, to: studio.pagePath }));
}

function useScrolledPast(threshold: number): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, [threshold]);
  return scrolled;
}

type HeaderProps = {
  /** Pages without a dark hero photo under the header start with the solid header. */
  solid?: boolean;
};

export function Header({ solid = false }: HeaderProps) {
  const scrolled = useScrolledPast(SCROLL_THRESHOLD);
  const { pathname } = useLocation();
  // The menu is open for the page it was opened on: any navigation (link, back button) closes it.
  const [menuOpenedOn, setMenuOpenedOn] = useState<string | null>(null);
  const menuOpen = menuOpenedOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenedOn(open ? pathname : null);
  const transparent = !solid && !scrolled && !menuOpen;
  const toggle = useRef<HTMLButtonElement>(null);

  // While the menu covers the page: Escape closes it (focus back on the toggle) and the page behind stays put.
  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpenedOn(null);
      toggle.current?.focus();
    };
    const root = document.documentElement;
    document.addEventListener("keydown", closeOnEscape);
    root.classList.add("overflow-hidden");
    return () => {
      document.removeEventListener("keydown", closeOnEscape);
      root.classList.remove("overflow-hidden");
    };
  }, [menuOpen]);

  // The state is in data attributes and ARIA, and the styles follow them by CSS: on a light page (no
  // React, decision 0090) the plain script of app/light-script.ts sets the same attributes on this markup.
  return (
    <header
      data-scrolled={scrolled ? "true" : "false"}
      data-transparent={transparent ? "true" : "false"}
      data-solid={solid ? "true" : undefined}
      className={cn(
        "group/header fixed inset-x-0 top-0 z-50 bg-white/85 text-foreground shadow-md backdrop-blur-md transition-[background-color,box-shadow,color] duration-300",
        "data-[transparent=true]:bg-transparent data-[transparent=true]:text-white data-[transparent=true]:shadow-none data-[transparent=true]:backdrop-blur-none",
      )}
    >
      <div className="mx-auto flex h-18 max-w-7xl items-center justify-between gap-2 px-4 sm:gap-4 sm:px-6">
        <Link to="/" className="inline-flex min-h-11 min-w-0 items-center rounded-sm">
          <Logo brand={useSite().brand} className="min-w-0 [&>span]:truncate" />
          <span className="sr-only"> – accueil</span>
        </Link>

        <DesktopNavigation />

        {/* On a phone, booking is one tap away, beside the menu (decision 0124). */}
        <div className="flex shrink-0 items-center gap-2 lg:hidden">
          <Link
            to={reserveHref(useSite())}
            className="inline-flex min-h-11 items-center rounded-full bg-gold px-4 text-sm font-semibold text-primary shadow-sm"
          >
            Réserver
          </Link>
          {/* Both icons and labels are in the markup; aria-expanded shows one of each. Before a script
              answers, the <details> below opens the menu by itself; this button keeps its place. */}
          <button
            ref={toggle}
            type="button"
            className="group/toggle inline-flex size-11 items-center justify-center rounded-md unscripted:invisible"
            aria-expanded={menuOpen}
            aria-controls="menu-mobile"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <X aria-hidden="true" className="size-6 group-aria-[expanded=false]/toggle:hidden" />
            <Menu aria-hidden="true" className="size-6 group-aria-expanded/toggle:hidden" />
            <span className="sr-only group-aria-[expanded=false]/toggle:hidden">
              Fermer le menu
            </span>
            <span className="sr-only group-aria-expanded/toggle:hidden">Ouvrir le menu</span>
          </button>
        </div>
      </div>

      {/* The menu works without JavaScript (decision 0124): a <details> whose summary sits where the button
          is, hidden once a script answers; then the button drives `open`. A find-in-page that opens it
          natively is followed by the state. */}
      <details
        open={menuOpen}
        onToggle={(event) => {
          if (event.currentTarget.open !== menuOpen) setMenuOpen(event.currentTarget.open);
        }}
        className="group/menu lg:hidden"
      >
        <summary className="absolute top-3.5 right-4 inline-flex size-11 cursor-pointer list-none items-center justify-center rounded-md sm:right-6 scripted:hidden [&::-webkit-details-marker]:hidden">
          <X aria-hidden="true" className="size-6 not-group-open/menu:hidden" />
          <Menu aria-hidden="true" className="size-6 group-open/menu:hidden" />
          <span className="sr-only">Menu</span>
        </summary>
        <MobileNavigation onNavigate={() => setMenuOpen(false)} />
      </details>
    </header>
  );
}

/** Whether a header link is the current page's ('/' only on the home page, others by section). */
export function isCurrent(to: string, pathname: string): boolean {
  return to === "/" ? pathname === "/" : pathname === to || pathname.startsWith(`${to}/`);
}

function DesktopNavigation() {
  const { pathname } = useLocation();
  // Colours for the solid header, and over the photo while the header is transparent.
  const linkClass = (active: boolean) =>
    cn(
      "rounded-sm px-3 py-3.5 text-sm font-medium transition-colors",
      active
        ? "text-gold-dark underline decoration-2 underline-offset-8 group-data-[transparent=true]/header:text-gold"
        : "text-foreground hover:text-gold-dark group-data-[transparent=true]/header:text-white group-data-[transparent=true]/header:hover:text-gold",
    );
  const item = ({ label, to }: NavLinkItem) => {
    const active = isCurrent(to, pathname);
    return (
      <li key={to}>
        <Link to={to} aria-current={active ? "page" : undefined} className={linkClass(active)}>
          {label}
        </Link>
      </li>
    );
  };

  return (
    // Right-aligned: drawn with its first links only, it would move 395 px as the others came (0107).
    <nav aria-label="Navigation principale" className="invisible-until-parsed hidden lg:block">
      <ul className="flex items-center gap-1">
        {headerLinks.beforeStudios.map(item)}
        <StudiosMenu />
        {headerLinks.afterStudios.map(item)}
        <li>
          <Link
            to={reserveHref(useSite())}
            className="ml-3 inline-flex min-h-11 items-center rounded-full bg-gold px-5 text-sm font-semibold text-primary shadow-sm transition-colors hover:bg-white"
          >
            Réserver
          </Link>
        </li>
      </ul>
    </nav>
  );
}

/**
 * 'Studios' as a disclosure menu: opens on mouse hover and with the keyboard (Enter or Space), Tab walks
 * its links, Escape closes it and returns to the button; leaving it or choosing a page closes it.
 */
function StudiosMenu() {
  const { pathname } = useLocation();
  // Open for the page it was opened on: a navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? pathname : null);
  const trigger = useRef<HTMLButtonElement>(null);
  const studioLinks = useStudioLinks();
  const closeOnEscape = (event: React.KeyboardEvent) => {
    if (event.key === "Escape" && open) {
      setOpen(false);
      trigger.current?.focus();
    }
  };

  return (
    <li>
      {/* Hover and focus-leaving concern the whole menu (button and list), hence the wrapper; the keyboard
          path is the button itself. */}
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions -- see above */}
      <div
        className="relative"
        onPointerEnter={(event) => event.pointerType === "mouse" && setOpen(true)}
        onPointerLeave={(event) => event.pointerType === "mouse" && setOpen(false)}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
        }}
      >
        <button
          ref={trigger}
          type="button"
          aria-expanded={open}
          aria-controls="menu-studios"
          onClick={() => setOpen(!open)}
          onKeyDown={closeOnEscape}
          className="group/studios inline-flex min-h-11 items-center gap-1 rounded-sm px-3 text-sm font-medium text-foreground transition-colors group-data-[transparent=true]/header:text-white hover:text-gold-dark group-data-[transparent=true]/header:hover:text-gold"
        >
          Studios
          <ChevronDown
            aria-hidden="true"
            className="size-4 transition-transform group-aria-expanded/studios:rotate-180"
          />
        </button>
        {/* The padding bridges the gap to the button, so the pointer never "leaves" on its way down. */}
        <div id="menu-studios" hidden={!open} className="absolute top-full left-0 w-56 pt-2">
          <ul className="rounded-lg border border-border bg-white p-2 text-foreground shadow-lg">
            {studioLinks.map(({ label, to }) => (
              <li key={to}>
                <Link
                  to={to}
                  onKeyDown={closeOnEscape}
                  aria-current={pathname === to ? "page" : undefined}
                  className={cn(
                    "flex min-h-11 items-center rounded-md px-3 text-sm hover:bg-muted",
                    pathname === to && "font-semibold text-gold-dark",
                  )}
                >
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </li>
  );
}

/** In the markup whatever its state (inside the closed <details>), for the light pages' script to open it. */
function MobileNavigation({ onNavigate }: { onNavigate: () => void }) {
  const studioLinks = useStudioLinks();
  const className = ({ isActive }: { isActive: boolean }) =>
    cn(
      "block rounded-md px-3 py-3 text-base font-medium hover:bg-muted",
      isActive && "text-gold-dark",
    );
  const links = (items: NavLinkItem[], indented = false) =>
    items.map(({ label, to }) => (
      <li key={to} className={indented ? "pl-6" : undefined}>
        <NavLink to={to} end={to === "/"} className={className} onClick={onNavigate}>
          {label}
        </NavLink>
      </li>
    ));

  return (
    <nav
      id="menu-mobile"
      aria-label="Menu principal"
      className="max-h-[calc(100dvh-4.5rem)] overflow-y-auto overscroll-contain border-t border-border bg-white px-4 pb-6 text-foreground lg:hidden"
    >
      <ul className="flex flex-col py-2">
        {links(headerLinks.beforeStudios)}
        <li className="px-3 pt-3 pb-1 text-sm font-semibold tracking-wide text-muted-foreground uppercase">
          Studios
        </li>
        {links(studioLinks, true)}
        {links(headerLinks.afterStudios)}
      </ul>
      <Link
        to={reserveHref(useSite())}
        onClick={onNavigate}
        className="mt-2 flex justify-center rounded-full bg-primary px-5 py-3 font-semibold text-primary-foreground"
      >
        Réserver
      </Link>
    </nav>
  );
}
