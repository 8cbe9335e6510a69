import { sessionFacts } from "~/content/prestations";
import type {
  ContactFormSettings,
  DayOfWeek,
  Documents,
  OpeningRange,
  StudioData,
  WeeklyHours,
} from "~/content/schemas";
import type { Price } from "~/lib/prices";

/**
 * The seed: the business's facts as the specification gives them, written into the database when its tables
 * are empty (a new database, or one from before the content moved to the database, decision 0070). Values marked PLACEHOLDER are not known
 * yet; the dashboard's go-live checklist lists each one until the owner replaces it from the admin.
 * Photos are named by their demo file (app/assets/photos/{name}.jpg) as `demo:{name}`; the seed gives each
 * demo photo a row of the media library and writes that row's id in their place.
 */

export const DEMO_PREFIX = "demo:";
const demo = (name: string) => `${DEMO_PREFIX}${name}`;

const fixed = (euros: number): Price => ({ kind: "fixed", euros });
const from = (euros: number): Price => ({ kind: "from", euros });

// --- Identity and legal details ----------------------------------------------------------------------------

const identity: Documents["identity"] = {
  /** PLACEHOLDER: the studio's brand name. */
  brand: "Studio Photo Exemple",
  tagline:
    "Votre studio photo en Limousin : un service complet qui prend soin de vous à chaque étape de l'expérience.",
  experience: "plus de 15 ans d'expérience",
  label: "Portraitiste de France",
  /** PLACEHOLDER */
  email: "contact@example.com",
  /** PLACEHOLDER: the head office's number (the range 05 36 49 xx xx is reserved for fiction). */
  phone: "05 36 49 10 01",
  /** PLACEHOLDER: the external selfie-booth rental site. */
  selfieBoothUrl: "https://borne-selfie.example.com",
  social: {
    facebook: "https://www.facebook.com/studiophotoexemple",
    instagram: "https://www.instagram.com/studiophotoexemple",
    youtube: "https://www.youtube.com/@studiophotoexemple",
  },
  priceRange: "€€",
  shareImage: null,
};

const legal: Documents["legal"] = {
  companyName: "Studio Photo Exemple SARL",
  legalForm: "Société à responsabilité limitée (SARL) au capital de 1 000 €",
  address: "19 rue du 4 Septembre, 19200 Ussel",
  rcs: "RCS Brive 000 000 000",
  siret: "000 000 000 00000",
  vatNumber: "FR00 000000000",
  phone: "05 36 49 10 01",
  email: "contact@example.com",
  publicationDirector: "Prénom Nom, gérant(e)",
  host: {
    name: "Hébergeur Exemple SAS",
    address: "1 rue de l'Exemple, 75000 Paris, France",
    phone: "01 00 00 00 00",
    website: "https://hebergeur.example.com",
  },
  vatRegime: "franchise",
  mediator: {
    name: "Médiateur de la consommation Exemple",
    website: "https://mediateur.example.com",
  },
};

// --- Prices ---------------------------------------------------------------------------------------------------

const printIncluded = "Un tirage papier 20x30 cm offert";

