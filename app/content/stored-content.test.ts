import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lostValues as lost } from "../../tests/support/stored-values";
import { DOCUMENT_KEYS, documentSchemas, studioDataSchema } from "./schemas";

/*
 * Stored content only grows (decision 0070): the documents and studios a site stored with an earlier
 * release must still parse, every value kept, with today's schemas; a new field comes with `.default()` (or
 * is optional), a field is never renamed nor removed without a migration of the stored rows. The fixture is
 * what the release 373aa90 stored on a new site: its seed, read back from PostgreSQL. At
 * each release, add that release's copy beside it. The whole database of the release before backups (43eacdb), every
 * stored document included, is upgraded by tests/system/upgrade.test.ts.
 */

type Stored = {
  release: string;
  documents: Record<string, unknown>;
  studios: Record<string, unknown>;
};

const fixtures = path.join(import.meta.dirname, "../../tests/fixtures");
const releases: Stored[] = ["stored-content-373aa90.json"].map(
  (name) => JSON.parse(readFileSync(path.join(fixtures, name), "utf8")) as Stored,
);

/**
 * Kinds of document added since the fixture's release: an older site has none of them, and the start's
 * seeding writes their first value (ensure-seed); decision 0166 added `payments`.
 */
const ADDED_SINCE_FIXTURE: readonly string[] = ["payments"];

describe.each(releases)("content stored by release $release", ({ documents, studios }) => {
  it.each(DOCUMENT_KEYS.filter((key) => key in documents))(
    "document « %s » parses with today's schema, every stored value kept",
    (key) => {
      const parsed = documentSchemas[key].safeParse(documents[key]);
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(lost(documents[key], parsed.data)).toEqual([]);
    },
  );

  it("holds every kind of document of its day and the three studios", () => {
    expect(Object.keys(documents).sort()).toEqual(
      DOCUMENT_KEYS.filter((key) => !ADDED_SINCE_FIXTURE.includes(key)).sort(),
    );
    expect(Object.keys(studios).sort()).toEqual(["brive", "limoges", "ussel"]);
  });

  it.each(Object.keys(studios))(
    "studio « %s » parses with today's schema, every stored value kept",
    (slug) => {
      const parsed = studioDataSchema.safeParse(studios[slug]);
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(lost(studios[slug], parsed.data)).toEqual([]);
    },
  );
});

describe("the check of what a schema keeps", () => {
  it("names a renamed, dropped or reshaped value", () => {
    expect(lost({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 2] }, d: true })).toEqual([]);
    expect(lost({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { d: [1, 2] } })).toEqual(["$.b.c"]);
    expect(lost({ a: [1, 2] }, { a: [1] })).toEqual(["$.a"]);
    expect(lost({ a: "x" }, { a: "y" })).toEqual(["$.a"]);
  });
});
