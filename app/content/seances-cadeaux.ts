import type { Picture } from "imagetools-core";
import iris from "~/assets/photos/cadeau-iris.jpg?photo";
import fashion from "~/assets/photos/cadeau-fashion.jpg?photo";
import superHeros from "~/assets/photos/cadeau-super-heros.jpg?photo";
import princesse from "~/assets/photos/cadeau-princesse.jpg?photo";
import { fixedPrice, type Price } from "~/lib/prices";

/** SPEC §3 "Gift session": booked and paid on an external online booking or gift service. */
export type GiftSession = {
  title: string;
  price: Price;
  description: string;
  photo: Picture;
  /** PLACEHOLDER: the session's page on the external booking or gift service. */
  link: string;
};

export const giftSessions: GiftSession[] = [
  {
    title: "Séance Iris",
    price: fixedPrice(49),
    description: "La photo de votre iris en très gros plan, un tableau unique et étonnant.",
    photo: iris,
    link: "https://cadeaux.example.com/seance-iris",
  },
  {
    title: "Séance Fashion",
    price: fixedPrice(195),
    description: "Maquillage, tenues et lumière de studio : une séance façon magazine de mode.",
    photo: fashion,
    link: "https://cadeaux.example.com/seance-fashion",
  },
  {
    title: "Séance Super-Héros",
    price: fixedPrice(49),
    description: "Costumes et mises en scène pour les enfants qui rêvent de sauver le monde.",
    photo: superHeros,
    link: "https://cadeaux.example.com/seance-super-heros",
  },
  {
    title: "Séance Princesse",
    price: fixedPrice(49),
    description: "Robes, couronnes et décor féerique pour une séance de conte de fées.",
    photo: princesse,
    link: "https://cadeaux.example.com/seance-princesse",
  },
];