const prices: Documents["prices"] = {
  tabs: [
    {
      id: "particuliers",
      label: "Particuliers",
      cards: [
        {
          title: "Séance Famille",
          price: fixed(79),
          icon: "Users",
          badge: "",
          features: [
            `Séance de ${sessionFacts.famille.duration} en studio`,
            printIncluded,
            `Découverte de vos photos ${sessionFacts.famille.discovery}`,
          ],
          link: "/portrait-famille",
          sessionType: "",
        },
        {
          title: "Séance Grossesse",
          price: fixed(79),
          icon: "Heart",
          badge: "",
          features: [
            `Séance de ${sessionFacts.grossesse.duration}, ${sessionFacts.grossesse.idealMoment}`,
            printIncluded,
            `Découverte de vos photos ${sessionFacts.grossesse.discovery}`,
          ],
          link: "/prestations/grossesse",
          sessionType: "",
        },
        {
          title: "Séance Naissance",
          price: fixed(99),
          icon: "Baby",
          badge: "",
          features: [
            `Séance de ${sessionFacts.naissance.duration}, ${sessionFacts.naissance.idealMoment}`,
            printIncluded,
            `Découverte de vos photos ${sessionFacts.naissance.discovery}`,
          ],
          link: "/prestations/naissances",
          sessionType: "",
        },
        {
          title: "Coffret Grossesse + Naissance",
          price: fixed(129),
          icon: "Gift",
          badge: "Meilleur Prix",
          features: [
            "Une séance grossesse puis une séance naissance",
            "Un tirage papier 20x30 cm offert à chaque séance",
            "Découverte de vos photos 15 jours après chaque séance",
          ],
          link: "/prestations/naissances",
          sessionType: "",
        },
        {
          title: "Portrait CV",
          price: fixed(59),
          icon: "IdCard",
          badge: "",
          features: [
            "Portrait professionnel en studio",
            "Photos retouchées pour votre CV et vos réseaux",
            "Conseils de pose et de tenue",
          ],
          link: "/professionnels",
          sessionType: "",
        },
      ],
    },
    {
      id: "pro",
      label: "Pro & Mariages",
      cards: [
        {
          title: "Mariages",
          price: from(990),
          icon: "Heart",
          badge: "Populaire",
          features: [
            "Reportage des préparatifs à la soirée",
            `Réservation ${sessionFacts.mariage.booking}`,
            `Vos photos livrées ${sessionFacts.mariage.delivery}`,
          ],
          link: "/prestations/mariages",
          sessionType: "",
        },
        {
          title: "Prestations Pro",
          price: { kind: "quote" },
          icon: "Briefcase",
          badge: "",
          features: [
            "Portraits d'équipe et de dirigeants",
            "Reportages et événements d'entreprise",
            "Devis personnalisé selon votre projet",
          ],
          link: "/professionnels",
          sessionType: "",
        },
      ],
    },
  ],
};

// --- Gendarmerie ----------------------------------------------------------------------------------------------

const gendarmerie: Documents["gendarmerie"] = {
  offer: { title: "Offre spéciale 2025", validFrom: "", validUntil: "" },
  services: [
    {
      title: "Photos de groupe",
      price: fixed(790),
      icon: "Users",
      description: "La photo officielle de votre unité ou de votre promotion, en grand format.",
      features: [
        "Installation des gradins et de l'éclairage",
        "Retouche de chaque photo",
        "Livraison sous 48 à 72 h",
      ],
      photo: demo("gendarmerie-groupe"),
      youtubeId: "",
      videoTitle: "",
    },
    {
      title: "Reportage cérémonie",
      price: fixed(840),
      icon: "Medal",
      description: "Prises d'armes, remises de décorations et passations de commandement.",
      features: [
        "Reportage complet de la cérémonie",
        "Portraits des récipiendaires",
        "Galerie en ligne privée",
      ],
      photo: demo("gendarmerie-ceremonie"),
      youtubeId: "",
      videoTitle: "",
    },
    {
      title: "Gala et studio",
      price: fixed(750),
      icon: "PartyPopper",
      description: "Un studio photo installé sur place pendant votre gala ou votre soirée.",
      features: [
        "Fond et éclairage de studio",
        "Portraits individuels et de groupe",
        "Photos de l'ambiance de la soirée",
      ],
      photo: demo("gendarmerie-gala"),
      youtubeId: "",
      videoTitle: "",
    },
    {
      title: "Vidéo de cérémonie",
      price: fixed(990),
      icon: "Clapperboard",
      description: "Le film de votre cérémonie, monté et prêt à partager.",
      features: [
        "Tournage de la cérémonie",
        "Montage et habillage",
        "Fichier prêt pour vos réseaux",
      ],
      photo: demo("gendarmerie-video"),
      /** PLACEHOLDER video, played from www.youtube-nocookie.com when the visitor asks for it. */
      youtubeId: "M7lc1UVf-VE",
      videoTitle: "Exemple de vidéo de cérémonie",
    },
  ],
  packages: [
    {
      title: "Formule 1",
      subtitle: "Cérémonie et gala",
      discountPrice: fixed(1200),
      originalPrice: fixed(1590),
      icon: "Medal",
      description: "L'essentiel pour garder le souvenir de votre cérémonie et de votre soirée.",
      features: ["Reportage cérémonie", "Gala et studio"],
      highlighted: false,
    },
    {
      title: "Formule 2",
      subtitle: "Groupe, cérémonie et gala",
      discountPrice: fixed(1900),
      originalPrice: fixed(2380),
      icon: "Star",
      description: "La formule la plus choisie : toute la journée en photos.",
      features: ["Photos de groupe", "Reportage cérémonie", "Gala et studio"],
      highlighted: true,
    },
    {
      title: "Formule 3",
      subtitle: "Photo et vidéo",
      discountPrice: fixed(2700),
      originalPrice: fixed(3370),
      icon: "Trophy",
      description: "Toute la journée en photos, et le film de votre cérémonie.",
      features: ["Photos de groupe", "Reportage cérémonie", "Gala et studio", "Vidéo de cérémonie"],
      highlighted: false,
    },
  ],
  selfieBooth: {
    title: "Location de borne selfie",
    price: fixed(490),
    unit: "par jour",
    icon: "Camera",
    description:
      "Une borne photo en libre-service pour vos galas et vos soirées : vos invités repartent avec leurs photos imprimées.",
    features: [
      "Impressions instantanées",
      "Fond et accessoires fournis",
      "Installation et reprise par nos soins",
    ],
    photo: demo("borne-selfie"),
  },
  studioSlug: "ussel",
};

