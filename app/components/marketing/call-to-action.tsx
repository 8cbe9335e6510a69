import type { ReactNode } from "react";

/** The dark band at the end of a page: a last sentence and the buttons to book or ask. */
export function CallToAction({
  title,
  text,
  children,
  id = "appel-a-l-action",
}: {
  title: string;
  text?: ReactNode;
  /** The buttons. */
  children: ReactNode;
  id?: string;
}) {
  return (
    <section aria-labelledby={id} className="bg-stone-900 py-16 text-white sm:py-20">
      <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
        <h2 id={id} className="text-3xl font-bold sm:text-4xl">
          {title}
        </h2>
        {text ? <p className="mt-4 text-stone-200">{text}</p> : null}
        <div className="mt-8 flex flex-wrap justify-center gap-4">{children}</div>
      </div>
    </section>
  );
}
