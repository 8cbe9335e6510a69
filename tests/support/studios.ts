import { seedRedirects, seedStudios } from "../../app/content/seed";

/** The slugs of the three studios of the specification. */
type SeedSlug = "ussel" | "brive" | "limoges";
const SEED_SLUGS: readonly string[] = ["ussel", "brive", "limoges"] satisfies SeedSlug[];
const isSeedSlug = (slug: string): slug is SeedSlug => SEED_SLUGS.includes(slug);

/**
 * The three studios of the specification as the seed writes them into every new database (the e2e server's too), in
 * the shape the browser tests read: what each page must show until the owner changes it.
 */
export const studios = seedStudios.map(({ slug, data }) => {
  if (!isSeedSlug(slug)) throw new Error(`unexpected seeded studio ${slug}`);
  return {
    ...data,
    id: slug,
    pagePath: `/studio-${slug}`,
    contactPath: `/contact-studio-${slug}`,
  };
});

type Studio = (typeof studios)[number];
type ContactForm = Studio["contactForm"] & { hasTelephone: boolean };

/** Each seeded studio's contact form, by slug. */
export const contactForms = Object.fromEntries(
  studios.map((studio) => [
    studio.id,
    { ...studio.contactForm, hasTelephone: studio.contactForm.telephone !== "none" },
  ]),
) as Record<SeedSlug, ContactForm>;

/** The old addresses of SPEC §2, as seeded. */
export const redirects = seedRedirects;

export { telHref } from "../../app/lib/public-site";
