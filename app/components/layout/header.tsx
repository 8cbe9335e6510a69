import { ChevronDown, Menu, X } from "lucide-react";
import { NavigationMenu } from "radix-ui";
import { useEffect, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { Logo } from "./logo";
import { headerLinks, type NavLinkItem } from "~/content/navigation";
import { cn } from "~/lib/utils";

/** SPEC §9: past this many pixels of scroll the header becomes solid. */
export const SCROLL_THRESHOLD = 50;

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

  return (
    <header
      data-scrolled={scrolled ? "true" : "false"}
      className={cn(
        "fixed inset-x-0 top-0 z-50 transition-[background-color,box-shadow,color] duration-300",
        transparent
          ? "bg-transparent text-white"
          : "bg-white/85 text-foreground shadow-md backdrop-blur-md",
      )}
    >
      <div className="mx-auto flex h-18 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" className="rounded-sm">
          <Logo />
          <span className="sr-only"> – accueil</span>
        </Link>

        <DesktopNavigation transparent={transparent} />

        <button
          type="button"
          className="inline-flex size-11 items-center justify-center rounded-md lg:hidden"
          aria-expanded={menuOpen}
          aria-controls="menu-mobile"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {menuOpen ? (
            <X aria-hidden="true" className="size-6" />
          ) : (
            <Menu aria-hidden="true" className="size-6" />
          )}
          <span className="sr-only">{menuOpen ? "Fermer le menu" : "Ouvrir le menu"}</span>
        </button>
      </div>

      {menuOpen ? <MobileNavigation onNavigate={() => setMenuOpen(false)} /> : null}
    </header>
  );
}

/** Whether a header link is the current page's ('/' only on the home page, others by section). */
export function isCurrent(to: string, pathname: string): boolean {
  return to === "/" ? pathname === "/" : pathname === to || pathname.startsWith(`${to}/`);
}

function DesktopNavigation({ transparent }: { transparent: boolean }) {
  const { pathname } = useLocation();
  // Radix's Slot cannot merge NavLink's function className, so the active state is computed here.
  const item = ({ label, to }: NavLinkItem) => {
    const active = isCurrent(to, pathname);
    return (
      <NavigationMenu.Item key={to}>
        <NavigationMenu.Link asChild active={active}>
          <Link
            to={to}
            aria-current={active ? "page" : undefined}
            className={cn(
              "rounded-sm px-3 py-2 text-sm font-medium transition-colors",
              active && "underline decoration-2 underline-offset-8",
              transparent
                ? active
                  ? "text-gold"
                  : "text-white hover:text-gold"
                : active
                  ? "text-gold-dark"
                  : "text-foreground hover:text-gold-dark",
            )}
          >
            {label}
          </Link>
        </NavigationMenu.Link>
      </NavigationMenu.Item>
    );
  };

  return (
    <NavigationMenu.Root
      aria-label="Navigation principale"
      delayDuration={100}
      className="hidden lg:block"
    >
      <NavigationMenu.List className="flex items-center gap-1">
        {headerLinks.beforeStudios.map(item)}
        <NavigationMenu.Item className="relative">
          <NavigationMenu.Trigger
            className={cn(
              "group inline-flex items-center gap-1 rounded-sm px-3 py-2 text-sm font-medium transition-colors",
              transparent ? "text-white hover:text-gold" : "text-foreground hover:text-gold-dark",
            )}
          >
            Studios
            <ChevronDown
              aria-hidden="true"
              className="size-4 transition-transform group-data-[state=open]:rotate-180"
            />
          </NavigationMenu.Trigger>
          <NavigationMenu.Content className="absolute top-full left-0 mt-2 w-56 rounded-lg border border-border bg-white p-2 text-foreground shadow-lg">
            <ul>
              {headerLinks.studios.map(({ label, to }) => (
                <li key={to}>
                  <NavigationMenu.Link asChild active={pathname === to}>
                    <Link
                      to={to}
                      aria-current={pathname === to ? "page" : undefined}
                      className={cn(
                        "block rounded-md px-3 py-2 text-sm hover:bg-muted",
                        pathname === to && "font-semibold text-gold-dark",
                      )}
                    >
                      {label}
                    </Link>
                  </NavigationMenu.Link>
                </li>
              ))}
            </ul>
          </NavigationMenu.Content>
        </NavigationMenu.Item>
        {headerLinks.afterStudios.map(item)}
        <NavigationMenu.Item>
          <NavigationMenu.Link asChild>
            <Link
              to="/contact"
              className="ml-3 inline-flex items-center rounded-full bg-gold px-5 py-2 text-sm font-semibold text-primary shadow-sm transition-colors hover:bg-white"
            >
              Réserver
            </Link>
          </NavigationMenu.Link>
        </NavigationMenu.Item>
      </NavigationMenu.List>
    </NavigationMenu.Root>
  );
}

function MobileNavigation({ onNavigate }: { onNavigate: () => void }) {
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
      className="max-h-[calc(100dvh-4.5rem)] overflow-y-auto border-t border-border bg-white px-4 pb-6 text-foreground lg:hidden"
    >
      <ul className="flex flex-col py-2">
        {links(headerLinks.beforeStudios)}
        <li className="px-3 pt-3 pb-1 text-sm font-semibold tracking-wide text-muted-foreground uppercase">
          Studios
        </li>
        {links(headerLinks.studios, true)}
        {links(headerLinks.afterStudios)}
      </ul>
      <Link
        to="/contact"
        onClick={onNavigate}
        className="mt-2 flex justify-center rounded-full bg-primary px-5 py-3 font-semibold text-primary-foreground"
      >
        Réserver
      </Link>
    </nav>
  );
}
