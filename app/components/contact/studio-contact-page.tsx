import { ContactForm } from "~/components/contact/contact-form";
import { StudioContactCards } from "~/components/contact/studio-contact-cards";
import { PageHero } from "~/components/marketing/page-hero";
import { HeroPreload } from "~/components/studio/hero-preload";
import { studioNameInSentence } from "~/components/studio/studio-name";
import { useSite } from "~/lib/public-site";
import type { StudioContactData } from "~/server/content/studio-pages.server";

/** A studio's contact page (/contact-studio-{slug}): its cards and its own form. */
export function StudioContactPage({ studio }: { studio: StudioContactData }) {
  const { brand } = useSite();
  return (
    <>
      <HeroPreload photo={studio.photo} />
      <PageHero
        photo={studio.photo.picture}
        eyebrow={brand}
        title={`Contacter le ${studioNameInSentence(studio)}`}
        subtitle="Une question, un projet de séance ? Appelez-nous, passez au studio ou laissez-nous un message : nous vous répondons rapidement."
        short
      />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-[1fr_2fr]">
        <StudioContactCards studio={studio} />
        <div className="rounded-2xl border border-border bg-white p-6 shadow-sm sm:p-8">
          <ContactForm studio={studio.slug} settings={studio.contactForm} />
        </div>
      </div>
    </>
  );
}
