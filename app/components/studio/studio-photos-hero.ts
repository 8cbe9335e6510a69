import type { Picture } from "imagetools-core";
import type { StudioId } from "~/content/studios";
import ussel from "~/assets/photos/studio-ussel.jpg?photo=hero";
import brive from "~/assets/photos/studio-brive.jpg?photo=hero";
import limoges from "~/assets/photos/studio-limoges.jpg?photo=hero";

/** Each studio's photo in the full-width hero sizes, for the studio and studio contact pages. */
export const studioHeroPhotos: Record<StudioId, Picture> = { ussel, brive, limoges };
