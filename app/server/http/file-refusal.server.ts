import { isRouteErrorResponse, type RouterContextProvider } from "react-router";
import { siteContent } from "../content/site-content.server";
import { log } from "../logger.server";
import { withReturnPath } from "../admin/return-path.server";
import { refusalPage } from "./refusal.server";

/*
 * How a file route refuses (decision 0202). A person opens these addresses from a link, often an e-mail's
 * (an invoice's or a voucher's PDF, the booking's .ics, a gallery's downloads, the owner's files): a refusal
 * is a small French page with the site's name, what happened and the way home, in the status that fits,
 * never stored by a cache nor indexed. React Router would write a thrown `data()` as JSON and leave a thrown
 * or returned bare line as it is.
 */

const UNAVAILABLE = {
  title: "Fichier momentanément indisponible",
  text: "Le fichier ne peut pas être lu pour l'instant. Réessayez dans quelques minutes.",
};

const TEXTS: Record<number, { title: string; text: string }> = {
  400: { title: "Requête invalide", text: "Cette adresse n'est pas complète ou pas valable." },
  401: {
    title: "Connexion requise",
    text: "Ce fichier n'est ouvert qu'à l'administration du site : connectez-vous, puis ouvrez le lien de nouveau.",
  },
  403: {
    title: "Téléchargement refusé",
    text: "Ce fichier ne peut pas être téléchargé avec ce lien.",
  },
  404: {
    title: "Fichier introuvable",
    text: "Ce lien ne mène à aucun fichier : il est peut-être incomplet, ou le fichier n'existe plus. Si vous l'avez reçu par e-mail, vérifiez qu'il a été copié en entier, ou contactez-nous.",
  },
  410: { title: "Lien expiré", text: "Ce lien n'est plus valable." },
  500: {
    title: "Fichier indisponible",
    text: "Le fichier n'a pas pu être préparé. Réessayez dans quelques minutes ; si cela dure, contactez-nous.",
  },
  503: UNAVAILABLE,
  504: UNAVAILABLE,
};

/**
 * The refusal page of a file route: `text` is the sentence that says why (in French, for the person),
 * else the status's own. Nothing else is said: a page never tells more than its status.
 */
export function fileRefusal(
  status: number,
  text?: string | null,
  brand?: string,
  action?: { href: string; label: string },
): Response {
  const known = TEXTS[status] ?? {
    title: "Requête refusée",
    text: "Ce fichier ne peut pas être ouvert.",
  };
  return new Response(
    refusalPage(status, text?.trim() || known.text, { title: known.title, brand, action }),
    {
      status,
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Robots-Tag": "noindex",
      },
    },
  );
}

/** What `data()` makes (react-router's DataWithResponseInit, not exported as a class). */
function isDataAnswer(error: unknown): error is { data: unknown; init: ResponseInit | null } {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { type?: unknown }).type === "DataWithResponseInit"
  );
}

/** A refusal thrown by a loader or what it calls: `data(…, { status })`, a Response, an error response. */
function refusalOf(error: unknown): { status: number; text: string | null } | null {
  if (error instanceof Response) {
    // A redirect, or a page already written for a person, goes out as it is.
    if (error.status < 400 || /^text\/html\b/.test(error.headers.get("Content-Type") ?? "")) {
      return null;
    }
    return { status: error.status, text: null };
  }
  if (isRouteErrorResponse(error)) {
    return { status: error.status, text: typeof error.data === "string" ? error.data : null };
  }
  if (isDataAnswer(error)) {
    const { data, init } = error;
    const status = init?.status ?? 200;
    if (status < 400) return null;
    return { status, text: typeof data === "string" ? data : null };
  }
  return null;
}

/** The site's name for the page's heading; without it (the database unreachable) the page still answers. */
async function brandOf(context: Readonly<RouterContextProvider>): Promise<string | undefined> {
  try {
    return (await siteContent(context)).documents.identity.brand;
  } catch (error) {
    log.warn("file_refusal_brand_unread", { error });
    return undefined;
  }
}

/**
 * Wraps a file route's loader: whatever refusal it (or a helper it calls) throws becomes the French page of
 * `fileRefusal`, with the sentence given (the `data()`'s string) or the status's own; a 401 offers to sign
 * in and come back. What it returns goes out as it is (a 304, a 416 to a download manager), and so does a
 * redirect it throws. Anything else (a bug, a PDF that failed to build) is logged and answered 500 by the
 * same page: React Router's would be « Unexpected Server Error », in English, to a client.
 */
export function fileRoute<
  Args extends { request: Request; context: Readonly<RouterContextProvider> },
>(loader: (args: Args) => Promise<Response>): (args: Args) => Promise<Response> {
  return async (args) => {
    try {
      return await loader(args);
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) {
        const action = refused.status === 401 ? signInAction(args.request) : undefined;
        return fileRefusal(refused.status, refused.text, await brandOf(args.context), action);
      }
      // An answer for React Router (a redirect, a page already written): as it is.
      if (error instanceof Response || isRouteErrorResponse(error) || isDataAnswer(error))
        throw error;
      const url = new URL(args.request.url);
      log.error("file_route_failed", { path: url.pathname, error });
      return fileRefusal(500, null, await brandOf(args.context));
    }
  };
}

/** « Se connecter », back to this file once signed in (an owner's link opened signed out). */
function signInAction(request: Request) {
  const url = new URL(request.url);
  const here = `${url.pathname}${url.search}`;
  return {
    href: withReturnPath("/admin/login", here.startsWith("/admin/") ? here : null),
    label: "Se connecter",
  };
}
