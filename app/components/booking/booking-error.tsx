import { Link } from "react-router";
import { PageErrorBoundary } from "~/components/error-boundary";
import { Button } from "~/components/ui/button";

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
