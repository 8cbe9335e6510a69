export type ProcessStep = { title: string; description: string };

/** The numbered steps of a session, from booking to the photos. */
export function ProcessSteps({ steps }: { steps: ProcessStep[] }) {
  return (
    <ol className="grid gap-6 sm:grid-cols-2 lg:grid-flow-col lg:auto-cols-fr lg:grid-cols-none">
      {steps.map((step, index) => (
        <li key={step.title} className="rounded-2xl border border-border bg-white p-6 shadow-sm">
          <span
            aria-hidden="true"
            className="flex size-10 items-center justify-center rounded-full bg-gold text-lg font-bold text-primary"
          >
            {index + 1}
          </span>
          <h3 className="mt-4 text-lg font-semibold">
            <span className="sr-only">Étape {index + 1} : </span>
            {step.title}
          </h3>
          <p className="mt-2 text-sm text-muted-foreground">{step.description}</p>
        </li>
      ))}
    </ol>
  );
}
