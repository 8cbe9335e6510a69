import { ArrowDown, ArrowUp } from "lucide-react";
import { Button } from "~/components/ui/button";

/**
 * « Monter » / « Descendre » one item of an ordered list (studios, a gallery's photos): two submit buttons
 * with `intent` up / down, inside the caller's form that carries the item's id. Disabled at either end.
 */
export function MoveButtons({
  name,
  index,
  count,
}: {
  /** The item as the owner reads it, in the buttons' accessible names. */
  name: string;
  index: number;
  count: number;
}) {
  return (
    <>
      <Button
        type="submit"
        name="intent"
        value="up"
        variant="ghost"
        size="icon"
        disabled={index === 0}
        aria-label={`Monter « ${name} »`}
      >
        <ArrowUp aria-hidden="true" />
      </Button>
      <Button
        type="submit"
        name="intent"
        value="down"
        variant="ghost"
        size="icon"
        disabled={index === count - 1}
        aria-label={`Descendre « ${name} »`}
      >
        <ArrowDown aria-hidden="true" />
      </Button>
    </>
  );
}
