import type { Route } from "./+types/desabonnement";
import { LINK_PAGE_HEADERS, ONE_CLICK_FIELD, RESUBSCRIBE_INTENT } from "~/lib/newsletter-links";
import {
  afterStep,
  linkPageAnswer as answer,
  linkPressAllowed,
  linkTarget,
  postedToken,
  readSubscriberLink,
  resubscribe,
  unsubscribe,
} from "~/server/newsletter/sign-up.server";

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  return answer({ target: linkTarget(await readSubscriberLink("newsletter-unsubscribe", token)) });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const oneClick = form.get(ONE_CLICK_FIELD.name) === ONE_CLICK_FIELD.value;
  const link = await readSubscriberLink("newsletter-unsubscribe", postedToken(request, form));
  // A token that leads to no subscriber: nothing to do, but counted (someone may be trying tokens).
  if (link.kind !== "subscriber") {
    const allowed = await linkPressAllowed(context, { oneClick });
    return answer({ target: linkTarget(link), event: allowed ? undefined : "rate_limited" });
  }
  // Only « Me réinscrire » says so, and it is counted; any other POST leaves (the one-click body, the
  // page's button, a provider that words its request differently), never counted nor refused: leaving
  // must not fail on a detail, nor on a budget shared with others.
  if (form.get("intent") === RESUBSCRIBE_INTENT) {
    if (!(await linkPressAllowed(context))) {
      return answer({ target: linkTarget(link), event: "rate_limited" });
    }
    const after = await resubscribe(link.subscriber.id);
    return answer({
      target: linkTarget(afterStep(link, after)),
      event: after?.outcome === "unchanged" ? undefined : after?.outcome,
    });
  }
  const after = await unsubscribe(link.subscriber.id, { oneClick });
  return answer({ target: linkTarget(afterStep(link, after)), event: "unsubscribed" });
}

export const headers: Route.HeadersFunction = () => LINK_PAGE_HEADERS;
