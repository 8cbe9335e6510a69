/**
 * A list's order after moving `id` one place up or down (the owner's « Monter » / « Descendre »), or null
 * when it is not in the list or already at that end.
 */
export function movedOrder(
  ids: readonly string[],
  id: string,
  direction: "up" | "down",
): string[] | null {
  const index = ids.indexOf(id);
  const other = direction === "up" ? index - 1 : index + 1;
  if (index < 0 || other < 0 || other >= ids.length) return null;
  const order = [...ids];
  [order[index], order[other]] = [order[other] ?? "", order[index] ?? ""];
  return order;
}
