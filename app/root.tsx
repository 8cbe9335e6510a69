import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunction,
  UNSAFE_FrameworkContext as FrameworkContext,
  useLocation,
  useMatches,
  isRouteErrorResponse,
  useRouteError,
} from "react-router";
import { useContext, useEffect, useLayoutEffect, useRef } from "react";
import type { Route } from "./+types/root";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SessionExpired } from "~/components/admin/session-expired";
import { isSessionExpiredAnswer } from "~/lib/session-expired";
import { isLightPage, isLightPath } from "~/light-pages";
import { lightScriptSource } from "~/light-script";
import { fontsScriptSource, WEB_FONT_FACES } from "~/fonts-script";
import { AppToaster } from "~/components/ui/toaster";
import "./app.css";
export { loader } from "./root.server";

// No font preload: the first page of a visit is drawn without the web fonts (decision 0095, FontsSwitch).
export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
];

// The site address never changes while the app runs.
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

export function Layout({ children }: { children: React.ReactNode }) {
  // A light page (app/light-pages.ts, decision 0090) is decided by the server's render; in the browser, React
  // runs only on hydrated pages, which stay so.
  const matches = useMatches();
  const error = useRouteError();
  // import.meta.env.SSR: the light branch and its script are not even in the browser's bundle.
  const light = import.meta.env.SSR && isLightPage(matches, error);
  // Says that React has taken over the server-rendered page (scripts start after the first paint), for
  // styles that differ with JavaScript and for the browser tests, which wait for it before interacting.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  useEffect(leaveForLightPages, []);
  useFontsOnNavigation();
  return (
    // suppressHydrationWarning: FontsSwitch may add data-polices to <html> before React hydrates.
    <html lang="fr" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <FontsSwitch />
        <meta name="theme-color" content="#1c1917" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh">
        {children}
        {light ? (
          <NoncedScript source={lightScript} />
        ) : (
          <>
            <ScrollRestoration />
            <ScriptsAfterFirstPaint />
          </>
        )}
      </body>
    </html>
  );
}

/**
 * On a hydrated page, a click on a link to a light page goes to the browser as a document navigation: the
 * router never sees it (stopped before React's own listener, on the document), so it does not render the
 * light page in the browser with React's JavaScript. One listener covers every link (header, footer,
 * articles' text). Modified clicks, other windows, downloads and other sites are the browser's anyway.
 */
function leaveForLightPages() {
  const toLightPage = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download")) return;
    if (link.target && link.target !== "_self") return;
    const url = new URL(link.href);
    if (url.origin === window.location.origin && isLightPath(url.pathname)) event.stopPropagation();
  };
  window.addEventListener("click", toLightPage, true);
  return () => window.removeEventListener("click", toLightPage, true);
}

/**
 * On a hydrated page (the light ones have no React), a client-side navigation turns the web fonts on once
 * the first page has fetched them (decision 0095): the new page is painted in them, after the visitor's own
 * click. Never on the page being read (not at hydration), which keeps the fonts it was drawn in.
 */
function useFontsOnNavigation() {
  const { key } = useLocation();
  const landing = useRef(key);
  useLayoutEffect(() => {
    const root = document.documentElement;
    if (key === landing.current || root.hasAttribute("data-polices")) return;
    const fonts = document.fonts;
    if (fonts && WEB_FONT_FACES.every((face) => fonts.check(face))) {
      root.setAttribute("data-polices", "");
    }
  }, [key]);
}

// Built only by the server's render, like startScripts below: hydration keeps the server's <script>.
const fontsSwitch = import.meta.env.SSR ? fontsScriptSource() : "";

/**
 * The brand fonts from the second page of a visit on (decision 0095, app/fonts-script.ts): before the first
 * paint, a page reached from the site turns the web fonts on (`<html data-polices>`); a first page fetches
 * them after its `load` event, for the next one.
 */
function FontsSwitch() {
  return <NoncedScript source={fontsSwitch} />;
}

// A light page's script of its own (decision 0090); light pages are rendered only by the server.
const lightScript = import.meta.env.SSR ? lightScriptSource() : "";

/**
 * An inline script of ours with the response's nonce (decision 0003). Its text is built by the server only:
 * in the browser, hydration keeps the server's <script> as it is (and a script set by innerHTML never runs).
 */
function NoncedScript({ source }: { source: string }) {
  const nonce = useContext(FrameworkContext)?.nonce;
  return (
    <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: source }} />
  );
}

