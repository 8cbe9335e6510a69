import { createElement, type ReactNode, type SVGProps } from "react";

type IconData = {
  name?: string;
  size?: number;
  aliases?: string[];
  node: Array<[string, Record<string, string>]>;
};

type IconProps = SVGProps<SVGSVGElement> & {
  size?: number | string;
  absoluteStrokeWidth?: boolean;
  nonScalingStroke?: boolean;
  children?: ReactNode;
};

const isLabel = (name: string) => name.startsWith("aria-") || name === "role" || name === "title";

/**
 * What each of lucide-react's icon modules calls to make its component (the build points
 * `lucide-react/dist/esm/createLucideIcon.mjs` here, vite.config.ts): the same `<svg>` as lucide's own
 * runtime, without its context, string conversions and generic attribute builder (about 1 KB on every
 * page). An icon without a label is hidden from assistive technologies. Decision 0094.
 */
export default function createLucideIcon(icon: IconData) {
  const box = icon.size ?? 24;
  const ownClasses = ["lucide", icon.name && `lucide-${icon.name}`];
  for (const alias of icon.aliases ?? []) ownClasses.push(`lucide-${alias}`);
  return function LucideIcon({
    className,
    children,
    color = "currentColor",
    size = 24,
    strokeWidth = 2,
    absoluteStrokeWidth,
    nonScalingStroke,
    ...rest
  }: IconProps) {
    const classes = new Set(ownClasses.concat(className?.split(/\s+/)).filter(Boolean));
    const labelled =
      Boolean(children) ||
      Object.entries(rest).some(([name, value]) => isLabel(name) && value != null);
    return createElement(
      "svg",
      {
        xmlns: "http://www.w3.org/2000/svg",
        width: size,
        height: size,
        viewBox: `0 0 ${box} ${box}`,
        fill: "none",
        stroke: color,
        strokeWidth: absoluteStrokeWidth ? (Number(strokeWidth) * box) / Number(size) : strokeWidth,
        strokeLinecap: "round",
        strokeLinejoin: "round",
        className: [...classes].join(" "),
        ...(labelled ? {} : { "aria-hidden": "true" }),
        ...rest,
      },
      ...icon.node.map(([tag, attributes]) =>
        createElement(
          tag,
          nonScalingStroke ? { vectorEffect: "non-scaling-stroke", ...attributes } : attributes,
        ),
      ),
      children,
    );
  };
}
