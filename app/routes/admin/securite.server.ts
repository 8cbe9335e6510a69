import { data } from "react-router";
import type { Route } from "./+types/securite";
import type { ToastMessage } from "~/lib/toast";
import type { FieldErrors } from "~/lib/forms";
import { type AdminUser, requireAdmin } from "~/server/admin/guard.server";
import { totpSetup, type TotpSetup } from "~/server/admin/two-factor.server";
import { auth, authRefusal } from "~/server/auth/auth.server";
import { redirectWithToast } from "~/server/toast.server";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  return { email: admin.email, twoFactorEnabled: admin.twoFactorEnabled };
}

type ActionData = {
  step?: "confirm";
  setup?: TotpSetup;
  backupCodes?: string[];
  errors?: FieldErrors;
  toast?: ToastMessage;
};

/** The backup codes of the set-up under way, read again from the server (they stay until two-factor is on). */
async function pendingBackupCodes(admin: AdminUser): Promise<string[] | undefined> {
  try {
    const result = await (await auth()).api.viewBackupCodes({ body: { userId: admin.id } });
    return result.backupCodes;
  } catch (error) {
    if (await authRefusal(error)) return undefined;
    throw error;
  }
}

/**
 * The password that turns two-factor on or off, refused: said in the page's alert and under its field. An
 * empty one is refused here, without asking the authentication library (nor counting as an attempt).
 */
function passwordRefused(password: string) {
  const message =
    password === "" ? "Saisissez votre mot de passe actuel" : "Mot de passe incorrect";
  return data<ActionData>(
    {
      errors: { password: message },
      toast: { type: "error", title: "Erreur", description: message },
    },
    { status: 400 },
  );
}

function forward(headers: Headers): Headers {
  const out = new Headers();
  for (const cookie of headers.getSetCookie()) out.append("Set-Cookie", cookie);
  return out;
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const api = (await auth()).api;

  if (intent === "enable") {
    if (admin.twoFactorEnabled) return data<ActionData>({}, { status: 400 });
    const password = String(formData.get("password") ?? "");
    if (password === "") return passwordRefused(password);
    try {
      const result = await api.enableTwoFactor({ body: { password }, headers: request.headers });
      const { totpURI, backupCodes } = result as { totpURI: string; backupCodes: string[] };
      return data<ActionData>({ step: "confirm", setup: await totpSetup(totpURI), backupCodes });
    } catch (error) {
      if (await authRefusal(error)) return passwordRefused(password);
      throw error;
    }
  }

  if (intent === "confirm") {
    if (admin.twoFactorEnabled) return data<ActionData>({}, { status: 400 });
    const totpURI = String(formData.get("totpURI") ?? "");
    if (!totpURI.startsWith("otpauth://")) return data<ActionData>({}, { status: 400 });
    // Until two-factor is on, a refusal shows the same QR code, key and backup codes again.
    const refuse = async (errors: FieldErrors, description: string) =>
      data<ActionData>(
        {
          step: "confirm",
          setup: await totpSetup(totpURI),
          backupCodes: await pendingBackupCodes(admin),
          errors,
          toast: { type: "error", title: "Erreur", description },
        },
        { status: 400 },
      );
    if (formData.get("saved") !== "on") {
      const message = "Confirmez que vous avez enregistré vos codes de secours";
      return refuse({ saved: message }, message);
    }
    const code = String(formData.get("code") ?? "").replace(/\s+/g, "");
    if (code === "") {
      const message = "Saisissez le code à 6 chiffres affiché par l'application";
      return refuse({ code: message }, message);
    }
    try {
      const result = await api.verifyTOTP({
        body: { code },
        headers: request.headers,
        returnHeaders: true,
      });
      return redirectWithToast(
        "/admin/securite",
        { type: "success", title: "Double authentification activée" },
        { headers: forward(result.headers) },
      );
    } catch (error) {
      if (!(await authRefusal(error))) throw error;
      return refuse({ code: "Code invalide" }, "Code invalide");
    }
  }

  if (intent === "disable") {
    const password = String(formData.get("password") ?? "");
    if (password === "") return passwordRefused(password);
    try {
      const result = await api.disableTwoFactor({
        body: { password },
        headers: request.headers,
        returnHeaders: true,
      });
      return redirectWithToast(
        "/admin/securite",
        { type: "success", title: "Double authentification désactivée" },
        { headers: forward(result.headers) },
      );
    } catch (error) {
      if (await authRefusal(error)) return passwordRefused(password);
      throw error;
    }
  }
  return data<ActionData>({}, { status: 400 });
}
