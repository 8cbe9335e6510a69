import { data } from "react-router";
import type { Route } from "./+types/reinitialiser-mot-de-passe";
import { newPasswordSchema } from "~/lib/admin-schemas";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { isResetTokenValid, resetPasswordWithToken } from "~/server/admin/password-reset.server";
import { tooManyAttempts } from "~/server/admin/sign-in.server";
import { auth } from "~/server/auth/auth.server";
import { clientAddressContext } from "~/server/context";
import { redirectWithToast } from "~/server/toast.server";
import { signInRefusal } from "~/server/forms.server";

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = await isResetTokenValid(await auth(), token);
  return data(
    { token: valid ? token : "", valid },
    // The address holds a secret: never stored by a cache, never sent as a referrer (`same-origin`, not
    // `no-referrer`: with it a browser posts the form without JavaScript with `Origin: null`, which the
    // same-origin check refuses; see http/cache-policy.server.ts).
    { headers: { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" } },
  );
}

// Headers given to data() reach the document only through this export.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

type ActionResult = { errors?: FieldErrors; toast?: ToastMessage; expired?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  const parsed = newPasswordSchema.safeParse({
    password: text("password"),
    confirmation: text("confirmation"),
  });
  if (!parsed.success) {
    return data<ActionResult>(signInRefusal(parsed.error), { status: 400 });
  }
  const outcome = await resetPasswordWithToken(await auth(), {
    token: text("token"),
    password: parsed.data.password,
    client: context.get(clientAddressContext),
  });
  if (outcome.kind === "rate-limited") {
    return data<ActionResult>({ toast: tooManyAttempts(15 * 60) }, { status: 429 });
  }
  if (outcome.kind === "invalid-token") {
    return data<ActionResult>({ expired: true }, { status: 400 });
  }
  throw await redirectWithToast("/admin/login", {
    type: "success",
    title: "Mot de passe enregistré",
    description: "Connectez-vous avec votre nouveau mot de passe.",
  });
}
