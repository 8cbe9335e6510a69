import { type RefObject, useEffect } from "react";

/**
 * After hydration, paints each tile's thumbhash (`data-thumbhash`, ~28 bytes) as its background while the
 * photo loads: decoded only for tiles coming into view, set through CSSOM (`style.backgroundImage`), which
 * a strict CSP allows where a `style=` attribute in the server HTML would not be. Without JavaScript the
 * tile keeps its neutral colour.
 */
export function useThumbhashPlaceholders(container: RefObject<HTMLElement | null>, key: string) {
  useEffect(() => {
    const root = container.current;
    if (!root || typeof IntersectionObserver === "undefined") return;
    let cancelled = false;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer.unobserve(entry.target);
          void paint(entry.target as HTMLElement);
        }
      },
      { rootMargin: "200px" },
    );
    async function paint(element: HTMLElement) {
      const hash = element.dataset.thumbhash;
      if (!hash || element.style.backgroundImage) return;
      const { thumbHashToDataURL } = await import("thumbhash");
      if (cancelled) return;
      try {
        const bytes = Uint8Array.from(atob(hash), (character) => character.charCodeAt(0));
        element.style.backgroundImage = `url(${thumbHashToDataURL(bytes)})`;
      } catch {
        // A damaged placeholder: the neutral colour stays.
      }
    }
    for (const element of root.querySelectorAll<HTMLElement>("[data-thumbhash]")) {
      observer.observe(element);
    }
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [container, key]);
}
