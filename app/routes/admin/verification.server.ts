import { data, redirect } from "react-router";
import type { Route } from "./+types/verification";
import type { ToastMessage } from "~/lib/toast";
import { getAdmin } from "~/server/admin/guard.server";
import { hasTwoFactorChallenge, verifySecondFactor } from "~/server/admin/two-factor.server";
import { clientAddressContext } from "~/server/context";
import { returnPathOf } from "~/server/admin/return-path.server";
import { leadSignedIn } from "~/server/admin/sign-in.server";

export async function loader({ request }: Route.LoaderArgs) {
  if (await getAdmin(request)) throw redirect(returnPathOf(request) ?? "/admin/dashboard");
  if (!hasTwoFactorChallenge(request)) throw redirect("/admin/login");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const code = String(formData.get("code") ?? "").trim();
  if (!code) {
    return data(
      {
        toast: {
          type: "error",
          title: "Erreur de validation",
          description: "Le code est requis",
        } as ToastMessage,
      },
      { status: 400 },
    );
  }
  const outcome = await verifySecondFactor(request, {
    code,
    client: context.get(clientAddressContext),
  });
  if (outcome.kind === "refused") return data({ toast: outcome.toast }, { status: outcome.status });
  return leadSignedIn(request, outcome);
}