// --- Gift sessions, testimonials ------------------------------------------------------------------------------

const giftSessions: Documents["giftSessions"] = {
  sessions: [
    {
      title: "Séance Iris",
      price: fixed(49),
      description: "La photo de votre iris en très gros plan, un tableau unique et étonnant.",
      photo: demo("cadeau-iris"),
      link: "https://cadeaux.example.com/seance-iris",
      sessionType: "",
    },
    {
      title: "Séance Fashion",
      price: fixed(195),
      description: "Maquillage, tenues et lumière de studio : une séance façon magazine de mode.",
      photo: demo("cadeau-fashion"),
      link: "https://cadeaux.example.com/seance-fashion",
      sessionType: "",
    },
    {
      title: "Séance Super-Héros",
      price: fixed(49),
      description: "Costumes et mises en scène pour les enfants qui rêvent de sauver le monde.",
      photo: demo("cadeau-super-heros"),
      link: "https://cadeaux.example.com/seance-super-heros",
      sessionType: "",
    },
    {
      title: "Séance Princesse",
      price: fixed(49),
      description: "Robes, couronnes et décor féerique pour une séance de conte de fées.",
      photo: demo("cadeau-princesse"),
      link: "https://cadeaux.example.com/seance-princesse",
      sessionType: "",
    },
  ],
};

/** PLACEHOLDER: sample quotes, to replace with real customers' words (with their consent). */
const testimonials: Documents["testimonials"] = {
  gendarmerie: [
    {
      quote:
        "Photos de groupe et cérémonie parfaitement organisées, dans le respect du protocole. Les photos étaient prêtes en deux jours.",
      author: "Adjudant-chef M.",
      location: "Compagnie de gendarmerie, Corrèze",
    },
    {
      quote:
        "Le studio installé pendant notre gala a eu un succès fou. Une équipe discrète, efficace et très professionnelle.",
      author: "Capitaine L.",
      location: "Groupement de gendarmerie, Haute-Vienne",
    },
  ],
  portraitFamille: [
    {
      quote:
        "Une séance pleine de rires avec nos trois enfants. Nous avons eu du mal à choisir tellement les photos sont belles !",
      author: "Claire et Julien",
      location: "Ussel",
    },
    {
      quote:
        "Un accueil chaleureux, beaucoup de patience avec mamie et les petits-enfants, et un tableau qui trône dans le salon.",
      author: "Martine",
      location: "Brive",
    },
  ],
  grossesse: [
    {
      quote:
        "Je me suis sentie belle et à l'aise du début à la fin. Les conseils de tenue avant la séance m'ont beaucoup aidée.",
      author: "Sophie",
      location: "Ambazac",
    },
    {
      quote:
        "Nous avons fait le coffret grossesse et naissance : deux séances magnifiques qui racontent notre histoire.",
      author: "Laura et Mehdi",
      location: "Ussel",
    },
  ],
};

// --- Photos of the pages, gallery -----------------------------------------------------------------------------

