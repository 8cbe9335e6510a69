import type { Socket } from "node:net";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

/** What the visitor reads for each refusal made before a page is rendered. */
const TITLES: Record<number, string> = {
  400: "Requête invalide",
  405: "Méthode non autorisée",
  408: "Délai dépassé",
  413: "Envoi trop volumineux",
  431: "En-têtes trop volumineux",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * A small French page (no script, no stylesheet) that says what was refused and leads back home. With the
 * site's name (`brand`, when known), the name heads the page and ends its title, as the site's own pages;
 * with `action`, the one thing to do first (« Se connecter »).
 */
export function refusalPage(
  status: number,
  message: string,
  options: { title?: string; brand?: string; action?: { href: string; label: string } } = {},
): string {
  const title = options.title ?? TITLES[status] ?? "Requête refusée";
  const brand = options.brand?.trim();
  return [
    "<!doctype html>",
    '<html lang="fr"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(brand ? `${title} – ${brand}` : title)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1.5rem">',
    ...(brand
      ? [
          `<header><a href="/" style="color:inherit;font-weight:600">${escapeHtml(brand)}</a></header>`,
        ]
      : []),
    "<main>",
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(message)}</p>`,
    ...(options.action
      ? [
          `<p><a href="${escapeHtml(options.action.href)}">${escapeHtml(options.action.label)}</a></p>`,
        ]
      : []),
    '<p><a href="/">Retour à l\'accueil</a></p>',
    "</main></body></html>",
  ].join("");
}

/** How long what follows a refused request is read and thrown away before the connection is cut. */
const LINGER_MS = 5_000;

/**
 * After a refusal, what the client is still sending is read and thrown away for a short while before
 * the connection is cut: closing at once, with bytes still unread, makes the system reset the
 * connection, and the client (a browser) often loses the answer and shows "connection reset" instead
 * of our French page. A client still sending after LINGER_MS (a slow sender of a huge body) is cut off.
 */
export function discardRestOfBody(req: ExpressRequest): void {
  if (req.complete || req.destroyed) return;
  const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
  timer.unref();
  req.unpipe();
  req.on("data", () => undefined);
  req.once("end", () => clearTimeout(timer));
  req.once("close", () => clearTimeout(timer));
  req.resume();
}

/**
 * Answers a request refused before React Router saw it: a French page, or `{ error }` in JSON for a
 * caller that asks for JSON (the admin's image upload). Never stored by any cache. A body not read yet
 * is not read on (see discardRestOfBody).
 */
export function refuse(
  req: ExpressRequest,
  res: ExpressResponse,
  status: number,
  message: string,
  options: { allow?: string } = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status);
  res.setHeader("Cache-Control", "no-store");
  if (options.allow !== undefined) res.setHeader("Allow", options.allow);
  if (req.accepts(["html", "json"]) === "json") {
    res.json({ error: message });
  } else {
    res.type("html").send(refusalPage(status, message));
  }
  discardRestOfBody(req);
}

const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: "Les en-têtes de la requête sont trop volumineux.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    message: "La requête a mis trop de temps à arriver. Veuillez réessayer.",
  },
};

/**
 * Node's answer to a request it cannot even parse (raw bytes or NUL in the address, broken headers, a
 * request too slow to arrive), in French instead of an empty "400 Bad Request". Installed with
 * `server.on("clientError", answerClientError)`.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || (error.code === "ECONNRESET" && socket.destroyed)) {
    socket.destroy();
    return;
  }
  const known = CLIENT_ERRORS[error.code ?? ""] ?? {
    status: 400,
    message:
      "L'adresse ou les en-têtes de la requête contiennent des caractères invalides. Vérifiez l'adresse saisie.",
  };
  const body = Buffer.from(refusalPage(known.status, known.message));
  const title =
    known.status === 400
      ? "Bad Request"
      : known.status === 408
        ? "Request Timeout"
        : "Request Header Fields Too Large";
  socket.end(
    `HTTP/1.1 ${known.status} ${title}\r\n` +
      "Content-Type: text/html; charset=utf-8\r\n" +
      `Content-Length: ${body.length}\r\n` +
      "Cache-Control: no-store\r\n" +
      "Connection: close\r\n\r\n" +
      body.toString(),
  );
}
