import type { Route } from "./+types/aide";
import type { GuideBlock, GuideInline } from "~/lib/guide";

export { loader } from "./aide.server";

export const meta: Route.MetaFunction = () => [{ title: "Aide - Administration" }];

function Inlines({ inlines }: { inlines: GuideInline[] }) {
  return inlines.map((inline, index) => {
    if (inline.kind === "strong") return <strong key={index}>{inline.text}</strong>;
    if (inline.kind === "code") {
      return (
        <code key={index} className="rounded bg-muted px-1 text-[0.9em]">
          {inline.text}
        </code>
      );
    }
    return inline.text;
  });
}

function Block({ block }: { block: GuideBlock }) {
  if (block.kind === "heading") {
    if (block.level === 1) return <h1 className="font-serif text-3xl font-bold">{block.text}</h1>;
    if (block.level === 2) return <h2 className="mt-4 text-xl font-semibold">{block.text}</h2>;
    return <h3 className="mt-2 font-semibold">{block.text}</h3>;
  }
  if (block.kind === "list") {
    return (
      <ul className="list-disc space-y-2 pl-5">
        {block.items.map((item, index) => (
          <li key={index}>
            <Inlines inlines={item} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <p>
      <Inlines inlines={block.inlines} />
    </p>
  );
}

/** The owner's guide, in the admin (decision 0140). */
export default function AdminHelp({ loaderData }: Route.ComponentProps) {
  return (
    <article className="max-w-3xl space-y-4 rounded-lg bg-white p-6 leading-relaxed">
      {loaderData.blocks.map((block, index) => (
        <Block key={index} block={block} />
      ))}
    </article>
  );
}