const styles = (page: string, entries: Array<[title: string, alt: string]>) =>
  entries.map(([title], index) => ({ title, photo: demo(`style-${page}-${index + 1}`) }));

/** Alternative texts of the demo photos that are not decorative. */
const styleAlts: Record<string, Array<[title: string, alt: string]>> = {
  "portrait-famille": [
    ["Fond noir", "Portrait en clair-obscur sur fond noir"],
    ["Fond blanc", "Portrait lumineux sur fond blanc"],
    ["Fond couleur", "Portrait sur un fond de couleur vive"],
    ["Famille", "Parents et enfants réunis au studio"],
    ["Fratrie", "Frères et sœurs serrés les uns contre les autres"],
    ["Couple", "Couple complice en studio"],
    ["Enfant", "Portrait d'enfant qui éclate de rire"],
    ["Générations", "Grands-parents, parents et petits-enfants"],
    ["Fashion", "Portrait de mode avec maquillage et lumière travaillée"],
  ],
  grossesse: [
    ["Silhouette", "Silhouette de femme enceinte en contre-jour"],
    ["Fond noir", "Ventre rond sur fond noir"],
    ["En couple", "Futurs parents, mains sur le ventre"],
    ["Avec l'aîné", "Un enfant embrasse le ventre de sa maman"],
    ["Robe longue", "Future maman en robe longue de studio"],
    ["Fond blanc", "Portrait lumineux de grossesse sur fond blanc"],
    ["Détail", "Mains en cœur sur le ventre"],
    ["Naturel", "Future maman souriante en tenue simple"],
  ],
  naissances: [
    ["Cocon", "Nouveau-né endormi dans un cocon de laine"],
    ["Panier", "Bébé installé dans un panier en osier"],
    ["Avec les parents", "Nouveau-né dans les bras de ses parents"],
    ["Fratrie", "Le grand frère veille sur le bébé"],
    ["Détails", "Petits pieds de nouveau-né"],
    ["Épuré", "Nouveau-né sur un drap blanc"],
  ],
};

const pagePhotos: Documents["pagePhotos"] = {
  slots: {
    "accueil.hero": demo("accueil-hero"),
    "prestations.hero": demo("prestations-hero"),
    "prestations.naissance": demo("naissances-hero"),
    "prestations.grossesse": demo("grossesse-hero"),
    "prestations.portrait-famille": demo("portrait-famille-hero"),
    "prestations.mariages": demo("mariages-hero"),
    "prestations.seances-a-offrir": demo("seances-a-offrir-hero"),
    "prestations.professionnels": demo("professionnels-hero"),
    "portrait-famille.hero": demo("portrait-famille-hero"),
    "grossesse.hero": demo("grossesse-hero"),
    "naissances.hero": demo("naissances-hero"),
    "mariages.hero": demo("mariages-hero"),
    "seances-a-offrir.hero": demo("seances-a-offrir-hero"),
    "professionnels.hero": demo("professionnels-hero"),
    "professionnels.portrait": demo("pro-portrait"),
    "professionnels.reportage": demo("pro-reportage"),
    "professionnels.evenement": demo("pro-evenement"),
    "professionnels.borne-selfie": demo("borne-selfie"),
    "professionnels.gendarmerie": demo("gendarmerie-hero"),
    "professionnels.scolaire": demo("scolaire-hero"),
    "gendarmerie.hero": demo("gendarmerie-hero"),
    "scolaire.hero": demo("scolaire-hero"),
    "scolaire.studio-mobile": demo("scolaire-studio-mobile"),
    "contact.hero": demo("accueil-hero"),
  },
  galleries: {
    "portrait-famille": styles("portrait-famille", styleAlts["portrait-famille"] ?? []),
    grossesse: styles("grossesse", styleAlts.grossesse ?? []),
    naissances: styles("naissances", styleAlts.naissances ?? []),
    boudoir: [],
  },
};

const galleryEntries: Array<
  [title: string, category: "Événement" | "Famille" | "Mariage", slug: string]
