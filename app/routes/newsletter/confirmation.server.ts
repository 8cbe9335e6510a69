import type { Route } from "./+types/confirmation";
import { LINK_PAGE_HEADERS } from "~/lib/newsletter-links";
import {
  afterStep,
  confirmSubscription,
  linkPageAnswer as answer,
  linkPressAllowed,
  linkTarget,
  postedToken,
  readSubscriberLink,
} from "~/server/newsletter/sign-up.server";

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  return answer({ target: linkTarget(await readSubscriberLink("newsletter-confirm", token)) });
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = postedToken(request, await request.formData());
  // Every press is counted, whatever its token (decision record 0081).
  const allowed = await linkPressAllowed(context);
  const link = await readSubscriberLink("newsletter-confirm", token);
  if (!allowed) return answer({ target: linkTarget(link), event: "rate_limited" });
  if (link.kind !== "subscriber") return answer({ target: linkTarget(link) });
  const after = await confirmSubscription(link.subscriber.id);
  return answer({
    target: linkTarget(afterStep(link, after)),
    event: after?.changed ? "confirmed" : undefined,
  });
}

export const headers: Route.HeadersFunction = () => LINK_PAGE_HEADERS;
