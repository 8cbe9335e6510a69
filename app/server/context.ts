import { createContext } from "react-router";

/** The Content-Security-Policy nonce of the current response, set by the HTTP layer. */
export const cspNonceContext = createContext<string>("");

/** The client's address as Express sees it (TRUST_PROXY decides whether proxies are believed). */
export const clientAddressContext = createContext<string>("unknown");
