/** SPEC §3 "Testimonial". PLACEHOLDER: sample quotes, to replace with real customers' words (with consent). */
export type Testimonial = { quote: string; author: string; location: string };

export const testimonials = {
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
} satisfies Record<string, Testimonial[]>;
