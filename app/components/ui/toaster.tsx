import {
  lazy,
  Suspense,
  useEffect,
  useState,
  type ComponentProps,
  type CSSProperties,
} from "react";
import type { ExternalToast, Toaster as SonnerToaster, toast as sonnerToast } from "sonner";

// sonner weighs ~9 KB compressed and most visits never show a toast: it loads when a toast is asked for, or
// earlier when the visitor starts on a form, so that a submit's answer shows at once. The Toaster (and its
// live region) is mounted first and `toast` waits for it, so no toast is lost and none is announced into a
// region that does not exist yet. SPEC §9: bottom-right, Alt+T, 'Notifications', theme following the system.

const loadSonner = () => import("sonner");

let markReady: () => void = () => undefined;
const toasterReady = new Promise<void>((resolve) => (markReady = resolve));
let mountRequested = false;
const mountListeners = new Set<() => void>();

function requestToaster() {
  if (mountRequested) return;
  mountRequested = true;
  for (const listener of mountListeners) listener();
}

/**
 * sonner's rich colours in the light theme put their text below WCAG AA's 4.5:1 on their own background
 * (error 4.3:1, success 4.2:1): darker text, same hues (≥ 5.7:1). Its dark theme already passes. The
 * variables are set where sonner sets them, on the toaster's list, for the theme the system asks for.
 */
const lightRichColours = {
  "--success-text": "hsl(140, 100%, 22%)",
  "--error-text": "hsl(360, 100%, 38%)",
  "--info-text": "hsl(210, 92%, 38%)",
} as CSSProperties;

const LazyToaster = lazy(async () => {
  const { Toaster } = await loadSonner();
  function ReadyToaster(props: ComponentProps<typeof SonnerToaster>) {
    // Runs after the Toaster's own effect, which subscribes it to new toasts.
    useEffect(() => markReady(), []);
    const dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
    return <Toaster {...props} style={dark ? undefined : lightRichColours} />;
  }
  return { default: ReadyToaster };
});

/** A pointer or the focus entering a form: its toast may be near. */
function warmOnForm(event: Event) {
  if (event.target instanceof Element && event.target.closest("form")) requestToaster();
}

/** The page's toast area, mounted with the first toast or when the visitor starts on a form. */
export function AppToaster() {
  const [mounted, setMounted] = useState(mountRequested);
  useEffect(() => {
    const mount = () => setMounted(true);
    mountListeners.add(mount);
    // A toast raised before this effect ran (a flash cookie shown on hydration) already asked for it.
    if (mountRequested) mount();
    return () => void mountListeners.delete(mount);
  }, []);
  useEffect(() => {
    if (mounted) return;
    document.addEventListener("pointerdown", warmOnForm, true);
    document.addEventListener("focusin", warmOnForm, true);
    return () => {
      document.removeEventListener("pointerdown", warmOnForm, true);
      document.removeEventListener("focusin", warmOnForm, true);
    };
  }, [mounted]);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster
        position="bottom-right"
        hotkey={["altKey", "KeyT"]}
        containerAriaLabel="Notifications"
        theme="system"
        richColors
        closeButton
        toastOptions={{ closeButtonAriaLabel: "Fermer la notification" }}
      />
    </Suspense>
  );
}

type Message = Parameters<typeof sonnerToast.success>[0];

async function show(
  kind: "success" | "error" | "info" | "message",
  message: Message,
  data?: ExternalToast,
) {
  requestToaster();
  const [{ toast }] = await Promise.all([loadSonner(), toasterReady]);
  toast[kind](message, data);
}

/** sonner's `toast`, for the calls this site makes; safe to call before the toaster has loaded. */
export const toast = Object.assign(
  (message: Message, data?: ExternalToast) => void show("message", message, data),
  {
    success: (message: Message, data?: ExternalToast) => void show("success", message, data),
    error: (message: Message, data?: ExternalToast) => void show("error", message, data),
    info: (message: Message, data?: ExternalToast) => void show("info", message, data),
  },
);
