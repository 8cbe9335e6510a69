import { describe, expect, it } from "vitest";
import { useBrowser } from "./support/browser";
import { expectAccessibleOnSmallAndLargeScreens } from "./support/public-pages";

// What the server sends for these pages (title, description, content): tests/http/legal-pages.test.ts.

const { openPage } = useBrowser();

describe("legal pages", () => {
  it.each(["/mentions-legales", "/donnees-personnelles", "/politique-cookies"])(
    "%s leaves no cookie on a visitor, has no accessibility violation on a small and a large screen and no horizontal scroll at 390 px",
    async (path) => {
      const page = await expectAccessibleOnSmallAndLargeScreens(openPage, path);
      expect(await page.context().cookies()).toEqual([]);
    },
  );
});
