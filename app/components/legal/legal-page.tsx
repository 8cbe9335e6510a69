import type { ReactNode } from "react";
import { legalPolicy } from "~/content/legal";
import { formatDateFr } from "~/lib/dates";

// An ISO day read as its midnight UTC: the same day in Paris, written « 1er » on the first of a month.
const lastUpdated = formatDateFr(legalPolicy.lastUpdated);

/** The plain text layout of the legal pages: no photo, a readable column, dated. */
export function LegalPage({
  title,
  intro,
  children,
}: {
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 pt-32 pb-20 sm:px-6">
      <h1 className="text-4xl font-bold sm:text-5xl">{title}</h1>
      <p className="mt-3 text-sm text-muted-foreground">Dernière mise à jour : {lastUpdated}</p>
      <div className="mt-6 text-lg text-muted-foreground">{intro}</div>
      <div className="mt-10 space-y-10 leading-relaxed [&_a]:text-gold-dark [&_a]:underline [&_a:hover]:no-underline [&_h2]:text-2xl [&_h2]:font-bold [&_li]:mt-1.5 [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-6">
        {children}
      </div>
    </article>
  );
}

/** One titled part of a legal page. */
export function LegalSection({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
