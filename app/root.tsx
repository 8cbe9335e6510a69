import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunction,
} from "react-router";
import interFont from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import playfairFont from "@fontsource-variable/playfair-display/files/playfair-display-latin-wght-normal.woff2?url";
import type { Route } from "./+types/root";
import { AppToaster } from "~/components/ui/toaster";
import { env } from "~/server/env.server";
import "./app.css";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "preload", href: interFont, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "preload", href: playfairFont, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
];

export function loader() {
  return { siteUrl: env().SITE_URL };
}

// The site address never changes while the app runs.
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="fr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1c1917" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
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

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let details = "Une erreur inattendue s'est produite.";
  let stack: string | undefined;
  if (isRouteErrorResponse(error)) {
    details = `${error.status} ${error.statusText || ""}`.trim();
  } else if (error instanceof Error) {
    details = error.message;
    if (import.meta.env.DEV) stack = error.stack;
  }
  return (
    <main className="mx-auto max-w-3xl px-6 py-24">
      <title>Erreur</title>
      <h1 className="text-3xl font-bold">Unexpected Application Error!</h1>
      <p className="mt-4 text-lg text-muted-foreground">{details}</p>
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
  );
}
