import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "~/lib/utils";
import { Slot } from "./slot";

export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 rounded-full font-semibold whitespace-nowrap transition-colors disabled:pointer-events-none disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: "bg-primary text-primary-foreground hover:bg-stone-700",
        gold: "bg-gold text-primary hover:bg-amber-300",
        outline: "border border-current bg-transparent hover:bg-black/5",
        light: "bg-white text-foreground hover:bg-stone-100",
        ghost: "hover:bg-muted",
        destructive: "bg-destructive text-white hover:bg-red-800",
        "ghost-destructive": "text-destructive hover:bg-red-50",
      },
      size: {
        default: "h-11 px-6 text-sm",
        sm: "h-9 px-4 text-sm",
        lg: "h-13 px-8 text-base",
        // lg at the height of the 48 px text field beside it (the newsletter).
        "lg-field": "h-12 px-8 text-base",
        icon: "size-11",
      },
    },
    defaultVariants: { variant: "default", size: "default" },
  },
);

type ButtonProps = ComponentProps<"button"> &
  VariantProps<typeof buttonVariants> & {
    /** Render the child element (a Link, an <a>) with the button's look. */
    asChild?: boolean;
  };

export function Button({ className, variant, size, asChild = false, ...props }: ButtonProps) {
  const Component = asChild ? Slot : "button";
  return <Component className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
