import type { Picture } from "imagetools-core";
import type { StudioId } from "./studios";
import ussel from "~/assets/photos/studio-ussel.jpg?photo";
import brive from "~/assets/photos/studio-brive.jpg?photo";
import limoges from "~/assets/photos/studio-limoges.jpg?photo";

/** One photo per studio (app/assets/photos/studio-*.jpg). */
export const studioPhotos: Record<StudioId, Picture> = { ussel, brive, limoges };
