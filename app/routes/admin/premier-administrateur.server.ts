import { data } from "react-router";
import type { Route } from "./+types/premier-administrateur";
import { firstAdministratorSchema } from "~/lib/admin-schemas";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import {
  createFirstAdministrator,
  firstAdministratorTokenState,
} from "~/server/admin/first-administrator.server";
import { signInAdministrator } from "~/server/admin/sign-in.server";
import { auth } from "~/server/auth/auth.server";
import { clientAddressContext } from "~/server/context";
import { redirectWithToast } from "~/server/toast.server";
import { signInRefusal } from "~/server/forms.server";

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("jeton") ?? "";
  const state = await firstAdministratorTokenState(token);
  return data(
    { token: state === "valid" ? token : "", state },
    // The address holds a secret: never stored by a cache, never sent as a referrer (same-origin: see
    // reinitialiser-mot-de-passe.server.ts).
    {
      status: state === "valid" ? 200 : 410,
      headers: { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" },
    },
  );
}

// Headers given to data() reach the document only through this export.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

type ActionResult = {
  errors?: FieldErrors;
  toast?: ToastMessage;
  email?: string;
  state?: "invalid" | "used";
};

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  const parsed = firstAdministratorSchema.safeParse({
    email: text("email"),
    password: text("password"),
    confirmation: text("confirmation"),
  });
  if (!parsed.success) {
    return data<ActionResult>(signInRefusal(parsed.error, text("email")), { status: 400 });
  }
  const outcome = await createFirstAdministrator(await auth(), {
    token: text("token"),
    email: parsed.data.email,
    password: parsed.data.password,
  });
  if (outcome !== "created") return data<ActionResult>({ state: outcome }, { status: 410 });
  // She has just typed her password twice: she is signed in with it, as the login form would (its limits,
  // its known device), and lands on the dashboard.
  const signIn = await signInAdministrator(request, {
    ...parsed.data,
    client: context.get(clientAddressContext),
  });
  if (signIn.kind === "signed-in") {
    throw await redirectWithToast(
      "/admin/dashboard",
      {
        type: "success",
        title: "Administrateur créé",
        description: "Vous êtes connecté·e. Bienvenue dans l'administration du site.",
      },
      { headers: signIn.headers },
    );
  }
  throw await redirectWithToast("/admin/login", {
    type: "success",
    title: "Administrateur créé",
    description: "Connectez-vous avec votre adresse e-mail et votre mot de passe.",
  });
}