// React Router's scripts arrive inert inside a <noscript> (React neither hoists nor hydrates what it holds).
// The inline script after it runs the router's data hand-off at once, then adds the module script and its
// preloads once the page has painted its first content (or after three seconds, e.g. in a background
// tab). The first paint then waits for the HTML and the stylesheet only, instead of sharing a slow mobile
// link with the JavaScript; the page, fully server-rendered, reads and works (links, forms) before React
// takes over. Decision 0007. The server's HTML alone carries it: in the browser, hydration keeps what the
// server wrote (and a script set by innerHTML never runs), so the text is left out of the browser's bundle.
// It starts after the first contentful paint and, on a page with a hero photo (the one image with
// `fetchpriority="high"`, its largest paint), once that photo is in and painted (two frames): Lighthouse's
// simulation counts in the LCP every request started before it (decision 0137; only that one image, not the
// `load` event, which waited for every image of a gallery, decision 0132). A browser without paint timing
// waits one frame, a hidden tab (which does not paint) three seconds at most. Sent without its indentation
// (about 0.1 KB less in gzip). The holder's scripts and preloads carry no nonce (`<Scripts nonce="">`): the
// starter sets its own on the two scripts it adds (a preload of our own files needs none, 'self' allows
// it), so that the nonce appears a few times in the page, not once per preload: a stored page is compressed
// in parts split at each nonce (decision 0006), and the contact page's two dozen preloads made it 15 KB on
// the wire instead of 11.7, past the first round trip of a slow connection (decision 0137).
const startScripts = !import.meta.env.SSR
  ? ""
  : `(function () {
  var holder = document.getElementById("rr-scripts");
  if (!holder) return;
  var nonce = document.currentScript.nonce;
  var later = [];
  var parsed = document.createRange().createContextualFragment(holder.textContent || "");
  Array.prototype.slice.call(parsed.children).forEach(function (element) {
    if (element.tagName === "SCRIPT") element.nonce = nonce;
    if (element.tagName === "SCRIPT" && !element.type) document.head.appendChild(element);
    else later.push(element);
  });
  var started = false;
  function start() {
    if (started) return;
    started = true;
    performance.mark("scripts-start");
    later.forEach(function (element) { document.head.appendChild(element); });
  }
  var painted = false;
  var hero = document.querySelector('img[fetchpriority="high"]');
  var shown = !hero || hero.complete;
  function ready() {
    if (!painted || !shown) return;
    if (!hero) setTimeout(start, 0);
    else requestAnimationFrame(function () { requestAnimationFrame(function () { setTimeout(start, 0); }); });
  }
  if (!shown) {
    hero.addEventListener("load", function () { shown = true; ready(); });
    hero.addEventListener("error", function () { shown = true; ready(); });
  }
  var observer = window.PerformanceObserver;
  if (observer && (observer.supportedEntryTypes || []).indexOf("paint") !== -1) {
    new observer(function (list) {
      list.getEntriesByName("first-contentful-paint").forEach(function () { painted = true; ready(); });
    }).observe({ type: "paint", buffered: true });
  } else {
    requestAnimationFrame(function () { painted = true; ready(); });
  }
  setTimeout(start, 3000);
})();`.replace(/\n\s+/g, "\n");

function ScriptsAfterFirstPaint() {
  return (
    <>
      <noscript id="rr-scripts" suppressHydrationWarning>
        {/* No nonce here: the starter gives its own to the scripts it adds (decision 0137). */}
        <Scripts nonce="" />
      </noscript>
      <NoncedScript source={startScripts} />
    </>
  );
}

export default function App() {
  return (
    <>
      <Outlet />
      <AppToaster />
    </>
  );
}

/** What happened, in French, for the status of an error answer (decision 0133: the page answers in French). */
function errorExplanation(status: number | null): string {
  switch (status) {
    case 400:
      return "La requête envoyée n'a pas pu être comprise : elle contient des données invalides.";
    case 401:
      return "Il faut être connecté·e pour faire cela.";
    case 403:
      return "Vous n'avez pas l'autorisation d'accéder à cette page.";
    case 404:
      return "Cette page n'existe pas ou n'existe plus.";
    case 405:
      return "Cette adresse n'accepte pas ce type de requête.";
    case 413:
      return "L'envoi est trop volumineux.";
    case 429:
      return "Trop de tentatives. Veuillez patienter quelques minutes avant de réessayer.";
    default:
      return "Une erreur inattendue s'est produite de notre côté. Votre dernière action n'a peut-être pas été enregistrée : veuillez réessayer dans quelques instants.";
  }
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // An admin form posted after the session ended (decision 0133).
  if (isRouteErrorResponse(error) && isSessionExpiredAnswer(error.data)) {
    return <SessionExpired answer={error.data} />;
  }
  return (
    <GeneralErrorBoundary
      error={error}
      fallback={({ status, stack }) => (
        <main className="mx-auto max-w-3xl px-6 py-24">
          <title>{status === 404 ? "Page introuvable" : "Erreur"}</title>
          <h1 className="text-3xl font-bold">
            {status === 404 ? "Page introuvable" : "Une erreur est survenue"}
          </h1>
          <p className="mt-4 text-lg">{errorExplanation(status)}</p>
          {/* The code, not the English reason phrase of HTTP; a thrown error's message only in development. */}
          {status ? (
            <p className="mt-2 text-muted-foreground">Code de l'erreur : {status}</p>
          ) : null}
          {stack ? (
            <pre className="mt-6 overflow-x-auto rounded bg-muted p-4 text-sm">
              <code>{stack}</code>
            </pre>
          ) : null}
          <p className="mt-8">
            <a className="underline" href="/">
              Retour à l'accueil
            </a>
          </p>
        </main>
      )}
    />
  );
}
