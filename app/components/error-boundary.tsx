import type { ReactNode } from "react";
import { type ErrorResponse, isRouteErrorResponse } from "react-router";

/*
 * The one error boundary (decision 0133): each route says what to show for the statuses it knows
 * (an unknown article: 404) and what to show otherwise; reading the error is done once, here.
 */

/** What an error says, once read: its HTTP status (null for a thrown error), a short detail, the stack. */
export type ErrorInfo = {
  status: number | null;
  details: string;
  /** Only in development: a visitor never sees the code's insides. */
  stack?: string;
};

type GeneralErrorBoundaryProps = {
  error: unknown;
  /** What to show for a given status (e.g. 404: 'Article non trouvé'). */
  statusHandlers?: Partial<Record<number, (error: ErrorResponse) => ReactNode>>;
  /** What to show for any other error answer or thrown error. */
  fallback: (info: ErrorInfo) => ReactNode;
};

/** Reads an error thrown by a loader, an action or a render. */
export function errorInfo(error: unknown): ErrorInfo {
  if (isRouteErrorResponse(error)) {
    return { status: error.status, details: `${error.status} ${error.statusText || ""}`.trim() };
  }
  if (error instanceof Error) {
    return {
      status: null,
      details: error.message,
      stack: import.meta.env.DEV ? error.stack : undefined,
    };
  }
  return { status: null, details: "Une erreur inattendue s'est produite." };
}

/** A route's error boundary: the status's own page when the route has one, else its fallback. */
export function GeneralErrorBoundary({
  error,
  statusHandlers = {},
  fallback,
}: GeneralErrorBoundaryProps) {
  if (isRouteErrorResponse(error)) {
    const handler = statusHandlers[error.status];
    if (handler) return <>{handler(error)}</>;
  }
  return <>{fallback(errorInfo(error))}</>;
}

/** The public pages' error page: a title, a sentence and the way back, centred under the header. */
export function ErrorPage({
  title,
  description,
  action,
}: {
  title: string;
  description: string;
  action: ReactNode;
}) {
  return (
    <section className="flex min-h-[70vh] flex-col items-center justify-center px-6 pt-28 pb-16 text-center">
      <h1 className="text-4xl font-bold">{title}</h1>
      <p className="mt-4 max-w-md text-muted-foreground">{description}</p>
      <div className="mt-8">{action}</div>
    </section>
  );
}

/**
 * A public page's error boundary: its own words for a 404, a general « Une erreur est survenue » otherwise,
 * both with the same way back.
 */
export function PageErrorBoundary({
  error,
  notFound,
  failure,
  action,
}: {
  error: unknown;
  notFound: { title: string; description: string };
  /** The sentence under « Une erreur est survenue ». */
  failure: string;
  action: ReactNode;
}) {
  return (
    <GeneralErrorBoundary
      error={error}
      statusHandlers={{ 404: () => <ErrorPage {...notFound} action={action} /> }}
      fallback={() => (
        <ErrorPage title="Une erreur est survenue" description={failure} action={action} />
      )}
    />
  );
}
