import type { Picture } from "imagetools-core";
import type { ReactNode } from "react";
import { Photo, preloadPhoto } from "~/components/ui/photo";
import type { SitePhoto } from "~/lib/media";
import { cn } from "~/lib/utils";

export const PAGE_HERO_SIZES = "100vw";

/**
 * The preload of a page's hero photo (its LCP): `<link {...pageHeroPreload(hero)} />` in the page's
 * component, which React hoists to the head (`links` does not receive the loader's data).
 */
export function pageHeroPreload(photo: Picture | SitePhoto) {
  return preloadPhoto(photo, PAGE_HERO_SIZES);
}

type PageHeroProps = {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Small line above the title. */
  eyebrow?: ReactNode;
  /** A photo of the media library (decorative here: the title says what the page is), or a build photo. */
  photo: SitePhoto | Picture;
  /** Buttons or other content under the subtitle. */
  children?: ReactNode;
  /** A lower band (contact pages): 45 % of the screen's height instead of 60 %. */
  short?: boolean;
};

/**
 * The dark photo band at the top of a page: the page's only `h1`, under the transparent header (so pages
 * with a PageHero keep the header transparent at the top, as SPEC §2 describes).
 */
export function PageHero({ title, subtitle, eyebrow, photo, children, short }: PageHeroProps) {
  return (
    <section
      className={cn(
        "relative isolate flex items-end overflow-hidden bg-stone-900 pt-32 pb-16 text-white",
        short ? "min-h-[45svh]" : "min-h-[60svh]",
      )}
    >
      <Photo
        {...("picture" in photo ? { photo } : { picture: photo })}
        alt=""
        sizes={PAGE_HERO_SIZES}
        priority
        className="absolute inset-0 -z-20"
      />
      <div className="absolute inset-0 -z-10 bg-gradient-to-b from-black/70 via-black/55 to-black/80" />
      <div className="mx-auto w-full max-w-7xl px-4 sm:px-6">
        {eyebrow ? (
          <p className="text-sm font-semibold tracking-[0.2em] text-gold uppercase">{eyebrow}</p>
        ) : null}
        <h1 className="mt-3 max-w-4xl text-4xl leading-tight font-bold sm:text-5xl">{title}</h1>
        {subtitle ? <p className="mt-5 max-w-2xl text-lg text-stone-100">{subtitle}</p> : null}
        {children ? <div className="mt-8 flex flex-wrap gap-4">{children}</div> : null}
      </div>
    </section>
  );
}
