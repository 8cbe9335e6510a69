/** The client gallery's buttons and links (components/gallery/client-*.tsx). */

// The focus ring must show on a white photo as on a black one: a dark outline with a white line inside it.
export const tileLinkClass =
  "relative block h-full w-full focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-stone-900 after:pointer-events-none after:absolute after:inset-[3px] after:hidden after:border-2 after:border-white after:content-[''] focus-visible:after:block";

export const buttonClass =
  "inline-flex min-h-11 items-center gap-2 rounded-md border border-stone-300 bg-white px-4 py-2 font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60";

// The filter in use stands out (dark), not only for a screen reader (aria-current).
export const filterClass = `${buttonClass} aria-[current=page]:border-stone-900 aria-[current=page]:bg-stone-900 aria-[current=page]:text-white aria-[current=page]:hover:bg-stone-800`;
