import { Clock, MapPin, Phone } from "lucide-react";
import type { ReactNode } from "react";
import { Closures, OpeningHours } from "~/components/studio/opening-hours";
import type { Closure, StudioData } from "~/content/schemas";
import { telHref } from "~/lib/public-site";

type ContactCardsStudio = Pick<StudioData, "address" | "phone" | "email" | "hours"> & {
  closures: Closure[];
};

/** Address, phone, e-mail, hours and closures to come of one studio. */
export function StudioContactCards({ studio }: { studio: ContactCardsStudio }) {
  return (
    <ul className="grid content-start gap-4">
      <Card icon={<MapPin aria-hidden="true" />} title="Adresse">
        <address className="not-italic">
          {studio.address.street}
          <br />
          {studio.address.postalCode} {studio.address.city}
        </address>
      </Card>
      <Card icon={<Phone aria-hidden="true" />} title="Téléphone">
        <a
          href={telHref(studio.phone)}
          className="inline-flex min-h-11 items-center font-semibold text-gold-dark hover:underline"
        >
          {studio.phone}
        </a>
        <br />
        <a
          href={`mailto:${studio.email}`}
          className="inline-block py-1.5 break-all text-gold-dark hover:underline"
        >
          {studio.email}
        </a>
      </Card>
      <Card icon={<Clock aria-hidden="true" />} title="Horaires">
        <OpeningHours hours={studio.hours} />
        <Closures closures={studio.closures} className="mt-3" />
      </Card>
    </ul>
  );
}

function Card({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4 rounded-2xl border border-border bg-white p-6 shadow-sm">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-muted text-gold-dark [&_svg]:size-5">
        {icon}
      </span>
      <div className="text-sm">
        <h2 className="text-lg font-semibold">{title}</h2>
        <div className="mt-1 text-muted-foreground">{children}</div>
      </div>
    </li>
  );
}
