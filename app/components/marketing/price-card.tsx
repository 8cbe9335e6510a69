import { Link } from "react-router";
import { Icon } from "~/components/ui/icon";
import type { PriceCard as PriceCardData } from "~/content/schemas";
import { cn } from "~/lib/utils";
import { FeatureList } from "./feature-list";
import { PriceTag } from "./price-tag";

/** A card of the prices page: title, badge, price, what is included and 'En savoir plus'. */
export function PriceCard({ card }: { card: PriceCardData }) {
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
      <Link
        to={card.link}
        className="mt-4 inline-flex min-h-11 items-center text-sm font-semibold text-gold-dark underline-offset-4 hover:underline"
      >
        En savoir plus<span className="sr-only"> : {card.title}</span>
      </Link>
    </article>
  );
}
