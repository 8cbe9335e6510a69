import { isRouteErrorResponse, Link, type MetaDescriptor } from "react-router";
import { PageErrorBoundary } from "~/components/error-boundary";
import { Button } from "~/components/ui/button";
import { NO_INDEX } from "./booking-layout";

/** The booking pages' error page: a French 404 for any address that names nothing bookable. */
export function BookingErrorBoundary({ error }: { error: unknown }) {
  return (
    <PageErrorBoundary
      error={error}
      notFound={{
        title: "Page introuvable",
        description:
          "Cette réservation, ce studio ou cette séance n'existe pas, ou n'est pas réservable en ligne.",
      }}
      failure="La page n'a pas pu être affichée. Veuillez réessayer ou appeler le studio."
      action={
        <Button asChild>
          <Link to="/contact">Nous contacter</Link>
        </Button>
      }
    />
  );
}

/**
 * The booking pages' head when their address names nothing bookable (or failed): the site's « Page
 * introuvable » (« Erreur » otherwise), kept out of the index — never the bookable page's title,
 * description, canonical address or link preview, which a search engine or a shared link's preview would
 * read on the 404 (booking turned off, an unknown studio or session).
 */
export function bookingErrorMeta(error: unknown): MetaDescriptor[] {
  const notFound = isRouteErrorResponse(error) ? error.status === 404 : !error;
  return [{ title: notFound ? "Page introuvable" : "Erreur" }, NO_INDEX];
}
