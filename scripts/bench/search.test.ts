import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  publishedArticlesQuery,
  similarArticlesQuery,
} from "../../app/server/blog/articles.server";
import { closeDatabase, connectDatabase } from "../../app/server/db/client.server";
import {
  literalParams,
  literalSearchSql,
  rankedParams,
  rankedSearchSql,
  similarParams,
  similarSearchSql,
} from "./search.ts";

// The benchmark EXPLAINs copies of the app's statements (it runs outside the app's build): they must stay
// what drizzle sends. Writing SQL needs no server: the pool connects on its first query only.
beforeAll(() => connectDatabase("postgres://nobody@127.0.0.1:9/none"));
afterAll(() => closeDatabase());

describe("the search benchmark", () => {
  it("measures the statements /blog?q= sends", () => {
    const correction = { word: "mariage", similarity: 0.7 };
    for (const [query, sql, params] of [
      [publishedArticlesQuery({ search: "famille" }), rankedSearchSql, rankedParams("famille")],
      [publishedArticlesQuery({ search: "%" }), literalSearchSql, literalParams("%")],
      [
        similarArticlesQuery({ search: "mariagge" }, [[correction]]),
        similarSearchSql,
        similarParams(correction),
      ],
    ] as const) {
      expect(query.toSQL()).toEqual({ sql, params });
    }
  });
});
