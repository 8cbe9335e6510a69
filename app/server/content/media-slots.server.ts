import {
  PHOTO_SLOTS,
  STYLE_GALLERIES,
  photoSlotKeys,
  type Documents,
  type PhotoSlot,
  type StudioData,
  type StyleGalleryKey,
} from "~/content/schemas";

/**
 * Every place of the site a photo fills (decision 0070), named in the owner's words: the page slots, the
 * style galleries, /galerie's items, the gift sessions, the gendarmerie's services and selfie booth, the share
 * image and each studio's photo. One list serves the slot editor (which photo fills what, replace it) and the
 * media library (where a photo is used, so that a used one is not deleted).
 *
 * A slot's key says where it lives: `page:{slot}`, `style:{gallery}:{index}`, `galerie:{index}`,
 * `cadeau:{index}`, `gendarmerie:{index}`, `borne`, `partage`, `studio:{id}`.
 */

export type StudioPhotoSource = {
  id: string;
  slug: string;
  retiredAt: Date | null;
  data: StudioData;
};

export const SLOT_GROUPS = [
  "Pages",
  "Galeries de styles",
  "Galerie",
  "Séances à offrir",
  "Gendarmerie",
  "Studios",
  "Partage",
] as const;
export type SlotGroup = (typeof SLOT_GROUPS)[number];

export type SlotRef = {
  key: string;
  label: string;
  group: SlotGroup;
  /** The photo in it; null for a slot still empty (the share image). */
  mediaId: string | null;
};

type SlotDocuments = Pick<
  Documents,
  "pagePhotos" | "gallery" | "giftSessions" | "gendarmerie" | "identity"
>;

const STYLE_KEYS = Object.keys(STYLE_GALLERIES) as StyleGalleryKey[];

/** Every slot of the documents and studios (retired studios too: their photo stays theirs). */
export function photoSlots(documents: SlotDocuments, studios: StudioPhotoSource[]): SlotRef[] {
  const slots: SlotRef[] = [];
  for (const slot of photoSlotKeys) {
    slots.push({
      key: `page:${slot}`,
      label: PHOTO_SLOTS[slot],
      group: "Pages",
      mediaId: documents.pagePhotos.slots[slot] ?? null,
    });
  }
  for (const gallery of STYLE_KEYS) {
    documents.pagePhotos.galleries[gallery].forEach((item, index) => {
      slots.push({
        key: `style:${gallery}:${index}`,
        label: `${STYLE_GALLERIES[gallery]} — ${item.title}`,
        group: "Galeries de styles",
        mediaId: item.photo,
      });
    });
  }
  documents.gallery.items.forEach((item, index) => {
    slots.push({
      key: `galerie:${index}`,
      label: `Galerie : ${item.title}`,
      group: "Galerie",
      mediaId: item.photo,
    });
  });
  documents.giftSessions.sessions.forEach((session, index) => {
    slots.push({
      key: `cadeau:${index}`,
      label: `Séances à offrir : ${session.title}`,
      group: "Séances à offrir",
      mediaId: session.photo,
    });
  });
  documents.gendarmerie.services.forEach((service, index) => {
    slots.push({
      key: `gendarmerie:${index}`,
      label: `Gendarmerie : ${service.title}`,
      group: "Gendarmerie",
      mediaId: service.photo,
    });
  });
  slots.push({
    key: "borne",
    label: `Gendarmerie : ${documents.gendarmerie.selfieBooth.title}`,
    group: "Gendarmerie",
    mediaId: documents.gendarmerie.selfieBooth.photo,
  });
  for (const studio of studios) {
    slots.push({
      key: `studio:${studio.id}`,
      label: studio.retiredAt ? `${studio.data.name} (retiré)` : studio.data.name,
      group: "Studios",
      mediaId: studio.data.photo,
    });
  }
  slots.push({
    key: "partage",
    label: "Image de partage",
    group: "Partage",
    mediaId: documents.identity.shareImage,
  });
  return slots;
}

/** Media id → the labels of the slots it fills, in the order of the slot list. */
export function usageBySlot(slots: SlotRef[]): Map<string, string[]> {
  const usage = new Map<string, string[]>();
  for (const slot of slots) {
    if (!slot.mediaId) continue;
    const labels = usage.get(slot.mediaId) ?? [];
    if (!labels.includes(slot.label)) labels.push(slot.label);
    usage.set(slot.mediaId, labels);
  }
  return usage;
}

/** What a slot key designates, or null for a key that names no slot (a crafted address). */
export type SlotTarget =
  | { kind: "page"; slot: PhotoSlot }
  | { kind: "style"; gallery: StyleGalleryKey; index: number }
  | { kind: "galerie" | "cadeau" | "gendarmerie"; index: number }
  | { kind: "borne" | "partage" }
  | { kind: "studio"; id: string };

export function parseSlotKey(key: string): SlotTarget | null {
  const [kind, first, second, ...rest] = key.split(":");
  if (rest.length > 0) return null;
  const index = (value: string | undefined) =>
    value !== undefined && /^\d{1,3}$/.test(value) ? Number(value) : null;
  switch (kind) {
    case "page":
      return second === undefined && (photoSlotKeys as string[]).includes(first ?? "")
        ? { kind: "page", slot: first as PhotoSlot }
        : null;
    case "style": {
      const position = index(second);
      return STYLE_KEYS.includes(first as StyleGalleryKey) && position !== null
        ? { kind: "style", gallery: first as StyleGalleryKey, index: position }
        : null;
    }
    case "galerie":
    case "cadeau":
    case "gendarmerie": {
      const position = index(first);
      return position !== null && second === undefined ? { kind, index: position } : null;
    }
    case "borne":
    case "partage":
      return first === undefined ? { kind } : null;
    case "studio":
      return first && second === undefined && /^[0-9a-f-]{36}$/i.test(first)
        ? { kind: "studio", id: first }
        : null;
    default:
      return null;
  }
}
