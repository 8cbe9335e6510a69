import type { VariantProps } from "class-variance-authority";
import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { buttonVariants } from "./button";

type Variant = NonNullable<VariantProps<typeof buttonVariants>["variant"]>;
type Size = NonNullable<VariantProps<typeof buttonVariants>["size"]>;

// `satisfies` keeps these lists complete when a variant or a size is added.
const variants = Object.keys({
  default: true,
  gold: true,
  outline: true,
  light: true,
  ghost: true,
  destructive: true,
  "ghost-destructive": true,
} satisfies Record<Variant, true>) as Variant[];
const sizes = Object.keys({
  default: true,
  sm: true,
  lg: true,
  "lg-field": true,
  icon: true,
} satisfies Record<Size, true>) as Size[];

describe("buttonVariants", () => {
  // cn() only joins classes: two classes setting the same property would leave the result to CSS order.
  it.each(variants.flatMap((variant) => sizes.map((size) => [variant, size] as const)))(
    "%s × %s adds to the base classes without overriding any",
    (variant, size) => {
      const classes = buttonVariants({ variant, size });
      expect(twMerge(classes)).toBe(classes);
    },
  );
});
