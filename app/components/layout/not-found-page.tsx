import { useEffect } from "react";
import { Link, useLocation } from "react-router";

/** The page of an address that leads nowhere (SPEC §2). */
export function NotFoundPage() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", pathname);
  }, [pathname]);

  return (
    <section className="flex min-h-[70vh] flex-col items-center justify-center px-6 pt-24 pb-16 text-center">
      <h1 className="text-6xl font-bold">404</h1>
      <p className="mt-4 text-xl text-muted-foreground">Page introuvable</p>
      <p className="mt-2 text-muted-foreground">Cette page n'existe pas ou n'existe plus.</p>
      <Link
        to="/"
        className="mt-8 rounded-full bg-primary px-6 py-3 font-semibold text-primary-foreground hover:bg-stone-700"
      >
        Retour à l'accueil
      </Link>
    </section>
  );
}

export const notFoundMeta = [{ title: "Page introuvable" }, { name: "robots", content: "noindex" }];
