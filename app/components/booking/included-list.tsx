/** « Ce qui est compris » of a session: its price card's features, or what the owner typed (decision 0127). */
export function IncludedList({ lines, className }: { lines: string[]; className?: string }) {
  if (lines.length === 0) return null;
  return (
    <section aria-labelledby="ce-qui-est-compris" className={className}>
      <h2 id="ce-qui-est-compris" className="text-base font-semibold">
        Ce qui est compris
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
