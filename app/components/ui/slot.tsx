import { Children, cloneElement, isValidElement, type ReactNode, type Ref } from "react";
import { cn } from "~/lib/utils";

type SlotProps = Record<string, unknown> & { children?: ReactNode; className?: string };

function composeRefs<T>(...refs: Array<Ref<T> | undefined>): Ref<T> {
  return (node: T | null) => {
    for (const ref of refs) {
      if (typeof ref === "function") ref(node);
      else if (ref) ref.current = node;
    }
  };
}

/**
 * Renders its only child with its own props merged in (`Button asChild` around a Link): classes joined,
 * the child's event handlers run before the slot's, refs and styles combined. Radix's Slot does the same
 * for about 1 KB more on every page (decision 0094).
 */
export function Slot({ children, ...slotProps }: SlotProps) {
  const child = Children.only(children);
  if (!isValidElement<Record<string, unknown>>(child)) return null;
  const childProps = child.props;
  const merged: Record<string, unknown> = { ...slotProps, ...childProps };
  for (const [name, slotValue] of Object.entries(slotProps)) {
    const childValue = childProps[name];
    if (
      /^on[A-Z]/.test(name) &&
      typeof slotValue === "function" &&
      typeof childValue === "function"
    ) {
      merged[name] = (...args: unknown[]) => {
        childValue(...args);
        slotValue(...args);
      };
    } else if (name === "style" && childValue) {
      merged.style = { ...(slotValue as object), ...(childValue as object) };
    } else if (name === "ref" && childValue) {
      merged.ref = composeRefs(slotValue as Ref<unknown>, childValue as Ref<unknown>);
    }
  }
  merged.className = cn(slotProps.className, childProps.className as string | undefined);
  return cloneElement(child, merged);
}
