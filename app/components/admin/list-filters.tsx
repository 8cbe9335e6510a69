import { Search } from "lucide-react";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Field, Input, Select } from "~/components/admin/field";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/utils";

/**
 * An admin list's search form (decision 0130): a GET form, so the search and the state live in the address
 * and work without JavaScript, as the pager's links keep them.
 */
export function ListFilters({
  label,
  searchLabel,
  search,
  states,
  state,
  submitLabel = "Filtrer",
  className,
  children,
}: {
  /** The form's accessible name (« Filtrer les messages »). */
  label: string;
  searchLabel: string;
  search: string;
  /** The `statut` choices after « Tous », by value; none: a search alone. */
  states?: Readonly<Record<string, string>>;
  state?: string | null;
  submitLabel?: string;
  className?: string;
  /** The list's other filters (its own selects), after the state. */
  children?: ReactNode;
}) {
  return (
    <Form
      method="get"
      role="search"
      aria-label={label}
      className={cn(
        "flex flex-wrap items-end gap-3",
        className ?? "rounded-xl border border-border bg-white p-4",
      )}
    >
      <Field name="q" label={searchLabel} className="min-w-56 flex-1">
        {(props) => <Input {...props} type="search" defaultValue={search} maxLength={255} />}
      </Field>
      {states ? (
        <Field name="statut" label="État">
          {(props) => (
            <Select {...props} defaultValue={state ?? ""}>
              <option value="">Tous</option>
              {Object.entries(states).map(([value, stateLabel]) => (
                <option key={value} value={value}>
                  {stateLabel}
                </option>
              ))}
            </Select>
          )}
        </Field>
      ) : null}
      {children}
      <Button type="submit" variant="outline">
        <Search aria-hidden="true" />
        {submitLabel}
      </Button>
    </Form>
  );
}
