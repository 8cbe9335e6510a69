import { createContext, type RouterContextProvider } from "react-router";

/** The Content-Security-Policy nonce of the current response, set by the HTTP layer. */
export const cspNonceContext = createContext<string>("");

/**
 * The client as rate limits count it: its address as Express sees it (TRUST_PROXY decides whether proxies are
 * believed), an IPv6 one by its /64 network (client-address.ts).
 */
export const clientAddressContext = createContext<string>("unknown");

/** What one visitor's request may observe while a page is rendered for the page cache. */
export type ServedRequest = { userAgent: string | null };

/**
 * The page being rendered, as the page cache sees it: effects to repeat each time the stored page is
 * served again (an article's view count), and whether the result may be stored at all.
 */
export class PageRender {
  readonly effects: Array<(request: ServedRequest) => void> = [];
  storable = true;
}

/** Set by the HTTP layer for requests the page cache may store; absent otherwise. */
export const pageRenderContext = createContext<PageRender | null>(null);

/**
 * Runs `effect` for this request and, when the page is stored by the page cache, again for every visitor
 * it is later served to: what a page does on each visit beyond rendering (counting a view).
 */
export function onEveryServe(
  context: Readonly<RouterContextProvider>,
  request: Request,
  effect: (request: ServedRequest) => void,
): void {
  effect({ userAgent: request.headers.get("user-agent") });
  context.get(pageRenderContext)?.effects.push(effect);
}
