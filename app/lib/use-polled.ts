import { useEffect, useState } from "react";

/** How often a page asks for the state of long work under way (photos prepared, a newsletter sent). */
export const POLL_INTERVAL_MS = 2_000;

/**
 * The latest state of long work that a page shows: its loader's value, then what `url` answers (JSON) every
 * 2 s for as long as `underWay` says the work goes on, and only while the tab is in view (a tab left in the
 * background asks nothing). New loader data replaces what was polled. Without JavaScript the page shows its
 * loader's value.
 */
export function usePolled<T>(initial: T, url: string, underWay: (live: T) => boolean): T {
  // The last value polled, for the loader data it followed.
  const [polled, setPolled] = useState<{ base: T; value: T } | null>(null);
  const live = polled?.base === initial ? polled.value : initial;
  const active = underWay(live);

  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    const timer = window.setInterval(() => {
      if (document.visibilityState === "hidden") return;
      void fetch(url, { signal: controller.signal, headers: { Accept: "application/json" } })
        .then(async (response) => {
          if (response.ok) setPolled({ base: initial, value: (await response.json()) as T });
        })
        // A network hiccup (or leaving the page): the next tick tries again.
        .catch(() => undefined);
    }, POLL_INTERVAL_MS);
    return () => {
      window.clearInterval(timer);
      controller.abort();
    };
  }, [active, url, initial]);

  return live;
}
