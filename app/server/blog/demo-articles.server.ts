import { count } from "drizzle-orm";
import { seedDocuments } from "~/content/seed";
import { DEMO_BLOG_IMAGES_PATH } from "~/lib/image-variants";
import type { Database } from "../db/client.server";
import { blogArticles, blogCategories } from "../db/schema";
import type { log as logger } from "../logger.server";
import { sanitizeArticleHtml } from "../sanitize.server";

type Logger = typeof logger;

/**
 * Demo content: three categories and twelve French articles (one of them a draft), so that
 * a newcomer sees a living blog. Added on the first start of an empty embedded database (SEED_DEMO=0 turns
 * it off) and by `npm run db:seed` on any database.
 */

type DemoCategory = { slug: string; name: string; description: string };

const categories: DemoCategory[] = [
  {
    slug: "conseils",
    name: "Conseils",
    description:
      "Bien préparer votre séance photo : tenues, timing, accessoires et petites astuces.",
  },
  {
    slug: "coulisses",
    name: "Coulisses",
    description:
      "La vie de nos studios d'Ussel, Brive et Limoges, et ce qui se passe derrière l'objectif.",
  },
  {
    slug: "inspiration",
    name: "Inspiration",
    description: "Idées de séances, tendances et belles histoires photographiées au studio.",
  },
];

type DemoArticle = {
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  /** Cover file in public/images/demo-blog (see scripts/generate-demo-blog-images.ts). */
  cover: string;
  publishedAt: string | null;
  sections: Array<{ heading: string; paragraphs: string[]; list?: string[] }>;
  quote?: string;
};

