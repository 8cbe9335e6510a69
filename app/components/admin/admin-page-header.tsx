import type { ReactNode } from "react";
import { Link } from "react-router";

type AdminPageHeaderProps = {
  title: string;
  /** A line under the title (counts, a reminder). */
  summary?: ReactNode;
  /** Buttons on the right. */
  actions?: ReactNode;
};

/** The top of an admin list page: the way back to the dashboard, the page's title and its actions. */
export function AdminPageHeader({ title, summary, actions }: AdminPageHeaderProps) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <div>
        <p className="text-sm">
          <Link to="/admin/dashboard" className="underline-offset-4 hover:underline">
            ← Tableau de bord
          </Link>
        </p>
        <h1 className="mt-1 text-3xl font-bold">{title}</h1>
        {summary ? <p className="mt-1 text-sm text-muted-foreground">{summary}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
