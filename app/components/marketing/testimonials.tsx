import { Quote } from "lucide-react";
import type { Testimonial } from "~/content/schemas";
import { Section, SectionHeading } from "./section-heading";

/** 'Ils nous ont fait confiance': the customers' words. */
export function Testimonials({
  testimonials,
  title = "Ils nous ont fait confiance",
  id = "temoignages",
}: {
  testimonials: Testimonial[];
  title?: string;
  id?: string;
}) {
  return (
    <Section labelledBy={id} muted>
      <SectionHeading id={id} title={title} />
      <ul className="mt-12 grid gap-8 md:grid-cols-2">
        {testimonials.map((testimonial) => (
          <li key={`${testimonial.author}-${testimonial.quote}`}>
            <figure className="h-full rounded-2xl bg-white p-8 shadow-sm">
              <Quote aria-hidden="true" className="size-8 text-gold-dark" />
              <blockquote className="mt-4 text-lg leading-relaxed">
                « {testimonial.quote} »
              </blockquote>
              <figcaption className="mt-6 text-sm">
                <span className="font-semibold">{testimonial.author}</span>
                {testimonial.location ? (
                  <span className="text-muted-foreground"> · {testimonial.location}</span>
                ) : null}
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </Section>
  );
}
