import { Form, NavLink, Outlet } from "react-router";
import { LogOut } from "lucide-react";
import type { Route } from "./+types/layout";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { cn } from "~/lib/utils";

export { loader, middleware } from "./layout.server";

export const meta: Route.MetaFunction = () => [{ name: "robots", content: "noindex, nofollow" }];

const links = [
  { to: "/admin/dashboard", label: "Tableau de bord" },
  { to: "/admin/site", label: "Site" },
  { to: "/admin/reservations", label: "Réservations" },
  { to: "/admin/studios", label: "Studios" },
  { to: "/admin/tarifs", label: "Tarifs" },
  { to: "/admin/ventes", label: "Ventes" },
  { to: "/admin/bons-cadeaux", label: "Bons cadeaux" },
  { to: "/admin/factures", label: "Factures" },
  { to: "/admin/comptabilite", label: "Comptabilité" },
  { to: "/admin/reglages/paiement", label: "Paiements" },
  { to: "/admin/medias", label: "Photos" },
  { to: "/admin/galeries", label: "Galeries clients" },
  { to: "/admin/redirections", label: "Redirections" },
  { to: "/admin/categories", label: "Catégories" },
  { to: "/admin/newsletter", label: "Newsletter" },
  { to: "/admin/subscribers", label: "Abonnés" },
  { to: "/admin/messages", label: "Messages" },
  { to: "/admin/administrateurs", label: "Administrateurs" },
  { to: "/admin/securite", label: "Sécurité" },
  { to: "/admin/sauvegardes", label: "Sauvegardes" },
  { to: "/admin/aide", label: "Aide" },
];

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  useServerToast(loaderData.toast);
  return (
    <div className="min-h-dvh bg-muted">
      <a
        href="#contenu"
        className="sr-only z-[60] rounded-md bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Aller au contenu
      </a>
      <header className="border-b border-border bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3">
          <p className="font-serif text-lg font-bold">
            {loaderData.brand}{" "}
            <span className="font-sans text-sm font-normal text-muted-foreground">
              · Administration
            </span>
          </p>
          <nav aria-label="Administration" className="order-last w-full sm:order-none sm:w-auto">
            <ul className="flex flex-wrap gap-1">
              {links.map((link) => (
                <li key={link.to}>
                  <NavLink
                    to={link.to}
                    className={({ isActive }) =>
                      cn(
                        "block rounded-md px-3 py-1.5 text-sm hover:bg-muted",
                        isActive && "bg-muted font-semibold",
                      )
                    }
                  >
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="ml-auto flex items-center gap-2">
            <a href="/" className="text-sm underline-offset-4 hover:underline">
              Voir le site
            </a>
            <Form method="post" action="/admin/logout">
              <Button type="submit" variant="outline" size="sm">
                <LogOut aria-hidden="true" />
                Déconnexion
              </Button>
            </Form>
          </div>
        </div>
      </header>
      <main id="contenu" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-8 outline-none">
        <Outlet />
      </main>
    </div>
  );
}
