import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import type { PriceCard as PriceCardData } from "~/content/schemas";
import { cn } from "~/lib/utils";
import { FeatureList } from "./feature-list";
import { PriceTag } from "./price-tag";

/** A card as the prices page shows it: with where its « Réserver » leads, when it can be booked online. */
export type ShownPriceCard = PriceCardData & { bookingPath?: string | null };

/**
 * A card of the prices page: title, badge, price, what is included, « Réserver » when its session can be
 * booked on the site (decision 0127), and 'En savoir plus'.
 */
export function PriceCard({ card }: { card: ShownPriceCard }) {
  return (
    <article
      className={cn(
        "relative flex flex-col rounded-2xl border bg-white p-6 shadow-sm",
        card.badge ? "border-gold-dark ring-1 ring-gold-dark" : "border-border",
      )}
    >
      {card.badge ? (
        <p className="absolute -top-3 right-6 rounded-full bg-gold-dark px-3 py-1 text-xs font-semibold text-white">
          {card.badge}
        </p>
      ) : null}
      <Icon name={card.icon} className="size-8 text-gold-dark" />
      <h3 className="mt-4 text-xl font-semibold">{card.title}</h3>
      <PriceTag price={card.price} className="mt-2" />
      <FeatureList features={card.features} className="mt-4 flex-1" />
      {card.bookingPath ? (
        <Button asChild variant="gold" className="mt-4">
          <Link to={card.bookingPath}>
            Réserver<span className="sr-only"> : {card.title}</span>
          </Link>
        </Button>
      ) : null}
      <Link
        to={card.link}
        className="mt-4 inline-flex min-h-11 items-center text-sm font-semibold text-gold-dark underline-offset-4 hover:underline"
      >
        En savoir plus<span className="sr-only"> : {card.title}</span>
      </Link>
    </article>
  );
}
