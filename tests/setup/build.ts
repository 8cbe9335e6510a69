import { ensureBuilt } from "../../scripts/lib/build";

/**
 * Integration and browser tests run the production build: it is made once, before any test file starts
 * (a fresh clone's first build encodes every photo and takes minutes), never by the tests themselves.
 */
export default async function setup() {
  await ensureBuilt();
}