const articles: DemoArticle[] = [
  {
    slug: "preparer-sa-seance-photo-naissance",
    title: "Comment préparer sa séance photo naissance",
    excerpt:
      "Le bon moment, la température du studio, les tenues : nos conseils pour une séance naissance sereine, pour bébé comme pour les parents.",
    category: "conseils",
    cover: "naissance",
    publishedAt: "2025-11-04T09:00:00Z",
    sections: [
      {
        heading: "Le bon moment",
        paragraphs: [
          "L'idéal se situe entre le 7e et le 15e jour de vie : bébé dort encore profondément et se laisse installer en douceur.",
          "Réservez dès le septième mois de grossesse, nous ajusterons la date après la naissance.",
        ],
      },
      {
        heading: "Ce qu'il faut apporter",
        paragraphs: [
          "Le studio est chauffé et nous fournissons les accessoires. Pensez simplement à :",
        ],
        list: [
          "une tétine si bébé en utilise une",
          "des couches et lingettes",
          "une tenue unie pour les parents",
        ],
      },
    ],
    quote: "Une séance naissance dure de 1h30 à 2h30 : on prend le temps des tétées et des câlins.",
  },
  {
    slug: "seance-photo-ete-en-exterieur",
    title: "Été : nos idées de séances photo en extérieur",
    excerpt:
      "Champs de blé, bords de lac, lumière dorée de fin de journée : l'été est la saison idéale pour une séance famille en plein air.",
    category: "inspiration",
    cover: "ete",
    publishedAt: "2025-07-02T09:00:00Z",
    sections: [
      {
        heading: "L'heure dorée",
        paragraphs: [
          "Une heure avant le coucher du soleil, la lumière devient chaude et douce : les peaux sont belles et personne ne plisse les yeux.",
        ],
      },
      {
        heading: "Nos lieux préférés en Limousin",
        paragraphs: [
          "Le lac de Vassivière, les monts d'Ambazac ou les bords de la Corrèze se prêtent à merveille aux séances en famille.",
        ],
      },
    ],
  },
  {
    slug: "mini-seances-de-noel",
    title: "Les mini-séances de Noël sont de retour",
    excerpt:
      "Décor de Noël, guirlandes et pulls assortis : réservez votre mini-séance de 20 minutes pour des photos de fêtes pleines de magie.",
    category: "coulisses",
    cover: "noel",
    publishedAt: "2025-10-20T09:00:00Z",
    sections: [
      {
        heading: "Un décor installé pour six semaines",
        paragraphs: [
          "Chaque année, nous transformons le studio en petit salon de Noël : sapin, lumières et plaid moelleux.",
          "Les mini-séances durent vingt minutes et comprennent cinq photos retouchées.",
        ],
      },
    ],
    quote: "Les créneaux partent vite : pensez à réserver dès l'ouverture du planning.",
  },
  {
    slug: "que-porter-pour-une-seance-famille",
    title: "Que porter pour une séance photo en famille ?",
    excerpt:
      "Couleurs qui s'accordent, matières, motifs à éviter : le guide simple pour des photos de famille harmonieuses et intemporelles.",
    category: "conseils",
    cover: "tenues",
    publishedAt: "2025-09-15T09:00:00Z",
    sections: [
      {
        heading: "Une palette, pas un uniforme",
        paragraphs: [
          "Choisissez deux ou trois couleurs douces qui se répondent plutôt que des tenues identiques.",
        ],
        list: [
          "évitez les gros logos",
          "préférez les matières naturelles",
          "pensez aux chaussures : elles se voient",
        ],
      },
    ],
  },
  {
    slug: "dans-les-coulisses-du-studio-de-brive",
    title: "Dans les coulisses du studio de Brive",
    excerpt:
      "Fonds, lumières, coin change pour bébé : visite guidée du studio de Brive, boulevard Jules Ferry, et de ceux qui le font vivre.",
    category: "coulisses",
    cover: "brive",
    publishedAt: "2025-08-28T09:00:00Z",
    sections: [
      {
        heading: "Un studio pensé pour les familles",
        paragraphs: [
          "Un espace chauffé pour les nouveau-nés, une salle d'attente pour les frères et sœurs, et une lumière naturelle généreuse.",
        ],
      },
    ],
  },
  {
    slug: "seance-grossesse-quel-mois",
    title: "Séance grossesse : à quel mois la réaliser ?",
    excerpt:
      "Entre le 7e et le 8e mois, le ventre est bien rond et vous êtes encore à l'aise : on vous explique pourquoi c'est le moment idéal.",
    category: "conseils",
    cover: "grossesse",
    publishedAt: "2025-06-10T09:00:00Z",
    sections: [
      {
        heading: "Le 7e ou le 8e mois",
        paragraphs: [
          "Le ventre est joliment arrondi et les poses restent confortables : c'est la fenêtre idéale.",
        ],
      },
      {
        heading: "Le coffret grossesse + naissance",
        paragraphs: [
          "Beaucoup de familles enchaînent avec la séance naissance quelques semaines plus tard, à tarif préférentiel.",
        ],
      },
    ],
  },
  {
    slug: "mariage-reserver-son-photographe",
    title: "Mariage : quand réserver son photographe ?",
    excerpt:
      "Dates prisées, rencontre préalable, repérage des lieux : tout ce qu'il faut savoir pour réserver le photographe de votre mariage.",
    category: "conseils",
    cover: "mariage",
    publishedAt: "2025-05-06T09:00:00Z",
    sections: [
      {
        heading: "Au moins 30 jours avant, idéalement bien plus",
        paragraphs: [
          "Les samedis de mai à septembre partent souvent un an à l'avance. Un mois avant le jour J est notre délai minimum.",
          "Les photos sont livrées quinze jours après le mariage.",
        ],
      },
    ],
  },
  {
    slug: "portrait-professionnel-linkedin",
    title: "Réussir son portrait professionnel pour LinkedIn",
    excerpt:
      "Un portrait soigné inspire confiance : posture, cadrage, arrière-plan et retouche naturelle pour une image professionnelle qui vous ressemble.",
    category: "conseils",
    cover: "portrait-pro",
    publishedAt: "2025-04-14T09:00:00Z",
    sections: [
      {
        heading: "Naturel avant tout",
        paragraphs: [
          "Nous guidons la posture et l'expression pour un portrait accessible, ni figé ni trop décontracté.",
        ],
      },
    ],
  },
  {
    slug: "fete-des-meres-offrir-une-seance",
    title: "Fête des mères : offrir une séance photo",
    excerpt:
      "Un cadeau qui reste : nos bons cadeaux pour une séance maman et enfants, valables un an dans nos trois studios.",
    category: "inspiration",
    cover: "fete-des-meres",
    publishedAt: "2025-05-20T09:00:00Z",
    sections: [
      {
        heading: "Un souvenir plutôt qu'un objet",
        paragraphs: [
          "La séance se réserve quand vous le souhaitez dans l'année, au studio de votre choix.",
        ],
      },
    ],
  },
  {
    slug: "photo-scolaire-nouvelle-formule",
    title: "Photo scolaire : notre nouvelle formule",
    excerpt:
      "Studio mobile, fonds colorés et commande en ligne pour les parents : découvrez comment se déroule la photo de classe avec nous.",
    category: "coulisses",
    cover: "scolaire",
    publishedAt: "2025-03-11T09:00:00Z",
    sections: [
      {
        heading: "Le studio vient à l'école",
        paragraphs: [
          "Nous installons un studio complet dans une salle de l'école, en une matinée.",
        ],
      },
    ],
  },
  {
    slug: "tendances-photo-de-famille-2025",
    title: "Les tendances de la photo de famille en 2025",
    excerpt:
      "Noir et blanc, séances lifestyle à la maison, portraits multi-générations : les envies qui reviennent le plus souvent cette année.",
    category: "inspiration",
    cover: "tendances",
    publishedAt: "2025-02-04T09:00:00Z",
    sections: [
      {
        heading: "Trois générations sur la même photo",
        paragraphs: [
          "Grands-parents, parents et enfants réunis : la séance la plus émouvante de l'année.",
        ],
      },
    ],
  },
  {
    slug: "seance-fond-noir-en-preparation",
    title: "Séance fond noir : bientôt au studio",
    excerpt:
      "Nous préparons une nouvelle séance portrait sur fond noir, tout en contraste et en élégance. Article en cours de rédaction.",
    category: "coulisses",
    cover: "fond-noir",
    publishedAt: null,
    sections: [
      {
        heading: "En préparation",
        paragraphs: [
          "Cet article est un brouillon : il n'apparaît pas sur le blog tant qu'il n'est pas publié.",
        ],
      },
    ],
  },
];

