import { inlineScript } from "~/lib/inline-script";

/**
 * The only script of a light page (decision 0090): what the platform cannot do alone, on the same markup
 * React drives on hydrated pages (`header.tsx`, `price-tabs.tsx`, `video-placeholder.tsx`):
 * - the header's state: `data-scrolled` past the threshold (SPEC §9), `data-transparent` for its colours;
 * - the mobile menu: its toggle (aria-expanded, its label follows by CSS), Escape closes it and focuses the
 *   toggle, the page behind does not scroll;
 * - the « Studios » menu: mouse hover, Enter/Space on its button, Escape back to the button, leaving closes;
 * - the price tabs: WAI-ARIA tabs over links (`?onglet=`), arrows/Home/End, only the chosen tab in the Tab
 *   order, the URL kept in step without a reload;
 * - the click-to-load video: the player replaces the poster link on click, nothing requested before;
 * - the blog's « Copier le lien » (`data-copy-link`, hidden without a script), said in its live region;
 * - a form with `data-sending-label` (the newsletter's, the contact form's): its button says so and is
 *   disabled once it is submitted, so that a second click sends nothing twice (decision 0137);
 * - a form with `data-in-place` (the contact form's, decision 0137): sent with `fetch`, the same body as a
 *   plain post, and the answered page's own markup shown in place (see below).
 * Then `<html data-enhanced>` says the page answers (the equivalent of React's `data-hydrated`).
 *
 * It is inlined with the response's nonce: `lightScriptSource` serialises this function, so it must not
 * refer to anything outside its body (its settings come as the argument).
 */
