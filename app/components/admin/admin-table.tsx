import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

/** A titled block of an admin page: its heading (the section's accessible name) over its content. */
export function AdminSection({
  id,
  title,
  children,
}: {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-border bg-white">
      <h2 id={id} className="border-b border-border px-5 py-4 text-xl font-semibold">
        {title}
      </h2>
      <div className="px-5 py-4">{children}</div>
    </section>
  );
}

/** A column of an AdminTable: its header, right-aligned for figures. */
type AdminTableColumn = { label: string; numeric?: boolean };

/** Cell classes matching the table's header (a figure's cell passes `numeric`). */
export function cellClass(numeric = false, className?: string): string {
  return cn("py-3 pr-4 last:pr-0", numeric && "text-right", className);
}

/**
 * A table of an admin page (sendings, errors, failed addresses): its header row from `columns`, its rows as
 * children (cells styled with cellClass), scrolling sideways on a narrow screen.
 */
export function AdminTable({
  columns,
  children,
  stackOnPhone = false,
}: {
  columns: AdminTableColumn[];
  children: ReactNode;
  /**
   * On a phone, each row is a block of its cells one under another (rows use `stackedRowClass`), instead
   * of a table scrolling sideways that hides its last column's buttons off-screen.
   */
  stackOnPhone?: boolean;
}) {
  return (
    <div className="overflow-x-auto">
      <table className={cn("w-full text-left text-sm", stackOnPhone && "max-sm:block")}>
        <thead className={cn("border-b border-border", stackOnPhone && "max-sm:sr-only")}>
          <tr>
            {columns.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={cn("py-2 pr-4 font-semibold last:pr-0", column.numeric && "text-right")}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={cn("divide-y divide-border", stackOnPhone && "max-sm:block")}>
          {children}
        </tbody>
      </table>
    </div>
  );
}

/** A row of a table that stacks on a phone (AdminTable's `stackOnPhone`), and its cells. */
export const stackedRowClass = "max-sm:block max-sm:py-3";
export const stackedCellClass = "max-sm:block max-sm:py-1 max-sm:pr-0 max-sm:text-left";
