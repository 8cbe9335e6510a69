import { ensureBuilt } from "../../scripts/lib/build";

/**
 * Integration and browser tests run the production build: it is made once, before any test file starts
 * (about 20 s; a minute or more when photos changed since photo-cache/ was refreshed, decision 0165), never by
 * the tests themselves.
 */
export default async function setup() {
  await ensureBuilt();
}