> = [
  ["Mariage de Camille et Thomas", "Mariage", "mariage-camille-thomas"],
  ["Famille Martin au studio", "Famille", "famille-martin"],
  ["Gala de la gendarmerie de Corrèze", "Événement", "gala-gendarmerie-correze"],
  ["Mariage de Léa et Antoine", "Mariage", "mariage-lea-antoine"],
  ["Séance en famille au lac de Sechemailles", "Famille", "famille-lac-sechemailles"],
  ["Inauguration d'une boutique à Brive", "Événement", "inauguration-boutique-brive"],
  ["Mariage de Sarah et Julien", "Mariage", "mariage-sarah-julien"],
  ["Trois générations réunies", "Famille", "trois-generations"],
  ["Remise de diplômes d'un lycée d'Ussel", "Événement", "remise-diplomes-ussel"],
  ["Mariage de Manon et Kevin", "Mariage", "mariage-manon-kevin"],
  ["Famille Dubois en automne", "Famille", "famille-dubois-automne"],
  ["Séminaire d'entreprise à Limoges", "Événement", "seminaire-limoges"],
  ["Mariage de Chloé et Maxime", "Mariage", "mariage-chloe-maxime"],
  ["Frères et sœurs au studio d'Ambazac", "Famille", "fratrie-ambazac"],
  ["Prise d'armes à Tulle", "Événement", "prise-armes-tulle"],
  ["Mariage d'Emma et Lucas", "Mariage", "mariage-emma-lucas"],
  ["Famille Bernard à la campagne", "Famille", "famille-bernard"],
  ["Salon des artisans d'Ussel", "Événement", "salon-artisans-ussel"],
  ["Mariage de Julie et Romain", "Mariage", "mariage-julie-romain"],
];

const gallery: Documents["gallery"] = {
  items: galleryEntries.map(([title, category, slug], index) => ({
    title,
    category,
    photo: demo(`galerie-${String(index + 1).padStart(2, "0")}`),
    /** PLACEHOLDER: the gallery's address on the photo-delivery service. */
    link: `https://galeries.example.com/${slug}`,
  })),
};

/** Payments start off: the owner allows each way of paying and puts vouchers on sale herself (0162). */
const payments: Documents["payments"] = {
  vouchersOnSale: false,
  card: false,
  transfer: false,
  studio: false,
  transferHolder: "",
  transferIban: "",
  transferDays: 8,
  voucherValidityMonths: 12,
  amountPresets: [50, 100, 150, 200],
  amountMin: 30,
  amountMax: 500,
};

export const seedDocuments: Documents = {
  identity,
  legal,
  prices,
  gendarmerie,
  giftSessions,
  testimonials,
  pagePhotos,
  gallery,
  payments,
};

// --- Studios ---------------------------------------------------------------------------------------------------

function everyDay(days: DayOfWeek[], ranges: OpeningRange[]): WeeklyHours {
  return Object.fromEntries(days.map((day) => [day, ranges]));
}
const tuesdayToFriday: DayOfWeek[] = ["Tuesday", "Wednesday", "Thursday", "Friday"];
const tuesdayToSaturday: DayOfWeek[] = [...tuesdayToFriday, "Saturday"];
const morningAndAfternoon: OpeningRange[] = [
  { opens: "09:00", closes: "12:00" },
  { opens: "14:00", closes: "18:00" },
];

type Option = { value: string; label: string };
const commonSourcesFirst: Option[] = [
  { value: "bouche-oreille", label: "Bouche-à-oreille" },
  { value: "google", label: "Google" },
  { value: "facebook", label: "Facebook" },
  { value: "instagram", label: "Instagram" },
  { value: "evenement", label: "Lors d'un événement" },
];
/** Common sources, then the studio's own, then « Autre » last (SPEC §5). */
const sources = (extra: Option[]): Option[] => [
  ...commonSourcesFirst,
  ...extra,
  { value: "autre", label: "Autre" },
];

const usselForm: ContactFormSettings = {
  shootingTypes: [
    { value: "portrait-signature", label: "Portrait signature" },
    { value: "portrait-famille", label: "Portrait & famille" },
    { value: "naissance", label: "Naissance" },
    { value: "grossesse-naissance", label: "Grossesse & naissance" },
    { value: "mariage", label: "Mariage" },
    { value: "boudoir", label: "Boudoir" },
    { value: "video", label: "Vidéo" },
    { value: "corporate", label: "Corporate & entreprise" },
    { value: "location", label: "Location du studio" },
    { value: "stage", label: "Stage photo" },
  ],
  sources: sources([
    { value: "parrainage", label: "Parrainage" },
    { value: "partenariat", label: "Partenariat" },
    { value: "concours", label: "Concours" },
    { value: "tirage", label: "Tirage au sort" },
  ]),
  telephone: "required",
  sourceRequired: false,
};

