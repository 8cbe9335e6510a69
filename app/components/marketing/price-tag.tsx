import { formatPrice, type Price } from "~/lib/prices";
import { cn } from "~/lib/utils";

/** A price in French style, e.g. « à partir de 990 € ». */
export function PriceTag({
  price,
  unit,
  className,
}: {
  price: Price;
  unit?: string;
  className?: string;
}) {
  return (
    <p className={cn("text-2xl font-bold text-foreground", className)}>
      {formatPrice(price)}
      {unit ? <span className="text-base font-normal text-muted-foreground"> {unit}</span> : null}
    </p>
  );
}
