import guide from "../../../docs/guide-proprietaire.md?raw";
import type { Route } from "./+types/aide";
import { type GuideBlock, parseGuide } from "~/lib/guide";
import { requireAdmin } from "~/server/admin/guard.server";

/**
 * The owner's guide as the build bundled it: docs/guide-proprietaire.md is its one text, read at build
 * time, so the help page and the repository's guide never differ (decision 0140).
 */
const blocks = parseGuide(guide);

export function ownersGuide(): GuideBlock[] {
  return blocks;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { blocks: ownersGuide() };
}
