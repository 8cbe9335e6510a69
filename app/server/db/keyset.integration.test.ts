import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { db } from "./client.server";
import { contactMessages } from "./schema";
import { ADMIN_PAGE_SIZE, decodeCursor, pagePosition, type PagePosition } from "./keyset.server";
import {
  listMessagesForAdmin,
  MESSAGE_LIST_ORDER,
  messageCounts,
  type MessageFilters,
} from "../contact/admin-messages.server";

useAppDatabase();

const ALL: MessageFilters = { state: null, search: "" };
const TOTAL = 2 * ADMIN_PAGE_SIZE + 23;

/** The key values of a page's cursor, which the test expects to be there. */
function valuesOf(cursor: string | null): string[] {
  const values = decodeCursor(MESSAGE_LIST_ORDER, cursor);
  if (!values) throw new Error(`no cursor in ${cursor}`);
  return values;
}

/** A value the test expects to be there. */
function present<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("missing");
  return value;
}

/** Every message id in the list's order (newest first, the id breaking ties), as the database sorts. */
async function expectedOrder(handled?: boolean): Promise<string[]> {
  const rows = await db().execute<{ id: string }>(
    sql`select id from contact_messages
        where ${handled === undefined ? sql`true` : handled ? sql`handled_at is not null` : sql`handled_at is null`}
        order by created_at desc, id desc`,
  );
  return rows.rows.map((row) => row.id);
}

/** Walks the list with « Page suivante » from the first page; each page's ids. */
async function walkForward(filters: MessageFilters) {
  const pages: Awaited<ReturnType<typeof listMessagesForAdmin>>[] = [];
  let position: PagePosition = null;
  for (;;) {
    const page = await listMessagesForAdmin(filters, position);
    pages.push(page);
    if (!page.next) return pages;
    position = { after: valuesOf(page.next) };
    expect(pages.length).toBeLessThan(10);
  }
}

beforeAll(async () => {
  // Many rows share one date, and others lie microseconds apart in one millisecond: what a cursor rounded
  // to the millisecond, or one without the id, would skip or repeat.
  const base = Date.parse("2026-11-20T10:00:00Z");
  await db()
    .insert(contactMessages)
    .values(
      Array.from({ length: TOTAL }, (_, index) => ({
        studio: "brive",
        shootingType: "portrait",
        prenom: `Prénom${index}`,
        nom: index % 2 === 0 ? "Pair" : "Impair",
        email: `client${index}@example.com`,
        message: "Bonjour",
        createdAt: new Date(base - Math.floor(index / 40) * 60_000),
        handledAt: index % 3 === 0 ? new Date(base) : null,
      })),
    );
  await db().execute(
    sql`update contact_messages set created_at = created_at + (random() * interval '900 microseconds')
        where nom = 'Impair' and created_at < ${new Date(base - 60_000)}`,
  );
});

describe("the admin lists' keyset pages", () => {
  it("walks every row once, in order, through rows of equal and near-equal dates", async () => {
    const pages = await walkForward(ALL);
    expect(pages.map((page) => page.rows.length)).toEqual([50, 50, 23]);
    expect(pages.flatMap((page) => page.rows.map((row) => row.id))).toEqual(await expectedOrder());
    // Unfiltered, the list's count is messageCounts()'s, by the database.
    expect(await messageCounts()).toMatchObject({ total: TOTAL });
    // The first page has no page before it, the last none after it.
    expect(pages[0]?.previous).toBeNull();
    expect(pages[1]?.previous).not.toBeNull();
    expect(pages[2]?.next).toBeNull();
  });

  it("comes back with « Page précédente » to the same pages, the first one without a way back", async () => {
    const [first, second, third] = (await walkForward(ALL)).map(present);
    const back = await listMessagesForAdmin(ALL, {
      before: valuesOf(present(third).previous),
    });
    expect(back.rows.map((row) => row.id)).toEqual(present(second).rows.map((row) => row.id));
    expect(back.next).not.toBeNull();
    const start = await listMessagesForAdmin(ALL, {
      before: valuesOf(back.previous),
    });
    expect(start.rows.map((row) => row.id)).toEqual(present(first).rows.map((row) => row.id));
    expect(start.previous).toBeNull();
  });

  it("keeps the filters on every page and counts what they match", async () => {
    const waiting = { state: "a-traiter", search: "" } as const;
    const pages = await walkForward(waiting);
    const expected = await expectedOrder(false);
    expect(pages.flatMap((page) => page.rows.map((row) => row.id))).toEqual(expected);
    expect(pages[0]?.matching).toBe(expected.length);
    expect(pages.flatMap((page) => page.rows).every((row) => row.handledAt === null)).toBe(true);

    const searched = await walkForward({ state: null, search: "impair" });
    expect(searched.flatMap((page) => page.rows).every((row) => row.nom === "Impair")).toBe(true);
    expect(searched.flatMap((page) => page.rows)).toHaveLength(Math.floor(TOTAL / 2));
  });

  it("ends a list of exactly one page with no next page", async () => {
    const search = "Prénom1"; // Prénom1, Prénom10…19, Prénom100…122: 34 rows
    const [only, ...rest] = await walkForward({ state: null, search });
    expect(rest).toEqual([]);
    expect(only?.rows).toHaveLength(34);
    expect(only).toMatchObject({ previous: null, next: null, matching: 34 });
  });

  it("takes a cursor that does not parse for the first page", async () => {
    const params = (value: string) => new URLSearchParams({ apres: value });
    expect(pagePosition(MESSAGE_LIST_ORDER, params("n'importe quoi"))).toBeNull();
    expect(pagePosition(MESSAGE_LIST_ORDER, params(btoa('["2026-13-99", "x"]')))).toBeNull();
    expect(pagePosition(MESSAGE_LIST_ORDER, params(btoa("[1, 2]")))).toBeNull();
    const [first] = await walkForward(ALL);
    const again = await listMessagesForAdmin(ALL, pagePosition(MESSAGE_LIST_ORDER, params("%%%")));
    expect(again.rows.map((row) => row.id)).toEqual(present(first).rows.map((row) => row.id));
  });
});
