import { z } from "~/lib/zod";
import { parisDateTimeToInstant } from "./dates";
import { isUuid } from "./forms";
import { SLUG_PATTERN, slugify } from "./slug";

/*
 * The admin forms' rules and messages (SPEC §5, §9), used by the browser for instant messages and by the
 * actions as the authority.
 */

/** An administrator's address: valid, at most 255 characters (the column's size), as SPEC §4 says. */
const adminEmail = z.string().trim().max(255, "Email trop long").pipe(z.email("Email invalide"));

const PASSWORD_TOO_SHORT = "Le mot de passe doit contenir au moins 6 caractères";

export const loginSchema = z.object({
  email: adminEmail,
  password: z.string().min(6, PASSWORD_TOO_SHORT),
});

/** "Mot de passe oublié ?" and the invitation of an administrator: one address. */
export const emailOnlySchema = z.object({ email: adminEmail });

/** A new password (reset or invitation): the login's rule, at most 128 characters, typed twice. */
export const newPasswordSchema = z
  .object({
    password: z
      .string()
      .min(6, PASSWORD_TOO_SHORT)
      .max(128, "Le mot de passe doit contenir au plus 128 caractères"),
    confirmation: z.string(),
  })
  .refine((value) => value.password === value.confirmation, {
    path: ["confirmation"],
    message: "Les deux mots de passe ne correspondent pas",
  });

/** The first administrator, created from the link the server prints at its first start. */
export const firstAdministratorSchema = z.object({ email: adminEmail }).and(newPasswordSchema);

export const LIMITS = {
  title: 200,
  slug: 200,
  excerpt: 500,
  author: 100,
  seoTitle: 60,
  seoDescription: 160,
} as const;

const SLUG_MESSAGE = "Le slug doit contenir uniquement des lettres minuscules, chiffres et tirets";

/** Empty or blank text becomes null (SPEC §5: empty category and SEO values are saved as null). */
const optionalText = (max?: number, message?: string) =>
  z
    .string()
    .trim()
    .max(max ?? Number.MAX_SAFE_INTEGER, message)
    .optional()
    .transform((value) => (value ? value : null));

/** Only images stored by our upload route (or the site's own files) may be referenced by an article. */
const imageUrl = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || /^\/[^/\\]/.test(value), "Adresse d'image invalide");

/** A cover's focal point in % (0 to 100), 50 (the centre) when absent. */
const focalCoordinate = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? Number(value) : 50))
  .refine(
    (value) => Number.isInteger(value) && value >= 0 && value <= 100,
    "Point d'intérêt invalide",
  );

export const ALT_REQUIRED_MESSAGE = "Chaque image du contenu doit avoir un texte alternatif";

export const SCHEDULE_INVALID_MESSAGE = "Date et heure de publication invalides";
export const SCHEDULE_PAST_MESSAGE = "La date de publication programmée doit être dans le futur";

/** A publication time typed in Paris time (`<input type="datetime-local">`), as an instant; empty: none. */
const scheduledAt = z
  .string()
  .trim()
  .optional()
  .transform((value, context) => {
    if (!value) return null;
    const instant = parisDateTimeToInstant(value);
    if (instant) return instant;
    context.addIssue({ code: "custom", message: SCHEDULE_INVALID_MESSAGE });
    return z.NEVER;
  });

const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on");

/** The fields of the article form; `articleSchema` adds the rule between them. */
const articleFields = z.object({
  title: z
    .string()
    .trim()
    .min(1, "Le titre est requis")
    .max(LIMITS.title, "Le titre est trop long"),
  slug: z
    .string()
    .trim()
    .min(1, "Le slug est requis")
    .max(LIMITS.slug, "Le slug est trop long")
    .regex(SLUG_PATTERN, SLUG_MESSAGE),
  excerpt: z
    .string()
    .trim()
    .min(1, "L'extrait est requis")
    .max(LIMITS.excerpt, "L'extrait est trop long"),
  content: z
    .string()
    .refine((html) => htmlHasText(html), "Le contenu est requis")
    .refine((html) => imagesHaveAlt(html), ALT_REQUIRED_MESSAGE),
  author: z
    .string()
    .trim()
    .min(1, "L'auteur est requis")
    .max(LIMITS.author, "Le nom de l'auteur est trop long"),
  category_id: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || isUuid(value), "Catégorie inconnue"),
  cover_image_url: imageUrl,
  cover_focal_x: focalCoordinate,
  cover_focal_y: focalCoordinate,
  seo_image_url: imageUrl,
  seo_title: optionalText(LIMITS.seoTitle, "Le titre SEO est trop long"),
  seo_description: optionalText(LIMITS.seoDescription, "La description SEO est trop longue"),
  /** « Programmer la publication »: a draft published by the job queue at this time. */
  scheduled_at: scheduledAt,
  /** Send the article to the active subscribers when it is published (now or at the scheduled time). */
  newsletter_on_publish: checkbox,
  /** The button pressed: 'publish' (« Publier ») publishes now; anything else saves. */
  intent: z.string().optional(),
});

