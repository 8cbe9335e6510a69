import { Link } from "react-router";
import { Logo } from "./logo";
import { SocialIcon } from "./social-icons";
import { footerLinks } from "~/content/navigation";
import { telHref, useSite } from "~/lib/public-site";
import { VOUCHERS_PATH } from "~/lib/vouchers/order-page";

export function Footer() {
  const site = useSite();
  return (
    <footer className="bg-primary text-primary-foreground">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-4">
        <div>
          <Logo brand={site.brand} />
          <p className="mt-4 text-sm text-stone-300">
            Studio photo, {site.experience}, label {site.label}.
          </p>
          <ul className="mt-6 flex gap-3" aria-label="Réseaux sociaux">
            {site.social.map(({ name, href }) => (
              <li key={name}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex size-11 items-center justify-center rounded-full border border-stone-600 transition-colors hover:border-gold hover:text-gold"
                >
                  <SocialIcon name={name} className="size-5" />
                  <span className="sr-only">{name} (nouvel onglet)</span>
                </a>
              </li>
            ))}
          </ul>
        </div>

        <nav aria-label="Liens du pied de page">
          <h2 className="font-sans text-sm font-semibold tracking-wide text-gold uppercase">
            Le studio
          </h2>
          <ul className="mt-3 space-y-1 text-sm">
            {(site.vouchersOnSale
              ? [
                  ...footerLinks.slice(0, 4),
                  { label: "Bons cadeaux", to: VOUCHERS_PATH },
                  ...footerLinks.slice(4),
                ]
              : footerLinks
            ).map(({ label, to }) => (
              <li key={to}>
                <Link
                  to={to}
                  className="inline-block py-1 text-stone-300 hover:text-white hover:underline"
                >
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div className="lg:col-span-2">
          <h2 className="font-sans text-sm font-semibold tracking-wide text-gold uppercase">
            Nos studios
          </h2>
          <ul className="mt-4 grid gap-6 text-sm sm:grid-cols-3 md:grid-cols-1 lg:grid-cols-3">
            {site.studios.map((studio) => (
              <li key={studio.slug}>
                <Link
                  to={studio.pagePath}
                  className="inline-block py-1 font-semibold hover:underline"
                >
                  {studio.name}
                </Link>
                <address className="text-stone-300 not-italic">
                  {studio.address.street}
                  <br />
                  {studio.address.postalCode} {studio.address.city}
                  <br />
                  <a
                    href={telHref(studio.phone)}
                    className="inline-flex min-h-11 items-center hover:text-white hover:underline"
                  >
                    {studio.phone}
                  </a>
                </address>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <p className="border-t border-stone-800 py-6 text-center text-xs text-stone-400">
        © {new Date().getFullYear()} {site.brand}. Tous droits réservés.
      </p>
    </footer>
  );
}