const briveForm: ContactFormSettings = {
  shootingTypes: [
    { value: "famille", label: "Famille" },
    { value: "grossesse", label: "Grossesse" },
    { value: "naissance", label: "Naissance" },
    { value: "mariage", label: "Mariage" },
    { value: "identite", label: "Photo d'identité" },
    { value: "grand-bebe", label: "Grand bébé" },
    { value: "autre", label: "Autre" },
  ],
  sources: sources([{ value: "salon", label: "Salon" }]),
  telephone: "required",
  sourceRequired: true,
};

const limogesForm: ContactFormSettings = {
  shootingTypes: [
    { value: "portrait-famille", label: "Portrait & famille" },
    { value: "naissance", label: "Naissance" },
    { value: "grossesse-naissance", label: "Grossesse & naissance" },
    { value: "portrait-cv-pro", label: "Portrait CV & professionnel" },
    { value: "corporate", label: "Corporate & entreprise" },
    { value: "mariage", label: "Mariage" },
    { value: "mini-seance", label: "Mini-séance" },
    { value: "boudoir", label: "Boudoir" },
  ],
  sources: sources([
    { value: "carte-cadeau", label: "Carte cadeau" },
    { value: "bni", label: "Réseau BNI" },
    { value: "de-brive", label: "Par le studio de Brive" },
    { value: "toyota", label: "Toyota" },
    { value: "vitrine", label: "Vitrine du studio" },
    { value: "connaissance", label: "Une connaissance" },
    { value: "famille", label: "Famille" },
    { value: "amis", label: "Amis" },
    { value: "recommandation", label: "Recommandation" },
    { value: "sigma", label: "Sigma" },
  ]),
  telephone: "none",
  sourceRequired: false,
};

export type SeedStudio = { slug: string; data: StudioData };

/** The three studios of the specification (docs/specification.md), in menu order. Phones, e-mails and links are PLACEHOLDERS. */
export const seedStudios: SeedStudio[] = [
  {
    slug: "ussel",
    data: {
      name: "Studio d'Ussel",
      city: "Ussel",
      description:
        "Notre studio historique au cœur de la Haute-Corrèze : portraits, familles, naissances et mariages dans un espace lumineux et chaleureux.",
      longDescription: "",
      address: { street: "19 rue du 4 Septembre", postalCode: "19200", city: "Ussel" },
      phone: "05 36 49 10 01",
      email: "ussel@example.com",
      bookingUrl: "https://reservation.example.com/studio-ussel",
      onlineBooking: false,
      giftVoucherUrl: "https://bons-cadeaux.example.com/studio-ussel",
      // The contact page's reading (SPEC §2 and §9); Saturday keeps the studio page's 9h – 14h.
      hours: {
        ...everyDay(tuesdayToFriday, [
          { opens: "09:00", closes: "12:00", note: "sans rendez-vous" },
          { opens: "14:00", closes: "18:00", note: "sur rendez-vous uniquement" },
        ]),
        Saturday: [{ opens: "09:00", closes: "14:00", note: "sur rendez-vous uniquement" }],
      },
      closures: [],
      geo: { latitude: 45.5477, longitude: 2.3098 },
      photo: demo("studio-ussel"),
      contactForm: usselForm,
    },
  },
  {
    slug: "brive",
    data: {
      name: "Studio de Brive",
      city: "Brive",
      description:
        "Au centre de Brive-la-Gaillarde, un studio pensé pour les séances en famille, les grossesses et les portraits professionnels.",
      longDescription: "",
      address: { street: "26 Boulevard Jules Ferry", postalCode: "19100", city: "Brive" },
      phone: "05 36 49 10 02",
      email: "brive@example.com",
      bookingUrl: "https://reservation.example.com/studio-brive",
      onlineBooking: false,
      giftVoucherUrl: "https://bons-cadeaux.example.com/studio-brive",
      // The contact page's reading (SPEC §2 and §9): closed on Monday.
      hours: everyDay(tuesdayToSaturday, morningAndAfternoon),
      closures: [],
      geo: { latitude: 45.1589, longitude: 1.5321 },
      photo: demo("studio-brive"),
      contactForm: briveForm,
    },
  },
  {
    slug: "limoges",
    data: {
      name: "Studio de Limoges",
      city: "Ambazac",
      description:
        "À Ambazac, aux portes de Limoges, un studio au calme pour les nouveau-nés, les portraits et les séances boudoir.",
      longDescription: "",
      address: { street: "16 Rue Jouanet", postalCode: "87240", city: "Ambazac" },
      phone: "05 36 49 10 03",
      email: "limoges@example.com",
      bookingUrl: "https://reservation.example.com/studio-limoges",
      onlineBooking: false,
      giftVoucherUrl: "https://bons-cadeaux.example.com/studio-limoges",
      // SPEC §9 gives Limoges one reading (its contact page, §2, says "like Ussel": not kept).
      hours: everyDay(tuesdayToSaturday, morningAndAfternoon),
      closures: [],
      geo: { latitude: 45.9594, longitude: 1.3986 },
      photo: demo("studio-limoges"),
      contactForm: limogesForm,
    },
  },
];

