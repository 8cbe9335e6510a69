import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import type { Gendarmerie } from "~/content/schemas";
import { formatPrice } from "~/lib/prices";
import { cn } from "~/lib/utils";
import { FeatureList } from "./feature-list";

/** A gendarmerie package: discounted price next to the original one; the highlighted one stands out. */
export function PackageCard({
  offer,
  contactPath,
}: {
  offer: Gendarmerie["packages"][number];
  contactPath: string;
}) {
  return (
    <article
      className={cn(
        "relative flex h-full flex-col rounded-2xl border p-6 shadow-sm",
        offer.highlighted
          ? "border-gold-dark bg-stone-900 text-white ring-2 ring-gold lg:-my-4 lg:py-10"
          : "border-border bg-white",
      )}
    >
      {offer.highlighted ? (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-gold px-3 py-1 text-xs font-semibold whitespace-nowrap text-primary">
          Formule recommandée
        </p>
      ) : null}
      <Icon
        name={offer.icon}
        className={cn("size-8", offer.highlighted ? "text-gold" : "text-gold-dark")}
      />
      <h3 className="mt-4 text-2xl font-semibold">{offer.title}</h3>
      <p
        className={cn("text-sm font-semibold", offer.highlighted ? "text-gold" : "text-gold-dark")}
      >
        {offer.subtitle}
      </p>
      <p className="mt-4 flex flex-wrap items-baseline gap-x-3">
        <span className="text-3xl font-bold">{formatPrice(offer.discountPrice)}</span>
        <span
          className={cn("text-sm", offer.highlighted ? "text-stone-300" : "text-muted-foreground")}
        >
          au lieu de <del>{formatPrice(offer.originalPrice)}</del>
        </span>
      </p>
      <p
        className={cn(
          "mt-3 text-sm",
          offer.highlighted ? "text-stone-200" : "text-muted-foreground",
        )}
      >
        {offer.description}
      </p>
      <FeatureList features={offer.features} className="mt-4 flex-1" />
      <Button asChild variant={offer.highlighted ? "gold" : "default"} className="mt-6">
        <Link to={contactPath}>Choisir la {offer.title.toLowerCase()}</Link>
      </Button>
    </article>
  );
}
