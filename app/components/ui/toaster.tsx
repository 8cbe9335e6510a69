import { lazy, Suspense, useEffect, useState, type ComponentProps } from "react";
import type { ExternalToast, Toaster as SonnerToaster, toast as sonnerToast } from "sonner";

// sonner weighs ~9 KB compressed and most pages never show a toast: it loads once the page is interactive
// (the Toaster and its live region then exist before any announcement), and `toast` waits for it, so no
// toast is lost and none of it sits on the critical path. SPEC §9: bottom-right, Alt+T, 'Notifications',
// theme following the system.

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

const LazyToaster = lazy(async () => {
  const { Toaster } = await loadSonner();
  function ReadyToaster(props: ComponentProps<typeof SonnerToaster>) {
    // Runs after the Toaster's own effect, which subscribes it to new toasts.
    useEffect(() => markReady(), []);
    return <Toaster {...props} />;
  }
  return { default: ReadyToaster };
});

/** The page's toast area, mounted once the browser is idle after hydration. */
export function AppToaster() {
  const [mounted, setMounted] = useState(mountRequested);
  useEffect(() => {
    const mount = () => setMounted(true);
    mountListeners.add(mount);
    // Safari has no requestIdleCallback.
    const idle = typeof requestIdleCallback === "function";
    const handle = idle
      ? requestIdleCallback(requestToaster, { timeout: 2_000 })
      : setTimeout(requestToaster, 200);
    if (mountRequested) mount();
    return () => {
      mountListeners.delete(mount);
      if (idle) cancelIdleCallback(handle as number);
      else clearTimeout(handle);
    };
  }, []);
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