// --- Demo booking ---------------------------------------------------------------------------------------------

/**
 * The demo's online booking (decision 0126): with SEED_DEMO on a brand-new embedded database, each bookable
 * card of /tarifs becomes a session type offered at the three studios, one photographer works at each studio,
 * and the studios take bookings on the site. Price and « ce qui est compris » are the card's (decision 0127);
 * durations are SPEC §9's (a range counts its longest end, so a session never overruns the next one).
 */
export type SeedSessionType = {
  slug: string;
  /** The title of the /tarifs card this type books. */
  card: string;
  name: string;
  description: string;
  durationMinutes: number;
};

export const seedSessionTypes: SeedSessionType[] = [
  {
    slug: "seance-famille",
    card: "Séance Famille",
    name: "Séance Famille",
    description: "Parents, enfants, grands-parents : une séance en studio, de 45 min à 1 h.",
    durationMinutes: 60,
  },
  {
    slug: "seance-grossesse",
    card: "Séance Grossesse",
    name: "Séance Grossesse",
    description: `Votre ventre rond en studio, ${sessionFacts.grossesse.idealMoment}.`,
    durationMinutes: 60,
  },
  {
    slug: "seance-naissance",
    card: "Séance Naissance",
    name: "Séance Naissance",
    description: `Les premiers jours de bébé, ${sessionFacts.naissance.idealMoment} ; comptez ${sessionFacts.naissance.duration}.`,
    durationMinutes: 150,
  },
  {
    slug: "portrait-cv",
    card: "Portrait CV",
    name: "Portrait CV",
    description: "Un portrait professionnel en studio pour votre CV et vos réseaux.",
    durationMinutes: 90,
  },
];

/** First estimates of the travel between the three studios (by road, minutes), for the owner to correct. */
export const seedTravelMinutes: ReadonlyArray<[from: string, to: string, minutes: number]> = [
  ["ussel", "brive", 75],
  ["brive", "limoges", 75],
  ["ussel", "limoges", 80],
];

/** The demo's photographers: one per seeded studio. */
export const seedPhotographers: ReadonlyArray<{ name: string; studio: string }> = [
  { name: "Photographe d'Ussel (démo)", studio: "ussel" },
  { name: "Photographe de Brive (démo)", studio: "brive" },
  { name: "Photographe de Limoges (démo)", studio: "limoges" },
];

// --- Redirects -------------------------------------------------------------------------------------------------

/**
 * Addresses of the old site that still circulate (search results, shared links, printed flyers): each answers
 * a permanent redirect (301) to its page here. SPEC §2 "Redirects".
 */