function lightScript(scrollThreshold: number, confirmationDelay: number): void {
  const doc = document;
  const root = doc.documentElement;
  const plainClick = (event: MouseEvent) =>
    event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

  const header = doc.querySelector<HTMLElement>("header[data-scrolled]");
  const toggle = header?.querySelector<HTMLButtonElement>('[aria-controls="menu-mobile"]');
  const menu = doc.getElementById("menu-mobile");
  // The menu's <details> opens by itself without a script (decision 0124); here the button drives it.
  const details = menu?.closest("details");
  const trigger = header?.querySelector<HTMLButtonElement>('[aria-controls="menu-studios"]');
  const studios = doc.getElementById("menu-studios");
  let menuOpen = false;

  const paint = () => {
    if (!header) return;
    const scrolled = window.scrollY > scrollThreshold;
    header.dataset.scrolled = String(scrolled);
    header.dataset.transparent = String(
      !header.hasAttribute("data-solid") && !scrolled && !menuOpen,
    );
  };
  const setMenu = (open: boolean) => {
    if (!toggle || !details) return;
    menuOpen = open;
    toggle.setAttribute("aria-expanded", String(open));
    details.open = open;
    root.classList.toggle("overflow-hidden", open);
    paint();
  };
  const setStudios = (open: boolean) => {
    if (!trigger || !studios) return;
    trigger.setAttribute("aria-expanded", String(open));
    studios.hidden = !open;
  };

  window.addEventListener("scroll", paint, { passive: true });
  // The first frame is drawn with the server's attributes (those of a page at its top); the scroll position
  // is read once it is drawn: read now, at the end of the parsing, it forced a style and layout pass of
  // the whole page before the first paint (decision 0132).
  requestAnimationFrame(() => setTimeout(paint, 0));
  toggle?.addEventListener("click", () => setMenu(!menuOpen));
  details?.addEventListener("toggle", () => {
    if (details.open !== menuOpen) setMenu(details.open);
  });
  doc.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !menuOpen) return;
    setMenu(false);
    toggle?.focus();
  });

  const wrapper = trigger?.parentElement;
  if (trigger && wrapper) {
    trigger.addEventListener("click", () => setStudios(studios?.hidden === true));
    wrapper.addEventListener("pointerenter", (event) => {
      if (event.pointerType === "mouse") setStudios(true);
    });
    wrapper.addEventListener("pointerleave", (event) => {
      if (event.pointerType === "mouse") setStudios(false);
    });
    wrapper.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || studios?.hidden !== false) return;
      setStudios(false);
      trigger.focus();
    });
    wrapper.addEventListener("focusout", (event) => {
      if (!wrapper.contains(event.relatedTarget as Node | null)) setStudios(false);
    });
  }
  let sent: HTMLButtonElement | null | undefined;
  let label = "";
  doc.addEventListener("submit", (event) => {
    const form = event.target as HTMLFormElement;
    sent = form.dataset.sendingLabel ? form.querySelector("button") : null;
    if (!sent) return;
    label = sent.textContent ?? "";
    sent.textContent = form.dataset.sendingLabel ?? "";
    sent.disabled = true;
  });
  // A page kept in the back-forward cache comes back with its menus closed, as after a navigation, and
  // its form ready to be sent again.
  window.addEventListener("pagehide", () => {
    setMenu(false);
    setStudios(false);
    if (sent) {
      sent.textContent = label;
      sent.disabled = false;
    }
  });

  // The contact form sent in place (decision 0137): the server answers the page as to a plain post, and
  // the form's markup is taken from it, so its validation and messages are the only ones. The outcome
  // waits until `confirmationDelay` after the click (SPEC §9), in the form's live region. Sent: the fields
  // come back empty, unless the visitor has begun another message meanwhile. Refused (or the server
  // failed): the answer's fields, messages and summary, with what is typed now put back and the focus on
  // the first refused field. No answer: the form's own failure sentence (its <template>), nothing touched.
  for (const form of doc.querySelectorAll<HTMLFormElement>("form[data-in-place]")) {
    // The markup is the server's (`contact-form.tsx`): these elements are there.
    const find = (selector: string, within: ParentNode = form) =>
      within.querySelector(selector) as HTMLElement;
    const button = find("button") as HTMLButtonElement;
    const live = find("[role=status]");
    const typed = () => [...new FormData(form)] as string[][];
    const fields = "[data-fields]";
    // One send at a time: the document's `data-sending-label` listener (above) disables the button as
    // this submit reaches it, and a form whose button is disabled is not submitted by Enter either.
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const label = button.textContent;
      const at = Date.now();
      const sent = JSON.stringify(typed());
      live.textContent = "";
      fetch(form.action, { method: "POST", body: new URLSearchParams(typed()) })
        .then((answer) => answer.text())
        .then(
          (html) => new DOMParser().parseFromString(html, "text/html").getElementById(form.id),
          () => null,
        )
        .then((answered) =>
          setTimeout(
            () => {
              button.textContent = label;
              button.disabled = false;
              const fresh = answered && find(fields, answered);
              const outcome = answered?.dataset.outcome;
              const now = typed();
              live.replaceChildren(
                ...(fresh
                  ? find("[role=status]", answered)
                  : (find("template") as HTMLTemplateElement).content.cloneNode(true)
                ).childNodes,
              );
              if (!fresh || (outcome == "sent" && JSON.stringify(now) != sent)) return;
              find(fields).replaceWith(fresh);
              if (outcome == "sent") return;
              // By name on the form (its named controls): the fields' names are not the form's own properties.
              for (const [name, value] of now)
                (
                  (form as unknown as Record<string, HTMLInputElement>)[
                    name as string
                  ] as HTMLInputElement
                ).value = value as string;
              find("[aria-invalid]")?.focus();
            },
            at + confirmationDelay - Date.now(),
          ),
        );
    });
    // A refused field is checked again as it is corrected: once the browser's own check (required, type,
    // length) passes, its message and its `aria-describedby` (the form's fields have no other
    // description) go; the server judges the rest. The summary stays the account of the last answer until
    // the next one, as a summary does (its links lead to the fields).
    form.addEventListener("input", (event) => {
      const control = event.target as HTMLInputElement;
      if (!control.ariaInvalid || !control.checkValidity()) return;
      control.ariaInvalid = null;
      control.removeAttribute("aria-describedby");
      find("#" + control.id + "-erreur").remove();
    });
  }

  for (const item of doc.querySelectorAll<HTMLElement>("[data-copy-link]")) {
    const said = item.querySelector("[role=status]");
    item.hidden = false;
    item.querySelector("button")?.addEventListener("click", () => {
      Promise.resolve()
        .then(() => navigator.clipboard.writeText(item.dataset.copyLink ?? ""))
        .then(
          () => "Lien copié !",
          () => "Impossible de copier le lien.",
        )
        .then((text) => {
          if (!said) return;
          said.textContent = text;
          setTimeout(() => (said.textContent = ""), 4000);
        });
    });
  }

  for (const tablist of doc.querySelectorAll('[role="tablist"]')) {
    const tabs = Array.from(tablist.querySelectorAll<HTMLAnchorElement>('[role="tab"]'));
    const select = (chosen: HTMLAnchorElement) => {
      for (const tab of tabs) {
        const on = tab === chosen;
        tab.setAttribute("aria-selected", String(on));
        tab.tabIndex = on ? 0 : -1;
        const panel = doc.getElementById(tab.getAttribute("aria-controls") ?? "");
        if (panel) panel.hidden = !on;
      }
      history.replaceState(history.state, "", chosen.getAttribute("href"));
      chosen.focus();
    };
    for (const tab of tabs) tab.tabIndex = tab.getAttribute("aria-selected") === "true" ? 0 : -1;
    tablist.addEventListener("click", (event) => {
      const tab = (event.target as Element).closest<HTMLAnchorElement>('[role="tab"]');
      if (!tab || !plainClick(event as MouseEvent)) return;
      event.preventDefault();
      select(tab);
    });
    tablist.addEventListener("keydown", (event) => {
      const key = (event as KeyboardEvent).key;
      const index = tabs.findIndex((tab) => tab.getAttribute("aria-selected") === "true");
      const last = tabs.length - 1;
      const target = {
        ArrowRight: tabs[index === last ? 0 : index + 1],
        ArrowLeft: tabs[index <= 0 ? last : index - 1],
        Home: tabs[0],
        End: tabs[last],
      }[key];
      if (!target) return;
      event.preventDefault();
      select(target);
    });
  }

  doc.addEventListener("click", (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>("a[data-video-title]");
    if (!link || !plainClick(event)) return;
    event.preventDefault();
    const player = doc.createElement("iframe");
    player.src = link.href;
    player.title = link.dataset.videoTitle ?? "";
    player.className = "aspect-video w-full";
    player.allow = "autoplay; encrypted-media; picture-in-picture; fullscreen";
    player.allowFullscreen = true;
    player.referrerPolicy = "strict-origin-when-cross-origin";
    link.replaceWith(player);
  });

  root.dataset.enhanced = "";
}

/** SPEC §9: past this many pixels of scroll the header becomes solid (`header.tsx` on hydrated pages). */
export const SCROLL_THRESHOLD = 50;

/** SPEC §9: the contact form's confirmation appears no sooner than 1 s after submitting. */
export const CONFIRMATION_DELAY_MS = 1000;

/** The script's text, called with its settings. */
export function lightScriptSource(): string {
  return inlineScript(lightScript, SCROLL_THRESHOLD, CONFIRMATION_DELAY_MS);
}
