import { data, redirect } from "react-router";
import type { Route } from "./+types/login";
import { loginSchema } from "~/lib/admin-schemas";
import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";
import { getAdmin } from "~/server/admin/guard.server";
import { leadSignedIn, signInAdministrator } from "~/server/admin/sign-in.server";
import { clientAddressContext } from "~/server/context";
import { returnPathOf } from "~/server/admin/return-path.server";
import { readToast } from "~/server/toast.server";
import { signInRefusal } from "~/server/forms.server";

export async function loader({ request }: Route.LoaderArgs) {
  if (await getAdmin(request)) throw redirect(returnPathOf(request) ?? "/admin/dashboard");
  const { toast: flash, headers } = await readToast(request);
  return data({ flash }, { headers });
}

type ActionResult = { errors?: FieldErrors; email?: string; toast: ToastMessage };

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const submitted = { email: formData.get("email"), password: formData.get("password") };
  const parsed = loginSchema.safeParse({
    email: typeof submitted.email === "string" ? submitted.email : "",
    password: typeof submitted.password === "string" ? submitted.password : "",
  });
  const email = typeof submitted.email === "string" ? submitted.email : "";
  if (!parsed.success) {
    return data<ActionResult>(signInRefusal(parsed.error, email), { status: 400 });
  }
  const outcome = await signInAdministrator(request, {
    ...parsed.data,
    client: context.get(clientAddressContext),
  });
  if (outcome.kind === "refused") {
    return data<ActionResult>({ email, toast: outcome.toast }, { status: outcome.status });
  }
  return leadSignedIn(request, outcome);
}