export const seedRedirects: ReadonlyArray<{ from: string; to: string }> = [
  { from: "/accueil", to: "/" },
  { from: "/prestations/pour-les-pros", to: "/professionnels" },
  { from: "/pour-les-pros", to: "/professionnels" },
  { from: "/pro-portrait", to: "/professionnels" },
  { from: "/pro-reportage", to: "/professionnels" },
  { from: "/pro-evenement", to: "/professionnels" },
  { from: "/packshot", to: "/professionnels" },
  { from: "/immobilier", to: "/professionnels" },
  { from: "/prestations/maternite", to: "/prestations/grossesse" },
  { from: "/prestations/prestations-maternite", to: "/prestations/grossesse" },
  { from: "/photo-scolaire", to: "/scolaire" },
  { from: "/galerie-groupe", to: "/galerie" },
  { from: "/prestations/galerie", to: "/galerie" },
  { from: "/portfolio", to: "/galerie" },
  { from: "/fond-noir", to: "/galerie" },
  { from: "/fond-blanc", to: "/galerie" },
  { from: "/fond-couleur", to: "/galerie" },
  { from: "/fashion", to: "/galerie" },
  { from: "/animaux", to: "/galerie" },
  { from: "/enfant", to: "/portrait-famille" },
  { from: "/prestations/portraits-familles", to: "/portrait-famille" },
  { from: "/actualites", to: "/blog" },
  { from: "/category/naissances", to: "/blog" },
  { from: "/category/familles", to: "/blog" },
  // Three articles of the old WordPress blog (SPEC names them without their addresses).
  { from: "/minis-seances-de-noel", to: "/blog" },
  { from: "/seance-photo-fete-des-meres", to: "/blog" },
  { from: "/seance-photo-famille-en-studio", to: "/blog" },
  { from: "/faq", to: "/contact" },
  { from: "/contact-ussel", to: "/contact-studio-ussel" },
  { from: "/contact-brive", to: "/contact-studio-brive" },
  { from: "/contact-limoges", to: "/contact-studio-limoges" },
];

// --- Demo photos' alternative texts ----------------------------------------------------------------------------

/** The alternative text of each demo photo's row in the media library. */
export function demoPhotoAlt(name: string): string {
  for (const [page, entries] of Object.entries(styleAlts)) {
    const match = new RegExp(`^style-${page}-(\\d+)$`).exec(name);
    const entry = match ? entries[Number(match[1]) - 1] : undefined;
    if (entry) return entry[1];
  }
  const galleryMatch = /^galerie-(\d+)$/.exec(name);
  const galleryEntry = galleryMatch ? galleryEntries[Number(galleryMatch[1]) - 1] : undefined;
  if (galleryEntry) return galleryEntry[0];
  return DEMO_ALTS[name] ?? `Photo de démonstration (${name})`;
}

const DEMO_ALTS: Record<string, string> = {
  "accueil-hero": "Séance photo en studio",
  "borne-selfie": "Invités posant devant une borne selfie",
  "cadeau-fashion": "Séance Fashion en studio",
  "cadeau-iris": "Photo d'un iris en très gros plan",
  "cadeau-princesse": "Enfant en robe de princesse",
  "cadeau-super-heros": "Enfant déguisé en super-héros",
  "gendarmerie-ceremonie": "Cérémonie militaire de gendarmerie",
  "gendarmerie-gala": "Gala de gendarmerie",
  "gendarmerie-groupe": "Photo de groupe d'une unité de gendarmerie",
  "gendarmerie-hero": "Gendarmes en tenue de cérémonie",
  "gendarmerie-video": "Tournage d'une cérémonie",
  "grossesse-hero": "Future maman en studio",
  "mariages-hero": "Mariés le jour de leur mariage",
  "naissances-hero": "Nouveau-né endormi",
  "portrait-famille-hero": "Famille réunie au studio",
  "prestations-hero": "Le studio photo",
  "pro-evenement": "Reportage d'un événement d'entreprise",
  "pro-portrait": "Portrait professionnel en studio",
  "pro-reportage": "Reportage en entreprise",
  "professionnels-hero": "Portrait d'équipe en entreprise",
  "scolaire-hero": "Photo de classe",
  "scolaire-studio-mobile": "Le studio mobile installé dans une salle de classe",
  "seances-a-offrir-hero": "Bon cadeau pour une séance photo",
  "studio-brive": "Le studio de Brive",
  "studio-limoges": "Le studio de Limoges",
  "studio-ussel": "Le studio d'Ussel",
};