/** The fields that only the form's buttons save (the autosave of a draft leaves them alone). */
export const SCHEDULING_FIELDS = ["scheduled_at", "newsletter_on_publish"] as const;

/**
 * The article form. A publication time must be in the future when saving; « Publier » publishes now and
 * ignores it. Checked whatever the other fields hold, so every message shows at once.
 */
export const articleSchema = articleFields.refine(
  (article) =>
    article.intent === "publish" ||
    article.scheduled_at === null ||
    article.scheduled_at.getTime() > Date.now(),
  {
    path: ["scheduled_at"],
    message: SCHEDULE_PAST_MESSAGE,
    when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === "scheduled_at"),
  },
);

export type ArticleInput = z.infer<typeof articleSchema>;

/**
 * What an autosaved draft needs: a title (it names the draft in the dashboard); every other field may
 * still be empty but is held to the same limits. An empty slug follows the title. Publishing still
 * requires the whole `articleSchema`.
 */
export const articleDraftSchema = articleFields
  .omit({ scheduled_at: true, newsletter_on_publish: true, intent: true })
  .extend({
    slug: z
      .string()
      .trim()
      .max(LIMITS.slug, "Le slug est trop long")
      .refine((slug) => slug === "" || SLUG_PATTERN.test(slug), SLUG_MESSAGE)
      .optional(),
    excerpt: z.string().trim().max(LIMITS.excerpt, "L'extrait est trop long").default(""),
    content: z
      .string()
      .refine((html) => imagesHaveAlt(html), ALT_REQUIRED_MESSAGE)
      .default(""),
    author: z.string().trim().max(LIMITS.author, "Le nom de l'auteur est trop long").default(""),
  })
  .transform((draft) => ({
    ...draft,
    slug: draft.slug || slugify(draft.title),
    content: htmlHasText(draft.content) ? draft.content : "",
  }))
  .refine((draft) => draft.slug !== "", {
    path: ["slug"],
    message: "Le slug est requis",
  });

export type ArticleDraftInput = z.infer<typeof articleDraftSchema>;

/** True when every `<img>` of the editor's HTML has a non-blank `alt` (SPEC: images are described). */
export function imagesHaveAlt(html: string): boolean {
  for (const [tag] of html.matchAll(/<img\b[^>]*>/gi)) {
    const alt = /\balt\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
    if (!(alt?.[1] ?? alt?.[2] ?? "").trim()) return false;
  }
  return true;
}

/** True when the editor's HTML holds some text or an image (an empty editor gives `<p></p>`). */
export function htmlHasText(html: string): boolean {
  if (/<img\b/i.test(html)) return true;
  return (
    html
      .replace(/<[^>]*>/g, "")
      .replace(/&nbsp;|&#160;/g, " ")
      .trim().length > 0
  );
}

export const categorySchema = z
  .object({
    name: z.string().trim().max(100, "Le nom est trop long"),
    slug: z.string().trim().max(LIMITS.slug, "Le slug est trop long"),
    description: optionalText(),
  })
  .superRefine((value, context) => {
    if (!value.name || !value.slug) {
      context.addIssue({
        code: "custom",
        path: [value.name ? "slug" : "name"],
        message: "Le nom et le slug sont requis",
      });
    } else if (!SLUG_PATTERN.test(value.slug)) {
      context.addIssue({ code: "custom", path: ["slug"], message: SLUG_MESSAGE });
    }
  });

export type CategoryInput = z.infer<typeof categorySchema>;
