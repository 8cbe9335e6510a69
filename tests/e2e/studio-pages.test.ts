import { describe, it } from "vitest";
import { studios } from "../support/studios";
import { useBrowser } from "./support/browser";
import { expectAccessibleOnSmallAndLargeScreens } from "./support/public-pages";

// What the server sends for these pages (tags, JSON-LD, address, hours, links):
// tests/http/studio-pages.test.ts.

const { openPage } = useBrowser();

describe("studio pages", () => {
  it.each(studios)(
    "$pagePath has no accessibility violation on a small and a large screen, and no horizontal scroll at 390 px",
    async ({ pagePath }) => {
      await expectAccessibleOnSmallAndLargeScreens(openPage, pagePath);
    },
  );
});
