import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names. It does not settle Tailwind conflicts (tailwind-merge would cost every page ~9 KB):
 * a component's `className` places it in the layout (margins, width, position); a different look is one
 * of its variants or props, never a class that fights its own.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