/** Cover file names, for the placeholder generator and tests. */
export const demoCoverNames = articles.map((article) => article.cover);

function contentOf(article: DemoArticle): string {
  const html = article.sections
    .map(({ heading, paragraphs, list }) =>
      [
        `<h2>${heading}</h2>`,
        ...paragraphs.map((paragraph) => `<p>${paragraph}</p>`),
        list ? `<ul>${list.map((item) => `<li>${item}</li>`).join("")}</ul>` : "",
      ].join(""),
    )
    .join("");
  const quote = article.quote ? `<blockquote>${article.quote}</blockquote>` : "";
  const closing =
    '<p>Une question ? <a href="/contact">Contactez-nous</a>, nous vous répondons avec plaisir.</p>';
  return sanitizeArticleHtml(`<p>${article.excerpt}</p>${html}${quote}${closing}`);
}

/** Adds the demo categories and articles; what already exists (same slug) is left untouched. */
export async function seedDemoContent(database: Database) {
  const insertedCategories = await database
    .insert(blogCategories)
    .values(categories)
    .onConflictDoNothing({ target: blogCategories.slug })
    .returning({ id: blogCategories.id });
  const categoryIds = new Map(
    (
      await database
        .select({ id: blogCategories.id, slug: blogCategories.slug })
        .from(blogCategories)
    ).map((category) => [category.slug, category.id]),
  );
  const insertedArticles = await database
    .insert(blogArticles)
    .values(
      articles.map((article) => ({
        slug: article.slug,
        title: article.title,
        excerpt: article.excerpt,
        content: contentOf(article),
        author: seedDocuments.identity.brand,
        categoryId: categoryIds.get(article.category) ?? null,
        coverImageUrl: `${DEMO_BLOG_IMAGES_PATH}${article.cover}.jpg`,
        published: article.publishedAt !== null,
        publishedAt: article.publishedAt ? new Date(article.publishedAt) : null,
      })),
    )
    .onConflictDoNothing({ target: blogArticles.slug })
    .returning({ id: blogArticles.id });
  return { categories: insertedCategories.length, articles: insertedArticles.length };
}

/** True when the blog has neither category nor article: a brand-new database. */
export async function blogIsEmpty(database: Database): Promise<boolean> {
  const [[articleCount], [categoryCount]] = await Promise.all([
    database.select({ value: count() }).from(blogArticles),
    database.select({ value: count() }).from(blogCategories),
  ]);
  return (articleCount?.value ?? 0) === 0 && (categoryCount?.value ?? 0) === 0;
}

/** At start-up of the embedded database: the demo blog, only when the blog is still empty. */
export async function seedDemoContentIfEmpty(database: Database, log: Logger): Promise<void> {
  try {
    if (!(await blogIsEmpty(database))) return;
    const added = await seedDemoContent(database);
    log.info("demo_content_added", added);
  } catch (error) {
    // The site works without its demo articles: report and carry on.
    log.error("demo_content_failed", { error });
  }
}
