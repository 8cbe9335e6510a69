/**
 * The brand mark drawn discreetly bottom-right of a gallery's web sizes when the owner asks for it: the
 * studio's mark (the drawing of public/images/logo.svg and components/layout/logo.tsx; paths only, so no
 * font is needed), 18 % of the photo's width, at 45 % opacity, 2 % from the edges.
 */
export const BRAND_MARK_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
  <circle cx="32" cy="32" r="30" fill="#1c1917"/>
  <circle cx="32" cy="32" r="22" fill="none" stroke="#d6a756" stroke-width="3"/>
  <g fill="#d6a756">
    <path d="M32 12 L40 26 L24 26 Z"/>
    <path d="M52 32 L38 40 L38 24 Z"/>
    <path d="M32 52 L24 38 L40 38 Z"/>
    <path d="M12 32 L26 24 L26 40 Z"/>
  </g>
  <circle cx="32" cy="32" r="5" fill="#1c1917"/>
</svg>`;

export const WATERMARK = { widthShare: 0.18, opacity: 0.45, marginShare: 0.02 } as const;
