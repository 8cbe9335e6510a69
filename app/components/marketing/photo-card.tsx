import type { ReactNode } from "react";
import { Link } from "react-router";
import { Icon } from "~/components/ui/icon";
import { Photo } from "~/components/ui/photo";
import type { IconName } from "~/content/schemas";
import type { SitePhoto } from "~/lib/media";
import { cn } from "~/lib/utils";
import { ExternalLink } from "./external-link";

/** A link of a card: a page of the site, or another site (opened in a new tab). */
export type CardLink = { href: string; external?: boolean };

type PhotoCardProps = {
  /** Decorative (alt=""): the card's title says what it shows. */
  photo: SitePhoto;
  title: string;
  description?: ReactNode;
  icon?: IconName;
  /** The whole card is clickable when it has a link (the title carries it, for screen readers). */
  link?: CardLink;
  /** Price, features… under the description. */
  children?: ReactNode;
  /** Shown at the bottom of a linked card, e.g. « Découvrir ». */
  linkHint?: string;
  sizes?: string;
  className?: string;
};

const stretched = "after:absolute after:inset-0 after:content-[''] focus-visible:outline-none";

/** A card with a photo on top: services, professional services, gift sessions. */
export function PhotoCard({
  photo,
  title,
  description,
  icon,
  link,
  children,
  linkHint,
  sizes = "(min-width: 1024px) 33vw, (min-width: 768px) 50vw, 100vw",
  className,
}: PhotoCardProps) {
  return (
    <article
      className={cn(
        "group relative flex flex-col overflow-hidden rounded-2xl border border-border bg-white shadow-sm transition-shadow hover:shadow-lg",
        link &&
          "has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-gold-dark",
        className,
      )}
    >
      <Photo
        photo={photo}
        alt=""
        sizes={sizes}
        className="aspect-[3/2] overflow-hidden"
        imgClassName="transition-transform duration-500 group-hover:scale-105"
      />
      <div className="flex flex-1 flex-col p-6">
        <h3 className="flex items-center gap-2 text-xl font-semibold">
          {icon ? <Icon name={icon} className="size-5 shrink-0 text-gold-dark" /> : null}
          {link?.external ? (
            <ExternalLink href={link.href} className={stretched}>
              {title}
            </ExternalLink>
          ) : link ? (
            <Link to={link.href} className={stretched}>
              {title}
            </Link>
          ) : (
            title
          )}
        </h3>
        {description ? <p className="mt-2 text-sm text-muted-foreground">{description}</p> : null}
        {children ? <div className="mt-4 flex flex-1 flex-col">{children}</div> : null}
        {link && linkHint ? (
          <p
            aria-hidden="true"
            className="mt-4 text-sm font-semibold text-gold-dark group-hover:underline"
          >
            {linkHint} →
          </p>
        ) : null}
      </div>
    </article>
  );
}
