import { sql } from "drizzle-orm";
import { movedOrder } from "~/lib/reorder";
import { db } from "./client.server";

/**
 * « Monter » / « Descendre » in a list the owner orders (studios, photographers: a `position` column, ties
 * by creation): the rows locked and numbered again in one transaction, so that two clicks at once cannot
 * give two rows one place. False when the row is unknown or already at that end.
 */
export async function moveRow(
  table: "studios" | "photographers",
  id: string,
  direction: "up" | "down",
): Promise<boolean> {
  return db().transaction(async (tx) => {
    const rows = await tx.execute<{ id: string }>(
      sql`select id from ${sql.identifier(table)} order by position, created_at for update`,
    );
    const order = movedOrder(
      rows.rows.map((row) => row.id),
      id,
      direction,
    );
    if (!order) return false;
    for (const [position, rowId] of order.entries()) {
      await tx.execute(
        sql`update ${sql.identifier(table)} set position = ${position} where id = ${rowId}::uuid`,
      );
    }
    return true;
  });
}
