import { describe, it } from "vitest";
import { servicePages } from "../support/public-pages";
import { useBrowser } from "./support/browser";
import { expectAccessibleOnSmallAndLargeScreens } from "./support/public-pages";

// What the server sends for these pages (tags, texts, links): tests/http/pages-content.test.ts.

const { openPage } = useBrowser();

describe("services, prices and gallery pages: accessibility and small screens", () => {
  it.each(servicePages)(
    "$path has no axe violation on a small and a large screen, and no horizontal scroll at 390 px",
    async ({ path }) => {
      await expectAccessibleOnSmallAndLargeScreens(openPage, path);
    },
  );
});
